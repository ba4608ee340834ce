// The inline-PTX blocks of the compute-dense family (generator/inline_ptx/inline_ptx.h): each
// instruction's semantics against values worked by hand from the PTX ISA's text (the prmt
// modes also against LLVM 22's constant folding of llvm.nvvm.prmt.*), run() on hand-built
// blocks, and make_block over many seeds: run() is total, the text has the expected shape.
// tests/e2e/inline_ptx_compile_test.cpp builds the blocks with ptxas; tests/gpu/
// inline_ptx_gpu_test.cpp compares run() with the GPU.
#include "generator/inline_ptx/inline_ptx_parts.h"

#include "common/common.h"
#include "common/rng.h"
#include "generator/generator.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <regex>
#include <set>

namespace {

using namespace cudiff;
using namespace cudiff::generator::ptx;

TEST(InlinePtxIsa, ShiftAmountsClampToTheWidth) {
  EXPECT_EQ(isa::shl(32, 1, 31), 0x80000000u);
  EXPECT_EQ(isa::shl(32, 1, 32), 0u);
  EXPECT_EQ(isa::shl(32, 1, 0xffffffff), 0u);
  EXPECT_EQ(isa::shl(32, 0xffffffff, 4), 0xfffffff0u);
  EXPECT_EQ(isa::shl(64, 1, 63), 0x8000000000000000ull);
  EXPECT_EQ(isa::shl(64, 1, 64), 0u);
  EXPECT_EQ(isa::shr(Type::s32, 0x80000000, 31), 0xffffffffu);
  EXPECT_EQ(isa::shr(Type::s32, 0x80000000, 200), 0xffffffffu);  // clamped: the sign fills
  EXPECT_EQ(isa::shr(Type::s32, 0x7fffffff, 40), 0u);
  EXPECT_EQ(isa::shr(Type::u32, 0x80000000, 32), 0u);
  EXPECT_EQ(isa::shr(Type::b32, 0x80000000, 31), 1u);  // .b shifts are logical
  EXPECT_EQ(isa::shr(Type::s64, 0x8000000000000000ull, 64), ~0ull);
  EXPECT_EQ(isa::shr(Type::s64, 0x8000000000000000ull, 0xffffffff), ~0ull);
  EXPECT_EQ(isa::shr(Type::u64, 0x8000000000000000ull, 63), 1u);
}

TEST(InlinePtxIsa, FunnelShiftsWrapOrClamp) {
  // {b, a} = 0x0123456789abcdef
  EXPECT_EQ(isa::shf(true, false, 0x89abcdef, 0x01234567, 4), 0x12345678u);
  EXPECT_EQ(isa::shf(true, false, 0x89abcdef, 0x01234567, 36), 0x12345678u);  // wrap: 36 & 31
  EXPECT_EQ(isa::shf(true, true, 0x89abcdef, 0x01234567, 36), 0x89abcdefu);   // clamp: 32
  EXPECT_EQ(isa::shf(true, true, 0x89abcdef, 0x01234567, 0), 0x01234567u);
  EXPECT_EQ(isa::shf(false, false, 0x89abcdef, 0x01234567, 4), 0x789abcdeu);
  EXPECT_EQ(isa::shf(false, true, 0x89abcdef, 0x01234567, 40), 0x01234567u);
  EXPECT_EQ(isa::shf(false, false, 0x89abcdef, 0x01234567, 32), 0x89abcdefu);  // wrap: 0
}

TEST(InlinePtxIsa, PermuteModesMatchTheIsaTable) {
  // Values from `llc-22 -mcpu=sm_90` folding llvm.nvvm.prmt* on constants.
  const std::uint32_t a = 0x33221100, b = 0xF7E6D5C4;
  EXPECT_EQ(isa::prmt(PrmtMode::generic, 0x33A21100, b, 0x3210), 0x33A21100u);
  EXPECT_EQ(isa::prmt(PrmtMode::generic, 0x33A21100, b, 0x7654), 0xF7E6D5C4u);
  EXPECT_EQ(isa::prmt(PrmtMode::generic, 0x33A21100, b, 0xba98), 0x00ff0000u);  // sign replication
  EXPECT_EQ(isa::prmt(PrmtMode::generic, 0x33A21100, b, 0x0f8e), 0x00ff00ffu);
  EXPECT_EQ(isa::prmt(PrmtMode::f4e, a, b, 0), 0x33221100u);
  EXPECT_EQ(isa::prmt(PrmtMode::f4e, a, b, 1), 0xc4332211u);
  EXPECT_EQ(isa::prmt(PrmtMode::f4e, a, b, 3), 0xe6d5c433u);
  EXPECT_EQ(isa::prmt(PrmtMode::f4e, a, b, 6), 0xd5c43322u);  // only c[1:0] counts
  EXPECT_EQ(isa::prmt(PrmtMode::b4e, a, b, 0), 0xd5e6f700u);
  EXPECT_EQ(isa::prmt(PrmtMode::b4e, a, b, 1), 0xe6f70011u);
  EXPECT_EQ(isa::prmt(PrmtMode::b4e, a, b, 3), 0x00112233u);
  EXPECT_EQ(isa::prmt(PrmtMode::rc8, a, b, 2), 0x22222222u);
  EXPECT_EQ(isa::prmt(PrmtMode::ecl, a, b, 1), 0x33221111u);
  EXPECT_EQ(isa::prmt(PrmtMode::ecl, a, b, 2), 0x33222222u);
  EXPECT_EQ(isa::prmt(PrmtMode::ecr, a, b, 1), 0x11111100u);
  EXPECT_EQ(isa::prmt(PrmtMode::ecr, a, b, 2), 0x22221100u);
  EXPECT_EQ(isa::prmt(PrmtMode::rc16, a, b, 0), 0x11001100u);
  EXPECT_EQ(isa::prmt(PrmtMode::rc16, a, b, 1), 0x33223322u);
}

TEST(InlinePtxIsa, BitFieldExtractReplicatesTheFieldsSignBit) {
  EXPECT_EQ(isa::bfe(Type::u32, 0x12345678, 4, 8), 0x67u);
  EXPECT_EQ(isa::bfe(Type::u32, 0x12345678, 0x104, 0x108), 0x67u);  // pos and len: low 8 bits
  EXPECT_EQ(isa::bfe(Type::s32, 0x000000f0, 4, 4), 0xffffffffu);
  EXPECT_EQ(isa::bfe(Type::s32, 0x00000070, 4, 4), 0x7u);
  EXPECT_EQ(isa::bfe(Type::s32, 0x80000000, 31, 8), 0xffffffffu);  // field runs past the msb
  EXPECT_EQ(isa::bfe(Type::s32, 0x80000000, 40, 5), 0xffffffffu);  // start past the msb: a[31]
  EXPECT_EQ(isa::bfe(Type::s32, 0x40000000, 40, 5), 0u);
  EXPECT_EQ(isa::bfe(Type::s32, 0xffffffff, 3, 0), 0u);  // length 0: zero
  EXPECT_EQ(isa::bfe(Type::u32, 0xffffffff, 28, 8), 0xfu);
  EXPECT_EQ(isa::bfe(Type::u64, 0xF000000000000000ull, 60, 8), 0xfu);
  EXPECT_EQ(isa::bfe(Type::s64, 0xF000000000000000ull, 60, 4), ~0ull);
}

TEST(InlinePtxIsa, BitFieldInsertStopsAtTheMsb) {
  EXPECT_EQ(isa::bfi(32, 0xff, 0, 4, 4), 0xf0u);
  EXPECT_EQ(isa::bfi(32, 0xff, 0, 30, 8), 0xc0000000u);
  EXPECT_EQ(isa::bfi(32, 0xff, 0x12345678, 4, 0), 0x12345678u);
  EXPECT_EQ(isa::bfi(32, 0xff, 0x12345678, 32, 8), 0x12345678u);
  EXPECT_EQ(isa::bfi(32, 0x0, 0xffffffff, 0x108, 0x104), 0xfffff0ffu);
  EXPECT_EQ(isa::bfi(64, 0x1, 0, 63, 200), 0x8000000000000000ull);
}

TEST(InlinePtxIsa, BitScans) {
  EXPECT_EQ(isa::bfind(Type::u32, false, 0), 0xffffffffu);
  EXPECT_EQ(isa::bfind(Type::u32, true, 0), 0xffffffffu);
  EXPECT_EQ(isa::bfind(Type::u32, false, 1), 0u);
  EXPECT_EQ(isa::bfind(Type::u32, true, 1), 31u);
  EXPECT_EQ(isa::bfind(Type::u32, false, 0x80000000), 31u);
  EXPECT_EQ(isa::bfind(Type::s32, false, 0xffffffff), 0xffffffffu);  // no non-sign bit
  EXPECT_EQ(isa::bfind(Type::s32, false, 0x80000000), 30u);
  EXPECT_EQ(isa::bfind(Type::s32, false, 0xfffffffe), 0u);
  EXPECT_EQ(isa::bfind(Type::s32, true, 0x80000000), 1u);
  EXPECT_EQ(isa::bfind(Type::u64, false, 1ull << 40), 40u);
  EXPECT_EQ(isa::bfind(Type::s64, true, 1), 63u);
  EXPECT_EQ(isa::brev(32, 1), 0x80000000u);
  EXPECT_EQ(isa::brev(32, 0xf), 0xf0000000u);
  EXPECT_EQ(isa::brev(64, 1), 0x8000000000000000ull);
  EXPECT_EQ(isa::popc(0xffffffff), 32u);
  EXPECT_EQ(isa::popc(~0ull), 64u);
  EXPECT_EQ(isa::clz(32, 0), 32u);
  EXPECT_EQ(isa::clz(64, 0), 64u);
  EXPECT_EQ(isa::clz(32, 1), 31u);
  EXPECT_EQ(isa::clz(32, 0x80000000), 0u);
  EXPECT_EQ(isa::clz(64, 0x80000000), 32u);
}

TEST(InlinePtxIsa, CarriesAndBorrows) {
  EXPECT_EQ(isa::add_carry(32, 0xffffffff, 1, false).value, 0u);
  EXPECT_TRUE(isa::add_carry(32, 0xffffffff, 1, false).carry);
  EXPECT_EQ(isa::add_carry(32, 0xffffffff, 0xffffffff, true).value, 0xffffffffu);
  EXPECT_TRUE(isa::add_carry(32, 0xffffffff, 0xffffffff, true).carry);
  EXPECT_FALSE(isa::add_carry(32, 0x7fffffff, 1, false).carry);  // signed overflow is no carry
  EXPECT_TRUE(isa::add_carry(64, ~0ull, 1, false).carry);
  EXPECT_EQ(isa::sub_borrow(32, 0, 1, false).value, 0xffffffffu);
  EXPECT_TRUE(isa::sub_borrow(32, 0, 1, false).carry);
  EXPECT_EQ(isa::sub_borrow(32, 5, 5, true).value, 0xffffffffu);
  EXPECT_TRUE(isa::sub_borrow(32, 5, 5, true).carry);
  EXPECT_EQ(isa::sub_borrow(32, 5, 4, true).value, 0u);
  EXPECT_FALSE(isa::sub_borrow(32, 5, 4, true).carry);
  EXPECT_TRUE(isa::sub_borrow(64, 0, ~0ull, false).carry);
}

TEST(InlinePtxIsa, MultipliesAndMinMax) {
  EXPECT_EQ(isa::mul_hi(Type::s32, 0xffffffff, 0xffffffff), 0u);  // (-1)(-1) = 1
  EXPECT_EQ(isa::mul_hi(Type::u32, 0xffffffff, 0xffffffff), 0xfffffffeu);
  EXPECT_EQ(isa::mul_hi(Type::s32, 0x80000000, 2), 0xffffffffu);
  EXPECT_EQ(isa::mul_lo(Type::s32, 0x80000000, 2), 0u);
  EXPECT_EQ(isa::mul_wide(Type::s32, 0xffffffff, 2), 0xfffffffffffffffeull);
  EXPECT_EQ(isa::mul_wide(Type::u32, 0xffffffff, 2), 0x1fffffffeull);
  EXPECT_EQ(isa::mul_hi(Type::u64, ~0ull, ~0ull), 0xfffffffffffffffeull);
  EXPECT_EQ(isa::mul_hi(Type::s64, 0x8000000000000000ull, 2), ~0ull);
  EXPECT_EQ(isa::min(Type::s32, 0x80000000, 0x7fffffff), 0x80000000u);
  EXPECT_EQ(isa::min(Type::u32, 0x80000000, 0x7fffffff), 0x7fffffffu);
  EXPECT_EQ(isa::max(Type::s64, ~0ull, 0), 0u);
  EXPECT_EQ(isa::max(Type::u64, ~0ull, 0), ~0ull);
}

TEST(InlinePtxIsa, ComparisonsAndLogic) {
  EXPECT_TRUE(isa::compare(CmpOp::lt, Type::s32, 0xffffffff, 0));
  EXPECT_FALSE(isa::compare(CmpOp::lt, Type::u32, 0xffffffff, 0));
  EXPECT_FALSE(isa::compare(CmpOp::lo, Type::u32, 0xffffffff, 0));
  EXPECT_TRUE(isa::compare(CmpOp::hs, Type::u64, ~0ull, ~0ull));
  EXPECT_TRUE(isa::compare(CmpOp::ge, Type::s64, 0, 0x8000000000000000ull));
  EXPECT_TRUE(isa::compare(CmpOp::ne, Type::b32, 1, 2));
  EXPECT_EQ(isa::lop3(0x0f0f0f0f, 0x00ff00ff, 0x0000ffff, 0x96), 0x0f0f0f0fu ^ 0x00ff00ffu ^ 0x0000ffffu);
  EXPECT_EQ(isa::lop3(0x12345678, 0, 0, 0xF0), 0x12345678u);
  EXPECT_EQ(isa::lop3(0, 0x12345678, 0, 0xCC), 0x12345678u);
  EXPECT_EQ(isa::lop3(0, 0, 0x12345678, 0xAA), 0x12345678u);
  EXPECT_EQ(isa::lop3(0xff00ff00, 0xf0f0f0f0, 0xcccccccc, 0x80), 0xff00ff00u & 0xf0f0f0f0u & 0xccccccccu);
  EXPECT_EQ(isa::cnot(0), 1u);
  EXPECT_EQ(isa::cnot(5), 0u);
}

TEST(InlinePtxIsa, ConversionsTruncateAndExtendByTheTypes) {
  EXPECT_EQ(isa::cvt(Type::u32, Type::s8, 0x180, 32), 0xffffff80u);  // source chopped, sign-extended
  EXPECT_EQ(isa::cvt(Type::s8, Type::u32, 0x1ff, 32), 0xffffffffu);  // signed dtype: register sign-extended
  EXPECT_EQ(isa::cvt(Type::u8, Type::s32, 0xffffff80, 32), 0x80u);   // unsigned dtype: zero-extended
  EXPECT_EQ(isa::cvt(Type::s16, Type::s64, 0x123456789abc8000ull, 32), 0xffff8000u);
  EXPECT_EQ(isa::cvt(Type::u64, Type::s32, 0x80000000, 64), 0xffffffff80000000ull);
  EXPECT_EQ(isa::cvt(Type::s64, Type::u32, 0x80000000, 64), 0x80000000ull);
  EXPECT_EQ(isa::cvt(Type::u32, Type::u64, 0x123456789ull, 32), 0x23456789u);
  EXPECT_EQ(isa::cvt(Type::u16, Type::u8, 0x1ff, 32), 0xffu);
  EXPECT_EQ(isa::cvt(Type::s64, Type::s16, 0xffff8000, 64), 0xffffffffffff8000ull);
}

TEST(InlinePtxIsa, VideoLanesWrapOrSaturate) {
  using V = VideoOp;
  const Type u = Type::u32, s = Type::s32;
  EXPECT_EQ(isa::video(V::add, 4, u, u, u, false, false, 0xff01ff01, 0x01010101, 0), 0x00020002u);
  EXPECT_EQ(isa::video(V::add, 4, u, u, u, true, false, 0xff01ff01, 0x01010101, 0), 0xff02ff02u);
  EXPECT_EQ(isa::video(V::add, 4, s, s, s, true, false, 0x7f7f8080, 0x01010101, 0), 0x7f7f8181u);
  EXPECT_EQ(isa::video(V::sub, 4, u, u, u, true, false, 0x00000000, 0x01010101, 0), 0u);
  EXPECT_EQ(isa::video(V::sub, 4, u, u, u, false, false, 0x00000000, 0x01010101, 0), 0xffffffffu);
  EXPECT_EQ(isa::video(V::sub, 4, s, u, s, true, false, 0x000000ff, 0x000000ff, 0), 0x0000007fu);  // 255 - (-1)
  EXPECT_EQ(isa::video(V::absdiff, 4, u, u, u, false, true, 0x01020304, 0x04030201, 100), 108u);
  EXPECT_EQ(isa::video(V::min, 4, s, s, s, false, false, 0x80ff0001, 0x01010101, 0), 0x80ff0001u);
  EXPECT_EQ(isa::video(V::min, 4, u, u, u, false, false, 0x80ff0001, 0x01010101, 0), 0x01010001u);
  EXPECT_EQ(isa::video(V::max, 2, s, s, s, false, false, 0x80007fff, 0x00010001, 0), 0x00017fffu);
  EXPECT_EQ(isa::video(V::add, 2, s, s, s, true, false, 0x7fff7fff, 0x00010001, 0), 0x7fff7fffu);
  EXPECT_EQ(isa::video(V::add, 2, s, s, s, false, false, 0x7fff7fff, 0x00010001, 0), 0x80008000u);
}

// ---- run() on hand-built blocks ---------------------------------------------------------

Operand reg(Bank bank, int index, bool negated = false) { return Operand{false, Reg{bank, index}, 0, negated}; }
Operand imm(std::uint64_t value) { return Operand{true, Reg{}, value, false}; }

Instruction ins(Op op, Type type, std::vector<Reg> dests, std::vector<Operand> sources, int mode = 0) {
  Instruction in;
  in.op = op;
  in.type = type;
  in.dests = std::move(dests);
  in.sources = std::move(sources);
  in.mode = mode;
  return in;
}

Instruction control(Op op, int label, std::optional<Operand> guard = std::nullopt) {
  Instruction in;
  in.op = op;
  in.label = label;
  in.guard = guard;
  return in;
}

// out0 = x << 5 by a loop of five doublings; out1 = the 64-bit sum of (x, 0xffffffff) through
// a carry chain into the upper word; a guarded xor that runs only when x is odd.
Block hand_block() {
  Block block;
  block.inputs = {Width::b32};
  block.outputs = {Width::b32, Width::b64};
  const Reg t0{Bank::b32, 0}, t1{Bank::b32, 1}, t2{Bank::b32, 2}, t3{Bank::b32, 3}, p0{Bank::pred, 0},
      p1{Bank::pred, 1}, w0{Bank::b64, 0}, w1{Bank::b64, 1};
  block.body = {
      ins(Op::mov, Type::b32, {t0}, {reg(Bank::input, 0)}),
      ins(Op::add_cc, Type::u32, {t2}, {reg(Bank::b32, 0), imm(0xffffffff)}),
      ins(Op::addc, Type::u32, {t3}, {imm(0), imm(0)}),
      ins(Op::mov, Type::u32, {t1}, {imm(0)}),
      control(Op::label, 0),
      ins(Op::shl, Type::b32, {t0}, {reg(Bank::b32, 0), imm(1)}),
      ins(Op::add, Type::u32, {t1}, {reg(Bank::b32, 1), imm(1)}),
      ins(Op::setp, Type::u32, {p0}, {reg(Bank::b32, 1), imm(5)}, static_cast<int>(CmpOp::lt)),
      control(Op::bra, 0, reg(Bank::pred, 0)),
      ins(Op::and_, Type::b32, {t1}, {reg(Bank::input, 0), imm(1)}),
      ins(Op::setp, Type::u32, {p1}, {reg(Bank::b32, 1), imm(0)}, static_cast<int>(CmpOp::eq)),
      ins(Op::xor_, Type::b32, {t0}, {reg(Bank::b32, 0), imm(0x80000000)}),
      ins(Op::mov, Type::b32, {Reg{Bank::output, 0}}, {reg(Bank::b32, 0)}),
      ins(Op::cvt, Type::u64, {w0}, {reg(Bank::b32, 3)}),
      ins(Op::shl, Type::b64, {w0}, {reg(Bank::b64, 0), imm(32)}),
      ins(Op::cvt, Type::u64, {w1}, {reg(Bank::b32, 2)}),
      ins(Op::or_, Type::b64, {w0}, {reg(Bank::b64, 0), reg(Bank::b64, 1)}),
      ins(Op::mov, Type::b64, {Reg{Bank::output, 1}}, {reg(Bank::b64, 0)}),
  };
  block.body[11].guard = reg(Bank::pred, 1, true);  // @!p1: x is odd
  block.body[13].type2 = Type::u32;
  block.body[15].type2 = Type::u32;
  return block;
}

TEST(InlinePtxRun, HandBuiltBlockLoopsCarriesAndGuards) {
  const Block block = hand_block();
  EXPECT_EQ(run(block, {3}), (std::vector<std::uint64_t>{(3u << 5) ^ 0x80000000u, 3ull + 0xffffffffull}));
  EXPECT_EQ(run(block, {4}), (std::vector<std::uint64_t>{4u << 5, 4ull + 0xffffffffull}));
  EXPECT_EQ(run(block, {0}), (std::vector<std::uint64_t>{0, 0xffffffffull}));
  EXPECT_EQ(run(block, {0xffffffff}), (std::vector<std::uint64_t>{0xffffffe0u ^ 0x80000000u, 0x1fffffffeull}));
}

TEST(InlinePtxRun, HandBuiltBlockTextIsTheAsmStatement) {
  const std::string text = asm_statement(hand_block(), {"o0", "o1"}, {"x"});
  EXPECT_TRUE(test::contains(text, "asm volatile(\"{\\n\\t\"\n")) << text;
  EXPECT_TRUE(test::contains(text, "\".reg .b32 %%ct<4>;\\n\\t\"")) << text;
  EXPECT_TRUE(test::contains(text, "\".reg .b64 %%cw<2>;\\n\\t\"")) << text;
  EXPECT_TRUE(test::contains(text, "\".reg .pred %%cp<2>;\\n\\t\"")) << text;
  EXPECT_TRUE(test::contains(text, "\"mov.b32 %%ct0, %2;\\n\\t\"")) << text;  // inputs after outputs
  EXPECT_TRUE(test::contains(text, "\"add.cc.u32 %%ct2, %%ct0, 0xFFFFFFFF;\\n\\t\"")) << text;
  EXPECT_TRUE(test::contains(text, "\"cudiff_l0:\\n\\t\"")) << text;
  EXPECT_TRUE(test::contains(text, "\"@%%cp0 bra cudiff_l0;\\n\\t\"")) << text;
  EXPECT_TRUE(test::contains(text, "\"@!%%cp1 xor.b32 %%ct0, %%ct0, 0x80000000;\\n\\t\"")) << text;
  EXPECT_TRUE(test::contains(text, "\"cvt.u64.u32 %%cw0, %%ct3;\\n\\t\"")) << text;
  EXPECT_TRUE(test::contains(text, "\"shl.b64 %%cw0, %%cw0, 0x00000020;\\n\\t\"")) << text;
  EXPECT_TRUE(test::contains(text, "\"mov.b64 %1, %%cw0;\\n\\t\"")) << text;
  EXPECT_TRUE(text.ends_with(": \"=r\"(o0), \"=l\"(o1)\n    : \"r\"(x));")) << text;
}

TEST(InlinePtxRun, ReadingAnUnwrittenRegisterIsAGeneratorDefect) {
  Block block;
  block.outputs = {Width::b32};
  block.body = {ins(Op::mov, Type::b32, {Reg{Bank::output, 0}}, {reg(Bank::b32, 3)})};
  EXPECT_EQ(test::error_kind_of([&] { run(block, {}); }), ErrorKind::internal);
  block.body = {ins(Op::addc, Type::u32, {Reg{Bank::output, 0}}, {imm(1), imm(2)})};  // CC.CF unset
  EXPECT_EQ(test::error_kind_of([&] { run(block, {}); }), ErrorKind::internal);
}

// ---- make_block over many seeds ---------------------------------------------------------

std::vector<Width> widths(Rng& rng, int count) {
  std::vector<Width> result;
  for (int i = 0; i < count; ++i) result.push_back(rng.chance(0.5) ? Width::b32 : Width::b64);
  return result;
}

std::vector<std::uint64_t> edge_inputs(const Block& block, std::uint64_t salt) {
  static const std::uint64_t edges[] = {0, 1, 0xffffffff, 0x80000000, 0x7fffffff, ~0ull, 0x8000000000000000ull};
  std::vector<std::uint64_t> values;
  for (std::size_t i = 0; i < block.inputs.size(); ++i) {
    const std::uint64_t value = (salt + i) % 9 < 7 ? edges[(salt + i) % 7] : (salt + i) * 0x9E3779B97F4A7C15ull;
    values.push_back(block.inputs[i] == Width::b32 ? value & 0xffffffff : value);
  }
  return values;
}

// The PTX lines of an asm statement, checked to be quoted lines of the expected shape.
std::vector<std::string> ptx_lines(const std::string& statement) {
  const std::vector<std::string> lines = split_lines(statement);
  EXPECT_EQ(lines.front(), "asm volatile(\"{\\n\\t\"");
  std::vector<std::string> body;
  std::size_t i = 1;
  for (; i < lines.size() && lines[i] != "    \"}\""; ++i) {
    const std::string& line = lines[i];
    EXPECT_TRUE(line.starts_with("    \"") && line.ends_with("\\n\\t\"")) << line;
    body.push_back(line.substr(5, line.size() - 5 - 5));
  }
  EXPECT_EQ(i + 3, lines.size()) << statement;  // "}", outputs, inputs
  return body;
}

TEST(InlinePtxBlocks, RunIsTotalAndTheTextHasTheExpectedShape) {
  static const std::regex instruction(
      R"(^(\.reg \.(b32|b64|pred) %%c[twp]<[0-9]+>;|cudiff_l[0-9]+:|(@!?%%cp[0-9]+ )?[a-z0-9.]+( [^;]*)?;)$)");
  static const std::regex reg_use(R"(%%c([twp])([0-9]+))");
  static const std::regex operand_use(R"((^|[ ,|!])%([0-9]+))");
  const generator::Policy policy = generator::Policy::defaults();
  std::set<std::string> features;
  for (std::uint64_t seed = 1; seed <= 400; ++seed) {
    SeededRng rng(seed);
    const auto inputs = widths(rng, static_cast<int>(rng.range(1, 4)));
    const auto outputs = widths(rng, static_cast<int>(rng.range(1, 3)));
    const Block block = make_block(rng, policy, inputs, outputs);
    features.insert(block.features.begin(), block.features.end());
    for (std::uint64_t salt = 0; salt < 4; ++salt) {
      const auto results = run(block, edge_inputs(block, salt + seed));
      ASSERT_EQ(results.size(), outputs.size()) << seed;
      for (std::size_t i = 0; i < results.size(); ++i)
        if (outputs[i] == Width::b32) EXPECT_LE(results[i], 0xffffffffull) << seed;
    }
    std::vector<std::string> out_names, in_names;
    for (std::size_t i = 0; i < outputs.size(); ++i) out_names.push_back("o" + std::to_string(i));
    for (std::size_t i = 0; i < inputs.size(); ++i) in_names.push_back("i" + std::to_string(i));
    const std::string text = asm_statement(block, out_names, in_names);
    std::map<char, int> declared;
    std::set<std::string> labels, targets;
    for (const std::string& line : ptx_lines(text)) {
      ASSERT_TRUE(std::regex_match(line, instruction)) << "seed " << seed << ": " << line;
      if (line.starts_with(".reg")) {
        declared[line[line.find("%%c") + 3]] = std::stoi(line.substr(line.find('<') + 1));
        continue;
      }
      if (line.ends_with(":")) {
        EXPECT_TRUE(labels.insert(line.substr(0, line.size() - 1)).second) << "label twice: " << line;
        continue;
      }
      if (const auto at = line.find("bra"); at != std::string::npos && line.find("cudiff_l") != std::string::npos)
        targets.insert(line.substr(line.find("cudiff_l"), line.size() - 1 - line.find("cudiff_l")));
      for (std::sregex_iterator it(line.begin(), line.end(), reg_use), end; it != end; ++it)
        EXPECT_LT(std::stoi((*it)[2]), declared[(*it)[1].str()[0]]) << "undeclared register: " << line;
      for (std::sregex_iterator it(line.begin(), line.end(), operand_use), end; it != end; ++it)
        EXPECT_LT(static_cast<std::size_t>(std::stoi((*it)[2])), inputs.size() + outputs.size()) << line;
    }
    for (const std::string& target : targets) EXPECT_TRUE(labels.count(target)) << "seed " << seed << ": " << target;
  }
  for (const std::string& family : family_names()) EXPECT_TRUE(features.count(family)) << family;
  for (const char* structure : {"loop", "if", "predicated"}) EXPECT_TRUE(features.count(structure)) << structure;
}

TEST(InlinePtxBlocks, SameSeedSameBlockAndAFamilyKnobSwitchesItsFamilyOff) {
  const generator::Policy policy = generator::Policy::defaults();
  SeededRng first(77), second(77);
  const Block a = make_block(first, policy, {Width::b32, Width::b64}, {Width::b64});
  const Block b = make_block(second, policy, {Width::b32, Width::b64}, {Width::b64});
  EXPECT_EQ(asm_statement(a, {"o"}, {"x", "y"}), asm_statement(b, {"o"}, {"x", "y"}));
  for (const std::string& only : family_names()) {
    generator::Policy single = policy;
    for (const std::string& name : family_names()) single.set("ptx.family." + name, name == only ? 1 : 0);
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
      SeededRng rng(seed);
      const Block block = make_block(rng, single, {Width::b32, Width::b64}, {Width::b32, Width::b64});
      for (const Instruction& in : block.body)
        EXPECT_TRUE(in.family == only || in.family == "move" || in.family == "loop" || in.family == "if")
            << only << " seed " << seed << ": " << instruction_text(in, 2) << " from " << in.family;
      EXPECT_TRUE(std::find(block.features.begin(), block.features.end(), only) != block.features.end()) << only;
    }
  }
}

} // namespace
