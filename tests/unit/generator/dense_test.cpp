// The compute-dense family (generator/dense/dense*.cpp): the operations' values on hand-worked
// operands (from the CUDA Math API's and PTX ISA's descriptions), generation over many seeds
// (total, deterministic, every family reachable, the large size class has hundreds of
// statements), and the text each construct shows.
#include "generator/dense/dense.h"
#include "generator/generator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <set>

namespace {

using namespace cudiff::generator;
using dense::Op;

std::uint64_t op(Op o, std::vector<std::uint64_t> args) {
  args.resize(5, 0);
  return dense::apply(o, args.data());
}

TEST(DenseOps, IntrinsicsGiveTheDocumentedValues) {
  // __byte_perm: selector nibbles pick bytes of {y, x}; bit 3 of a nibble is ignored.
  EXPECT_EQ(op(Op::BytePerm, {0x33221100, 0x77665544, 0x1054}), 0x11005544u);
  EXPECT_EQ(op(Op::BytePerm, {0xd811cd0d, 0x4e192727, 0xf3030b61}), 0x0dd819cdu);  // measured on an H200
  EXPECT_EQ(op(Op::FunnelL, {0x89abcdef, 0x01234567, 8}), 0x23456789u);
  EXPECT_EQ(op(Op::FunnelL, {0x89abcdef, 0x01234567, 40}), 0x23456789u);  // wraps: 40 & 31
  EXPECT_EQ(op(Op::FunnelLc, {0x89abcdef, 0x01234567, 40}), 0x89abcdefu);  // clamps at 32
  EXPECT_EQ(op(Op::FunnelR, {0x89abcdef, 0x01234567, 8}), 0x6789abcdu);
  EXPECT_EQ(op(Op::FunnelRc, {0x89abcdef, 0x01234567, 99}), 0x01234567u);
  EXPECT_EQ(op(Op::Brev, {1}), 0x80000000u);
  EXPECT_EQ(op(Op::Clz, {0}), 32u);
  EXPECT_EQ(op(Op::Clz, {0x00010000}), 15u);
  EXPECT_EQ(op(Op::Ffs, {0}), 0u);
  EXPECT_EQ(op(Op::Ffs, {0x80000000}), 32u);
  EXPECT_EQ(op(Op::Popc, {0xf0f0f0f1}), 17u);
  EXPECT_EQ(op(Op::MulHi, {0xffffffff, 0xffffffff}), 0u);           // (-1) * (-1) = 1
  EXPECT_EQ(op(Op::MulHi, {0x80000000, 2}), 0xffffffffu);          // -2^32
  EXPECT_EQ(op(Op::UMulHi, {0xffffffff, 0xffffffff}), 0xfffffffeu);
  EXPECT_EQ(op(Op::Hadd, {0xfffffffd, 0}), 0xfffffffeu);            // floor(-3 / 2)
  EXPECT_EQ(op(Op::RHadd, {0xfffffffd, 0}), 0xffffffffu);           // (-3 + 1) >> 1
  EXPECT_EQ(op(Op::Hadd, {0x7fffffff, 0x7fffffff}), 0x7fffffffu);   // no overflow in the sum
  EXPECT_EQ(op(Op::URHadd, {0xffffffff, 0}), 0x80000000u);
  EXPECT_EQ(op(Op::Sad, {0xfffffffb, 3, 10}), 18u);                 // |-5 - 3| + 10
  EXPECT_EQ(op(Op::USad, {3, 0xfffffffb, 10}), 0xfffffffbu - 3 + 10);
  EXPECT_EQ(op(Op::Dp4a, {0x01020304, 0xffffffff, 10}), 0u);        // 10 - (1 + 2 + 3 + 4)
  EXPECT_EQ(op(Op::UDp4a, {0x01020304, 0x01010101, 0}), 10u);
  EXPECT_EQ(op(Op::Dp2aLo, {0x00020001, 0x00000302, 5}), 13u);      // 5 + 1*2 + 2*3
  EXPECT_EQ(op(Op::UDp2aHi, {0x00020001, 0x03020000, 5}), 13u);
  EXPECT_EQ(op(Op::UMul64Hi, {~0ull, ~0ull}), ~0ull - 1);
  EXPECT_EQ(op(Op::Mul64Hi, {~0ull, ~0ull}), 0u);
  EXPECT_EQ(op(Op::Clzll, {0}), 64u);
  EXPECT_EQ(op(Op::Ffsll, {0x100000000ull}), 33u);
  EXPECT_EQ(op(Op::Brevll, {1}), 0x8000000000000000ull);
}

TEST(DenseOps, SimdLanesWrapCompareAndAverageLaneByLane) {
  EXPECT_EQ(op(Op::VAdd4, {0xff010203, 0x01010101}), 0x00020304u);
  EXPECT_EQ(op(Op::VSub2, {0x00000001, 0x00010002}), 0xffffffffu);
  EXPECT_EQ(op(Op::VAbsDiffS4, {0x00000080, 0x0000007f}), 0x000000ffu);  // |-128 - 127|
  EXPECT_EQ(op(Op::VAbsDiffU4, {0x0000ff00, 0x00000fff}), 0x0000f0ffu);
  EXPECT_EQ(op(Op::VCmpGeU4, {0x01020304, 0x01030204}), 0xff00ffffu);
  EXPECT_EQ(op(Op::VCmpLtS2, {0x8000ffff, 0x00000000}), 0xffffffffu);
  EXPECT_EQ(op(Op::VMinS4, {0x80000000, 0x7f000000}), 0x80000000u);
  EXPECT_EQ(op(Op::VAvgU4, {0x000000ff, 0x00000000}), 0x00000080u);
  EXPECT_EQ(op(Op::VHaddU4, {0x000000ff, 0x00000000}), 0x0000007fu);
}

TEST(DenseOps, NarrowMixedAndExactFloatingPointFollowCpp) {
  EXPECT_EQ(op(Op::Mul16, {0xffff, 0xffff}), 0x0001u);  // computed in unsigned: no int overflow
  EXPECT_EQ(op(Op::SMul16, {0x8000, 0x8000}), 0u);      // 2^30 truncated to short
  EXPECT_EQ(op(Op::Shr8, {0x80, 1}), 0xffffffc0u);      // (signed char)-128 >> 1, promoted
  EXPECT_EQ(op(Op::MixLt, {0xffffffff, 0}), 1u);        // (long long)-1 < 0
  EXPECT_EQ(op(Op::MixULt, {0xff, 5}), 0u);             // (unsigned)-1 < 5 is false
  EXPECT_EQ(op(Op::SDiv, {0x80000000, 0xffff}), static_cast<std::uint32_t>(INT32_MIN / 65535));
  EXPECT_EQ(op(Op::FpSub, {3, 3}), 1u);                 // 3 - 1.5 truncated
  EXPECT_EQ(op(Op::FpSub, {0xfffffffd, 3}), 0xfffffffcu);  // -3 - 1.5 = -4.5 -> -4
  EXPECT_EQ(op(Op::FpMulAdd, {0xffff, 0xffff, 0xfffff}), static_cast<std::uint32_t>(0xfffe0001ull + 0xfffff));
  EXPECT_EQ(op(Op::Carry128, {~0ull, 1, 0}), 1u);
  EXPECT_EQ(op(Op::Shift128, {1, 0, 64}), 1u);
  EXPECT_EQ(op(Op::SMulHi128, {~0ull, 1}), ~0ull);     // -1 * 1 = -1: the high half is all ones
}

TEST(DenseOps, FloatingPointAndHalfPrecisionGiveExactValues) {
  EXPECT_EQ(op(Op::FDivPow2, {0x12345, 3}), 0x2345u >> 3);
  EXPECT_EQ(op(Op::FDivPow2S, {0xfff9, 1}), static_cast<std::uint32_t>(-3));  // -7 / 2 truncates toward zero
  EXPECT_EQ(op(Op::FRcpPow2, {4}), 65536u);
  EXPECT_EQ(op(Op::DRcpPow2, {2, static_cast<std::uint32_t>(-9)}), static_cast<std::uint32_t>(-2));
  EXPECT_EQ(op(Op::FSqrtSquare, {0xabc}), 0xabcu);
  // (float)0x7fffffff rounds to 2^31 = (float)0x80000000 read as unsigned.
  EXPECT_EQ(op(Op::FEqU, {0x7fffffc0, 0x80000000}), 1u);
  EXPECT_EQ(op(Op::FLt, {0x7fffffff, 0x7fffffc1}), 0u);  // both round to 2^31
  EXPECT_EQ(op(Op::FCopySign, {5, 0x80000000}), static_cast<std::uint32_t>(-5));
  EXPECT_EQ(op(Op::FCopySign, {5, 0}), 5u);
  EXPECT_EQ(op(Op::FClassify, {0x7fc00000, 0x7f800000}), 1u | 2u);  // NaN, +inf
  EXPECT_EQ(op(Op::FClassify, {0x7f800000, 0xffc00000}), 0u);       // inf is no NaN, NaN no inf
  EXPECT_EQ(op(Op::FFiniteSign, {0x00400000, 0xff800000}), 4u | 8u);  // a subnormal is finite; -inf
  EXPECT_EQ(op(Op::FFiniteSign, {0x7f800000, 0x00000000}), 0u);
  EXPECT_EQ(op(Op::FSel, {0xfffffff8, 0x10, 1}), static_cast<std::uint32_t>(-4));  // -8 * 0.5
  EXPECT_EQ(op(Op::FSel, {0xfffffff8, 0x10, 2}), 4u);                               // 16 * 0.25
  EXPECT_EQ(op(Op::FToIntClamp, {0x7fffffff}), 2147483520u);  // 2^31 clamped
  EXPECT_EQ(op(Op::FToUIntClamp, {0xffffffff}), 4294967040u);
  EXPECT_EQ(op(Op::FToU64Clamp, {0xffffffff}), 18446742974197923840ull);
  EXPECT_EQ(op(Op::DSel, {0, static_cast<std::uint32_t>(-3), 0}), static_cast<std::uint32_t>(-2));  // -2.5 -> -2
  EXPECT_EQ(op(Op::HAdd, {0, 0}), static_cast<std::uint32_t>(-1024));
  EXPECT_EQ(op(Op::HFma, {15, 0, 0x3ff}), static_cast<std::uint32_t>(15 * -16 + 1023));
  EXPECT_EQ(op(Op::H2Add, {1, 2}), 0x40003c00u);  // half 2.0 : half 1.0
  // bfloat16 products: 0 * 1 = +0 in the low lane, (1 - 8) * 0 = -0 in the high lane.
  EXPECT_EQ(op(Op::B2Mul, {0, 0x10000001}), 0x80000000u);
  EXPECT_EQ(op(Op::BAdd, {0x7f, 0xff}), 254u);
}

TEST(DenseOps, EveryOperationHasAValueForEdgeOperands) {
  const std::uint64_t edges[] = {0, 1, 0x7fffffff, 0x80000000, 0xffffffff, 0x8000000000000000ull, ~0ull};
  for (const dense::OpInfo& info : dense::op_table())
    for (std::uint64_t a : edges)
      for (std::uint64_t b : edges) {
        std::uint64_t args[5] = {a, b, a ^ b, b, a};
        for (std::size_t k = 0; k < info.args.size(); ++k)
          if (info.args[k] == '4') args[k] &= 0xffffffffull;
        const std::uint64_t value = dense::apply(info.op, args);
        if (!info.result64) EXPECT_LE(value, 0xffffffffull) << info.name;
      }
}

int count_statements(const dense::Body& body) {
  int count = 0;
  for (const dense::Stmt& s : body) {
    count += 1 + count_statements(s.body) + count_statements(s.else_body);
    for (const dense::SwitchCase& c : s.cases) count += count_statements(c.body);
  }
  return count;
}

TEST(DenseGenerator, ManySeedsGenerateRunAndRepeatExactly) {
  const Policy policy = Policy::defaults();
  std::set<std::string> families;
  int programs_with_dense = 0;
  const auto start = std::chrono::steady_clock::now();
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    const auto kernels = dense::make_kernels(policy, Swarm{}, Size::small, seed);
    if (!kernels.empty()) ++programs_with_dense;
    for (const dense::Kernel& kernel : kernels) {
      const auto words = dense::run_kernel(kernel);
      ASSERT_EQ(words.size(), std::size_t(kernel.blocks) * kernel.threads * dense::kOutputWordsPerThread +
                                  dense::atomic_words(kernel) + dense::fence_words(kernel));
      families.insert(kernel.families.begin(), kernel.families.end());
      EXPECT_FALSE(dense::emit_kernel(kernel, "").empty());
    }
    const auto again = dense::make_kernels(policy, Swarm{}, Size::small, seed);
    ASSERT_EQ(again.size(), kernels.size());
    for (std::size_t k = 0; k < kernels.size(); ++k)
      EXPECT_EQ(dense::run_kernel(again[k]), dense::run_kernel(kernels[k])) << "seed " << seed;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "300 seeds: " << programs_with_dense << " with compute-dense kernels, " << families.size()
            << " families, " << seconds << " s\n";
  EXPECT_GT(programs_with_dense, 200);  // dense.share 0.85
  for (const char* family : {"dense_arith",
                             "dense_select",
                             "dense_mixed_sign",
                             "dense_narrow",
                             "dense_bitfield",
                             "dense_intrinsics",
                             "dense_simd",
                             "dense_wide",
                             "dense_int128",
                             "dense_fp_exact",
                             "dense_loops",
                             "dense_switch",
                             "dense_goto",
                             "dense_local_array",
                             "dense_shared_words",
                             "dense_dynamic_shared",
                             "dense_vector_memory",
                             "dense_ldg",
                             "dense_functions",
                             "dense_volatile",
                             "dense_collectives",
                             "dense_early_return",
                             "dense_inline_ptx",
                             "dense_fp_float",
                             "dense_half",
                             "dense_byte_store",
                             "dense_wide_mixed",
                             "dense_jump_table",
                             "dense_atomics",
                             "dense_generic_pointers",
                             "dense_bitfield_structs",
                             "dense_padded_structs",
                             "dense_fences",
                             "dense_cache_hints"})
    EXPECT_TRUE(families.count(family)) << family;
}

TEST(DenseGenerator, TheLargeSizeClassHasHundredsOfStatements) {
  const Policy policy = Policy::defaults();
  int largest = 0;
  for (std::uint64_t seed = 1; seed <= 10; ++seed)
    for (const dense::Kernel& kernel : dense::make_kernels(policy, Swarm{}, Size::large, seed)) {
      largest = std::max(largest, count_statements(kernel.body));
      EXPECT_GE(static_cast<int>(kernel.body.size()), 100);
      dense::run_kernel(kernel);
    }
  EXPECT_GE(largest, 200);
}

TEST(DenseGenerator, FamiliesSwitchOffWithTheirKnobs) {
  Policy policy = Policy::defaults();
  policy.set("dense.share", 1);
  const std::vector<Knob> knobs = policy.knobs();
  for (const Knob& knob : knobs)
    if (knob.name.starts_with("dense.family.")) policy.set(knob.name, 0);
  policy.set("dense.family.dense_intrinsics", 1);
  for (std::uint64_t seed = 1; seed <= 40; ++seed)
    for (const dense::Kernel& kernel : dense::make_kernels(policy, Swarm{}, Size::medium, seed)) {
      for (const std::string& family : kernel.families)
        EXPECT_TRUE(family == "dense_arith" || family == "dense_intrinsics") << family;
      const std::string text = dense::emit_kernel(kernel, "");
      EXPECT_EQ(text.find("asm volatile"), std::string::npos);
      EXPECT_EQ(text.find("for (unsigned i0"), std::string::npos);
      // 0.9.0's families: no bit-field or padded struct, no fence, no cache hint.
      for (const char* absent : {"_bffold(", "_tpf(", "__threadfence", "__ldcs(", "__ldlu(", "__stcs(", "__stwb("})
        EXPECT_EQ(text.find(absent), std::string::npos) << absent;
    }
}

dense::Expr constant(std::uint64_t value) {
  dense::Expr e;
  e.value = value;
  return e;
}

dense::Expr operation(Op o, std::vector<dense::Expr> args) {
  dense::Expr e;
  e.kind = dense::Expr::Kind::Operation;
  e.op = o;
  e.args = std::move(args);
  return e;
}

dense::Stmt assign_d(dense::Expr value) {
  dense::Stmt s;
  s.var = 3;  // d
  s.exprs = {std::move(value)};
  return s;
}

/// A kernel of a, b, c, d, w whose body is `body`.
dense::Kernel kernel_of(dense::Body body) {
  dense::Kernel kernel;
  kernel.name = "k";
  kernel.vars = {{"a", dense::VarType::u32},
                 {"b", dense::VarType::u32},
                 {"c", dense::VarType::u32},
                 {"d", dense::VarType::u32},
                 {"w", dense::VarType::u64}};
  kernel.body = std::move(body);
  return kernel;
}

// A jump table over the thread's index, case L setting d = L, predicts what d = tid % N + lo
// predicts: the selector and every label as the text reads them (N 8 and 11, lo 3).
TEST(DenseGenerator, AJumpTableSelectsTheCaseItsSelectorNames) {
  dense::Expr tid;
  tid.kind = dense::Expr::Kind::ThreadId;
  for (const std::uint32_t table : {8u, 11u}) {
    dense::Stmt sw;
    sw.kind = dense::StmtKind::Switch;
    sw.table = table;
    sw.lo = 3;
    sw.exprs = {tid};
    for (std::uint32_t label = 3; label < 3 + table; ++label)
      sw.cases.push_back({label, false, {assign_d(constant(label))}});
    const dense::Kernel switched = kernel_of({sw});
    // t % 8 is t & 7; URem is x % (y | 1u), and 10 | 1 is 11.
    const dense::Expr rest = table == 8 ? operation(Op::And, {tid, constant(7)})
                                        : operation(Op::URem, {tid, constant(10)});
    const dense::Kernel direct = kernel_of({assign_d(operation(Op::Add, {rest, constant(3)}))});
    EXPECT_EQ(dense::run_kernel(switched), dense::run_kernel(direct)) << table;
    const std::string text = dense::emit_kernel(switched, "");
    EXPECT_NE(text.find("% " + std::to_string(table) + "u + 3u) {"), std::string::npos) << text;
    EXPECT_NE(text.find("case " + std::to_string(table + 2) + "u:"), std::string::npos) << text;
  }
}

TEST(DenseGenerator, JumpTablesHaveEightOrMoreConsecutiveCases) {
  Policy policy = Policy::defaults();
  policy.set("dense.share", 1);
  const std::vector<Knob> knobs = policy.knobs();
  for (const Knob& knob : knobs)
    if (knob.name.starts_with("dense.family.")) policy.set(knob.name, 0);
  policy.set("dense.family.dense_jump_table", 1);
  int tables = 0;
  const std::function<void(const dense::Body&)> walk = [&](const dense::Body& body) {
    for (const dense::Stmt& s : body) {
      if (s.kind == dense::StmtKind::Switch && s.table != 0) {
        ++tables;
        EXPECT_GE(s.table, 8u);
        const std::size_t labelled = s.has_default ? s.cases.size() - 1 : s.cases.size();
        ASSERT_EQ(labelled, s.table);
        for (std::size_t c = 0; c < labelled; ++c) EXPECT_EQ(s.cases[c].label, s.lo + c);
      }
      walk(s.body);
      walk(s.else_body);
      for (const dense::SwitchCase& c : s.cases) walk(c.body);
    }
  };
  for (std::uint64_t seed = 1; seed <= 20; ++seed)
    for (const dense::Kernel& kernel : dense::make_kernels(policy, Swarm{}, Size::small, seed)) {
      const int before = tables;
      walk(kernel.body);
      EXPECT_GT(tables, before) << "seed " << seed << ": the family is on and the kernel has no jump table";
      EXPECT_NE(std::find(kernel.families.begin(), kernel.families.end(), "dense_jump_table"), kernel.families.end());
      dense::run_kernel(kernel);
    }
  // Off: none.
  policy.set("dense.family.dense_jump_table", 0);
  policy.set("dense.family.dense_switch", 1);
  for (std::uint64_t seed = 1; seed <= 20; ++seed)
    for (const dense::Kernel& kernel : dense::make_kernels(policy, Swarm{}, Size::small, seed)) {
      const int before = tables;
      walk(kernel.body);
      EXPECT_EQ(tables, before) << "seed " << seed;
    }
}

dense::Expr memory(dense::Expr::Kind kind, std::uint64_t index) {
  dense::Expr e;
  e.kind = kind;
  e.args = {constant(index)};
  return e;
}

// A generic pointer reads and writes exactly the word its selector's state space and its index
// name: the same as the statements that name that space directly.
TEST(DenseGenericPointers, ThePointerReachesTheSpaceItsSelectorNames) {
  using Kind = dense::Expr::Kind;
  const Kind spaces[] = {Kind::Input, Kind::Shared, Kind::Local};
  for (std::uint64_t selector = 0; selector < 6; ++selector) {
    dense::Stmt read;
    read.kind = dense::StmtKind::Generic;
    read.var = 0;
    read.exprs = {constant(selector), constant(13)};
    dense::Stmt direct;
    direct.var = 0;
    direct.compound = dense::CompoundOp::Xor;
    direct.exprs = {memory(spaces[selector % 3], 13)};
    EXPECT_EQ(dense::run_kernel(kernel_of({read})), dense::run_kernel(kernel_of({direct}))) << selector;

    dense::Stmt write;
    write.kind = dense::StmtKind::Generic;
    write.vector_kind = 1;
    write.exprs = {constant(selector), constant(10), constant(77)};
    dense::Stmt store;
    store.kind = selector & 1 ? dense::StmtKind::StoreShared : dense::StmtKind::StoreLocal;
    store.exprs = {constant(10), constant(77)};
    EXPECT_EQ(dense::run_kernel(kernel_of({write})), dense::run_kernel(kernel_of({store}))) << selector;
  }
  dense::Stmt read;
  read.kind = dense::StmtKind::Generic;
  read.var = 2;
  read.exprs = {constant(1), constant(2)};
  const std::string text = dense::emit_kernel(kernel_of({read}), "");
  EXPECT_NE(text.find("cudiff_s == 0u ? &in[cudiff_i & 255u] : cudiff_s == 1u ? &sh[sb + (cudiff_i & 7u)] : "
                      "&loc[cudiff_i & 7u];"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("c ^= *cudiff_g; }"), std::string::npos) << text;
}

TEST(DenseAtomics, EachOperationOnItsWidthAndSignedness) {
  dense::AtomicSlot slot;
  slot.op = dense::AtomicOp::Min;
  EXPECT_EQ(dense::apply_atomic(slot, 0xffffffffu, 1), 1u);
  slot.is_signed = true;  // -1 < 1
  EXPECT_EQ(dense::apply_atomic(slot, 0xffffffffu, 1), 0xffffffffu);
  slot.op = dense::AtomicOp::Max;
  EXPECT_EQ(dense::apply_atomic(slot, 0x80000000u, 0x7fffffffu), 0x7fffffffu);
  slot.wide = true;
  EXPECT_EQ(dense::apply_atomic(slot, 0x8000000000000000ull, 5), 5u);
  EXPECT_EQ(dense::apply_atomic(slot, 0x80000000u, 0x7fffffffu), 0x80000000u);  // both positive as 64-bit
  slot.is_signed = false;
  EXPECT_EQ(dense::apply_atomic(slot, 0x8000000000000000ull, 5), 0x8000000000000000ull);
  slot.wide = false;
  slot.op = dense::AtomicOp::Xor;  // 32-bit: the high half of an operand is dropped
  EXPECT_EQ(dense::apply_atomic(slot, 0x0f, 0x1000000ff), 0xf0u);
  slot.op = dense::AtomicOp::And;
  EXPECT_EQ(dense::apply_atomic(slot, 0xff00ff00u, 0x0ff00ff0u), 0x0f000f00u);
  slot.op = dense::AtomicOp::Or;
  EXPECT_EQ(dense::apply_atomic(slot, 0xff00u, 0x00ffu), 0xffffu);
}

// A signed block-scope min of the thread index into the thread's block's slot 0, and a 64-bit
// grid-wide xor of it through a CAS loop into slot 4: the words after the threads' are the
// initial words with every update applied, region by region.
TEST(DenseAtomics, TheSlotsWordsFollowTheThreadsWords) {
  dense::Expr tid;
  tid.kind = dense::Expr::Kind::ThreadId;
  dense::Expr wide_tid = tid;
  wide_tid.wide = true;
  dense::Stmt min;
  min.kind = dense::StmtKind::Atomic;
  min.label = 0;
  min.vector_kind = static_cast<int>(dense::AtomicScope::Block);
  min.exprs = {operation(Op::Sub, {constant(100), tid})};  // 100 - t: negative from t = 101
  dense::Stmt xored = min;
  xored.label = 4;
  xored.cas = true;
  xored.vector_kind = static_cast<int>(dense::AtomicScope::System);
  xored.exprs = {wide_tid};
  dense::Kernel kernel = kernel_of({min, xored});
  kernel.blocks = 2;
  kernel.threads = 128;
  kernel.atomic_slots.resize(dense::kAtomicSlots);
  kernel.atomic_slots[0] = {dense::AtomicOp::Min, false, true, true};
  kernel.atomic_slots[4] = {dense::AtomicOp::Xor, true, false, false};
  for (std::uint32_t k = 1; k < dense::kAtomicSlots; ++k) kernel.atomic_slots[k].wide = k >= 4;
  const std::vector<std::uint64_t> words = dense::run_kernel(kernel);
  const std::size_t at = std::size_t(2) * 128 * dense::kOutputWordsPerThread;
  ASSERT_EQ(words.size(), at + 24);  // 3 regions of 4 32-bit and 4 64-bit words
  // Each block's slot 0: its initial word and 100 - t of its threads, the least as int.
  for (std::uint32_t block = 0; block < 2; ++block) {
    std::int64_t least = static_cast<std::int32_t>(dense::initial_atom(false, block * 4));
    for (std::uint32_t t = block * 128; t < block * 128 + 128; ++t)
      least = std::min<std::int64_t>(least, 100 - static_cast<std::int64_t>(t));
    EXPECT_EQ(words[at + block * 4], static_cast<std::uint32_t>(least)) << "block " << block;
  }
  EXPECT_EQ(words[at + 8], dense::initial_atom(false, 8));  // the grid's slot 0: untouched
  std::uint64_t all = 0;
  for (std::uint64_t t = 0; t < 256; ++t) all ^= t;
  EXPECT_EQ(words[at + 12 + 8], dense::initial_atom(true, 8) ^ all);  // slot 4 of the grid's region
  EXPECT_EQ(words[at + 12 + 0], dense::initial_atom(true, 0));
  const std::string text = dense::emit_kernel(kernel, "");
  EXPECT_NE(text.find("atomicMin_block((int*)&k_atom32[blockIdx.x * 4u + 0u], (int)("), std::string::npos) << text;
  EXPECT_NE(text.find("atomicCAS_system(cudiff_p, cudiff_want, cudiff_want ^ cudiff_v)"), std::string::npos) << text;
  EXPECT_NE(text.find("&k_atom64[2u * 4u + 0u]"), std::string::npos) << text;
  EXPECT_NE(text.find("cudiff_fold(host_out, 1048u)"), std::string::npos) << text;
  EXPECT_NE(text.find("cudaMemcpyToSymbol(k_atom32"), std::string::npos) << text;
}

TEST(DenseAtomics, BlockScopeOnlyOnTheBlocksOwnSlotsAndOffWithItsKnob) {
  Policy policy = Policy::defaults();
  policy.set("dense.share", 1);
  const std::vector<Knob> knobs = policy.knobs();
  for (const Knob& knob : knobs)
    if (knob.name.starts_with("dense.family.")) policy.set(knob.name, 0);
  policy.set("dense.family.dense_atomics", 1);
  int updates = 0, cas = 0;
  const std::function<void(const dense::Kernel&, const dense::Body&)> walk = [&](const dense::Kernel& kernel,
                                                                                 const dense::Body& body) {
    for (const dense::Stmt& s : body) {
      if (s.kind == dense::StmtKind::Atomic) {
        ++updates;
        cas += s.cas;
        const dense::AtomicSlot& slot = kernel.atomic_slots.at(s.label);
        if (s.vector_kind == static_cast<int>(dense::AtomicScope::Block)) EXPECT_TRUE(slot.per_block);
      }
      walk(kernel, s.body);
      walk(kernel, s.else_body);
      for (const dense::SwitchCase& c : s.cases) walk(kernel, c.body);
    }
  };
  for (std::uint64_t seed = 1; seed <= 20; ++seed)
    for (const dense::Kernel& kernel : dense::make_kernels(policy, Swarm{}, Size::small, seed)) {
      const int before = updates;
      walk(kernel, kernel.body);
      EXPECT_GT(updates, before) << "seed " << seed;
      EXPECT_EQ(dense::run_kernel(kernel), dense::run_kernel(kernel));
    }
  EXPECT_GT(cas, 0);
  policy.set("dense.family.dense_atomics", 0);
  for (std::uint64_t seed = 1; seed <= 20; ++seed)
    for (const dense::Kernel& kernel : dense::make_kernels(policy, Swarm{}, Size::small, seed)) {
      EXPECT_TRUE(kernel.atomic_slots.empty());
      EXPECT_EQ(dense::emit_kernel(kernel, "").find("_atom32"), std::string::npos);
    }
}

TEST(DenseGenerator, ProgramsCarryTheKernelsWithPredictedChecksums) {
  Policy policy = Policy::defaults();
  policy.set("dense.share", 1);
  const TestCase test = generate_program(policy, 7, Size::small);
  int dense_kernels = 0;
  for (const Sidecar::Kernel& kernel : test.sidecar.kernels.value())
    if (kernel.name.starts_with("dense_")) {
      ++dense_kernels;
      EXPECT_NE(test.source.find("cudiff_dense::run_" + kernel.name + "();"), std::string::npos);
      EXPECT_EQ(kernel.expected_checksum.size(), 16u);
    }
  EXPECT_GE(dense_kernels, 1);
  // The same seed without the family: the core kernels are the same (their own stream).
  policy.set("dense.share", 0);
  const TestCase without = generate_program(policy, 7, Size::small);
  EXPECT_EQ(without.source.find("cudiff_dense"), std::string::npos);
  std::vector<std::string> core, core_without;
  for (const Sidecar::Kernel& kernel : test.sidecar.kernels.value())
    if (!kernel.name.starts_with("dense_")) core.push_back(kernel.name + " " + kernel.expected_checksum);
  for (const Sidecar::Kernel& kernel : without.sidecar.kernels.value())
    core_without.push_back(kernel.name + " " + kernel.expected_checksum);
  EXPECT_EQ(core, core_without);
}

// Generator 0.9.0's families: bit-field structs, padded structs, fences, cache hints.

TEST(DenseGenerator, BitFieldStoresTruncateUnsignedMembersAndFitSignedOnes) {
  // The table: u1 s3 u7 s13 u31 s7 u13 s31 pc ph pw u3.
  EXPECT_EQ(dense::bit_store(2, 0x1234u), 0x34u);              // u7 truncates
  EXPECT_EQ(dense::bit_store(0, 3u), 1u);                      // u1
  EXPECT_EQ(dense::bit_store(1, 0u), 0xfffffffcu);             // s3: 0 - 4 = -4
  EXPECT_EQ(dense::bit_store(1, 7u), 3u);                      // s3: 7 - 4
  EXPECT_EQ(dense::bit_store(3, 0xffffu), 4095u);              // s13: 0x1fff - 4096
  EXPECT_EQ(dense::bit_store(7, 0u), 0xc0000000u);             // s31: -2^30
  EXPECT_EQ(dense::bit_store(8, 0x1ffu), 0xffu);               // unsigned char
  EXPECT_EQ(dense::bit_store(10, 0xdeadbeefu), 0xdeadbeefu);  // unsigned
  // Unsigned updates wrap in unsigned arithmetic, then truncate.
  EXPECT_EQ(dense::bit_compound(4, dense::CompoundOp::Mul, 0x7fffffffu, 3u), (0x7fffffffu * 3u) & 0x7fffffffu);
  EXPECT_EQ(dense::bit_compound(11, dense::CompoundOp::Sub, 1u, 2u), 7u);  // u3: 1 - 2
  // Signed ones by &, |, ^ of values that fit: the result is sign-extended and fits.
  const std::uint32_t x = dense::bit_compound(5, dense::CompoundOp::Xor, dense::bit_store(5, 0u), 0x7fu);
  EXPECT_EQ(x, static_cast<std::uint32_t>(-64 ^ 63));
  EXPECT_THROW(dense::bit_compound(5, dense::CompoundOp::Add, 0u, 1u), cudiff::Error);
}

TEST(DenseGenerator, PaddedStructCallsAndFoldsFollowTheText) {
  dense::Padded p;
  dense::padded_set(p, 0, 0x00ff8081u);
  EXPECT_EQ(p.a[0], -127);
  EXPECT_EQ(p.a[1], -128);
  EXPECT_EQ(p.a[2], -1);
  dense::padded_set(p, 3, 0xffffffffu);
  EXPECT_EQ(p.f[0], 65535.0f);
  const dense::Padded q = dense::padded_call(p, 0x12345u);
  EXPECT_EQ(q.a[0], static_cast<std::int8_t>(-127 + 5));
  EXPECT_EQ(q.f[0], 65536.0f);
  EXPECT_EQ(q.f[1], static_cast<float>(0x2345u));
  EXPECT_EQ(q.f[2], 65536.0f + 0x2345u);
  EXPECT_EQ(dense::padded_call(q, 0).f[0], 0.0f);  // past 65535: back to 0, so always exact
  EXPECT_NE(dense::padded_fold(p), dense::padded_fold(q));
}

TEST(DenseGenerator, EachStructFenceAndHintFamilyShowsInEveryKernelAndTheText) {
  const std::vector<std::pair<std::string, std::vector<std::string>>> families = {
      {"dense_bitfield_structs",
       {"int s13 : 13;", "unsigned u31 : 31;", "__shared__ dense_0_bf cudiff_bfs[", "dense_0_bfg[t]",
        "_bffold(cudiff_bfl)"}},
      {"dense_padded_structs",
       {"char3 a;", "float3 f;", "__device__ __noinline__ dense_0_tp dense_0_tpf(", "_tpfold(dense_0_tpg[t])"}},
      {"dense_fences", {"_part[t] = ", "_fence["}},
      {"dense_cache_hints", {"(&out[t * 4u + 3u], "}},
  };
  for (const auto& [family, texts] : families) {
    Policy policy = Policy::defaults();
    policy.set("dense.share", 1);
    const std::vector<Knob> knobs = policy.knobs();
    for (const Knob& knob : knobs)
      if (knob.name.starts_with("dense.family.")) policy.set(knob.name, 0);
    policy.set("dense.family." + family, 1);
    std::set<int> fences;
    for (std::uint64_t seed = 1; seed <= 30; ++seed)
      for (const dense::Kernel& kernel : dense::make_kernels(policy, Swarm{}, Size::small, seed)) {
        EXPECT_TRUE(std::ranges::find(kernel.families, family) != kernel.families.end()) << family << " " << seed;
        const auto words = dense::run_kernel(kernel);
        ASSERT_EQ(words.size(), std::size_t(kernel.blocks) * kernel.threads * dense::kOutputWordsPerThread +
                                    dense::fence_words(kernel));
        fences.insert(static_cast<int>(kernel.fence));
        if (kernel.name != "dense_0") continue;
        const std::string text = dense::emit_kernel(kernel, "");
        for (const std::string& part : texts) EXPECT_NE(text.find(part), std::string::npos) << family << ": " << part;
      }
    // __threadfence, _system, _block and cuda::atomic_thread_fence at the three scopes
    if (family == "dense_fences") EXPECT_EQ(fences.size(), 6u);
  }
}

TEST(DenseGenerator, TheFenceFoldsEveryPartialWhicheverThreadIsLast) {
  dense::Kernel kernel = kernel_of({});
  kernel.blocks = 2;
  kernel.threads = 64;
  for (const dense::FenceKind fence :
       {dense::FenceKind::Device, dense::FenceKind::Block, dense::FenceKind::CudaBlock}) {
    kernel.fence = fence;
    const auto words = dense::run_kernel(kernel);
    const std::size_t threads = 128;
    ASSERT_EQ(words.size(), threads * 4 + dense::kFenceWords);
    const auto fold = [&](std::size_t from, std::size_t count) {
      std::uint64_t r = 1469598103934665603ull;
      for (std::size_t t = from; t < from + count; ++t) r = (r ^ words[t * 4 + 3]) * 1099511628211ull;
      return r;
    };
    const std::uint64_t* result = &words[threads * 4];
    if (!dense::block_fence(fence)) {
      EXPECT_EQ(result[3], fold(0, threads));
      EXPECT_EQ(result[0], 0u);
    } else {
      EXPECT_EQ(result[0], fold(0, 64));
      EXPECT_EQ(result[1], fold(64, 64));
      EXPECT_EQ(result[3], 0u);
    }
    const std::string text = dense::emit_kernel(kernel, "");
    const char* const spelled = fence == dense::FenceKind::Device  ? "__threadfence();"
                                : fence == dense::FenceKind::Block ? "__threadfence_block();"
                                                                   : "cuda::thread_scope_block);";
    EXPECT_NE(text.find(spelled), std::string::npos);
  }
}

} // namespace
