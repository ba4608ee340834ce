// inline_ptx: one item of each instruction family (knobs "ptx.family.<name>"). Only forms the
// PTX ISA defines for every operand value; immediates only where ptxas takes them.
#include "generator/inline_ptx/inline_ptx_gen_parts.h"

namespace cudiff::generator::ptx {
namespace {

Bank bank_of(int bits) { return bits == 64 ? Bank::b64 : Bank::b32; }

} // namespace

Type BlockGen::random_type(int bits, bool allow_bit_type) {
  std::vector<Type> types = bits == 64 ? std::vector<Type>{Type::u64, Type::s64}
                                       : std::vector<Type>{Type::u32, Type::s32};
  if (allow_bit_type) types.push_back(bits == 64 ? Type::b64 : Type::b32);
  return rng_.pick(types);
}

void BlockGen::family_item() {
  double total = 0;
  for (double weight : weights_) total += weight;
  if (total <= 0) {  // every family off: a move keeps the block's data flowing
    family_ = "move";
    emit(make(Op::mov, Type::b32, {fresh_or_any(Bank::b32)}, {source(Bank::b32)}));
    return;
  }
  family_ = family_names()[rng_.weighted(weights_)];
  if (family_ == "logic") return logic();
  if (family_ == "shift") return shift();
  if (family_ == "shf") return funnel_shift();
  if (family_ == "prmt") return permute();
  if (family_ == "bitfield") return bitfield();
  if (family_ == "bitscan") return bitscan();
  if (family_ == "carry") return carry_chain();
  if (family_ == "mul") return multiply();
  if (family_ == "minmax") return minmax();
  if (family_ == "select") return select();
  if (family_ == "setp") return compare();
  if (family_ == "cvt") return convert();
  return video();
}

void BlockGen::logic() {
  const int bits = rng_.chance(0.6) ? 32 : 64;
  const Bank bank = bank_of(bits);
  const Type type = bits == 64 ? Type::b64 : Type::b32;
  const auto choice = rng_.below(10);
  if (choice < 5) {
    const Op op = rng_.pick(std::vector<Op>{Op::and_, Op::or_, Op::xor_});
    const Operand a = source(bank), b = immediate_or(bank, bits);
    return emit(make(op, type, {fresh_or_any(bank)}, {a, b}), true);
  }
  if (choice < 7) {
    const Operand a = source(bank);
    return emit(make(rng_.chance(0.5) ? Op::not_ : Op::cnot, type, {fresh_or_any(bank)}, {a}), true);
  }
  if (choice < 9) {
    const Operand a = source(Bank::b32), b = source(Bank::b32), c = source(Bank::b32);
    Instruction in = make(Op::lop3, Type::b32, {fresh_or_any(Bank::b32)}, {a, b, c});
    in.mode = static_cast<int>(rng_.below(256));
    return emit(in, true);
  }
  // Predicate logic: and/or/xor/not .pred.
  const Operand p = source(Bank::pred);
  if (rng_.chance(0.25)) return emit(make(Op::not_, Type::pred, {fresh_or_any(Bank::pred)}, {p}), true);
  const Operand q = source(Bank::pred);
  const Op op = rng_.pick(std::vector<Op>{Op::and_, Op::or_, Op::xor_});
  emit(make(op, Type::pred, {fresh_or_any(Bank::pred)}, {p, q}), true);
}

void BlockGen::shift() {
  const int bits = rng_.chance(0.6) ? 32 : 64;
  const Bank bank = bank_of(bits);
  const Operand a = source(bank), amount_operand = amount(bits);
  if (rng_.chance(0.4))
    return emit(make(Op::shl, bits == 64 ? Type::b64 : Type::b32, {fresh_or_any(bank)}, {a, amount_operand}), true);
  emit(make(Op::shr, random_type(bits, true), {fresh_or_any(bank)}, {a, amount_operand}), true);
}

void BlockGen::funnel_shift() {
  const Operand a = source(Bank::b32), b = source(Bank::b32), c = amount(32);
  Instruction in = make(rng_.chance(0.5) ? Op::shf_l : Op::shf_r, Type::b32, {fresh_or_any(Bank::b32)}, {a, b, c});
  in.flag = rng_.chance(0.5);
  emit(in, true);
}

void BlockGen::permute() {
  const auto mode = static_cast<PrmtMode>(rng_.below(7));
  const Operand a = source(Bank::b32), b = source(Bank::b32);
  Operand c = source(Bank::b32);
  if (rng_.chance(0.5)) c = imm_operand(mode == PrmtMode::generic ? rng_.below(0x10000) : rng_.below(4));
  Instruction in = make(Op::prmt, Type::b32, {fresh_or_any(Bank::b32)}, {a, b, c});
  in.mode = static_cast<int>(mode);
  emit(in, true);
}

void BlockGen::bitfield() {
  const int bits = rng_.chance(0.6) ? 32 : 64;
  const Bank bank = bank_of(bits);
  // 64-bit forms keep position and length below 64: there the H100/H200 (every config, ptxas
  // -O0 included) disagree with the ISA's pseudocode for some out-of-range operands, so the
  // interpreter could not predict them (docs/generator.md, "Inline PTX").
  auto amount_of = [&]() { return bits == 64 ? in_range_amount(bits) : amount(bits); };
  if (rng_.chance(0.5)) {
    const Operand a = source(bank), pos = amount_of(), len = amount_of();
    return emit(make(Op::bfe, random_type(bits, false), {fresh_or_any(bank)}, {a, pos, len}), true);
  }
  const Operand a = source(bank), b = source(bank), pos = amount_of(), len = amount_of();
  emit(make(Op::bfi, bits == 64 ? Type::b64 : Type::b32, {fresh_or_any(bank)}, {a, b, pos, len}), true);
}

void BlockGen::bitscan() {
  const int bits = rng_.chance(0.6) ? 32 : 64;
  const Bank bank = bank_of(bits);
  const Operand a = source(bank);
  const Type bit_type = bits == 64 ? Type::b64 : Type::b32;
  switch (rng_.below(4)) {
  case 0: {
    Instruction in = make(Op::bfind, random_type(bits, false), {fresh_or_any(Bank::b32)}, {a});
    in.flag = rng_.chance(0.5);
    return emit(in, true);
  }
  case 1: return emit(make(Op::brev, bit_type, {fresh_or_any(bank)}, {a}), true);
  case 2: return emit(make(Op::popc, bit_type, {fresh_or_any(Bank::b32)}, {a}), true);
  default: return emit(make(Op::clz, bit_type, {fresh_or_any(Bank::b32)}, {a}), true);
  }
}

void BlockGen::carry_chain() {
  // Contiguous and unguarded, so CC.CF flows only from one step to the next; an add chain (with
  // the multiply-add forms) or a subtract chain, never a mix: CF is a carry in one and a borrow
  // in the other. The first step sets CF, so no step reads it unset.
  const int bits = rng_.chance(0.6) ? 32 : 64;
  const Bank bank = bank_of(bits);
  const bool subtract = rng_.chance(0.35);
  const int length = static_cast<int>(rng_.range(2, 4));
  // Operands first: making one may emit an instruction, which must not split the chain.
  std::vector<std::vector<Operand>> operands;
  for (int step = 0; step < length; ++step) operands.push_back({source(bank), immediate_or(bank, bits), source(bank)});
  std::vector<Reg> dests;
  for (int step = 0; step < length; ++step) dests.push_back(fresh_or_any(bank));
  for (int step = 0; step < length; ++step) {
    const bool first = step == 0, last = step == length - 1;
    const Type type = random_type(bits, false);
    const bool multiply_add = !subtract && rng_.chance(0.3);
    Instruction in;
    if (multiply_add) {
      in = make(first ? Op::mad_cc : Op::madc, type, {dests[step]},
                {operands[step][0], operands[step][2], operands[step][1]});
      in.mode = rng_.chance(0.5) ? 1 : 0;
    } else {
      const Op op = subtract ? (first ? Op::sub_cc : Op::subc) : (first ? Op::add_cc : Op::addc);
      in = make(op, type, {dests[step]}, {operands[step][0], operands[step][1]});
    }
    in.flag = !last || rng_.chance(0.3);  // .cc on addc/subc/madc
    emit(in);
  }
}

void BlockGen::multiply() {
  const auto choice = rng_.below(6);
  if (choice == 2 || choice == 5) {  // .wide: 32-bit operands, a 64-bit result
    const Type type = random_type(32, false);
    const Operand a = source(Bank::b32), b = immediate_or(Bank::b32, 32);
    if (choice == 2) return emit(make(Op::mul_wide, type, {fresh_or_any(Bank::b64)}, {a, b}), true);
    const Operand c = source(Bank::b64);
    return emit(make(Op::mad_wide, type, {fresh_or_any(Bank::b64)}, {a, b, c}), true);
  }
  const int bits = rng_.chance(0.6) ? 32 : 64;
  const Bank bank = bank_of(bits);
  const Type type = random_type(bits, false);
  const Operand a = source(bank), b = immediate_or(bank, bits);
  if (choice < 2) return emit(make(choice == 0 ? Op::mul_lo : Op::mul_hi, type, {fresh_or_any(bank)}, {a, b}), true);
  const Operand c = source(bank);
  emit(make(choice == 3 ? Op::mad_lo : Op::mad_hi, type, {fresh_or_any(bank)}, {a, b, c}), true);
}

void BlockGen::minmax() {
  const int bits = rng_.chance(0.6) ? 32 : 64;
  const Bank bank = bank_of(bits);
  const Operand a = source(bank), b = immediate_or(bank, bits);
  emit(make(rng_.chance(0.5) ? Op::min : Op::max, random_type(bits, false), {fresh_or_any(bank)}, {a, b}), true);
}

void BlockGen::select() {
  const int bits = rng_.chance(0.6) ? 32 : 64;
  const Bank bank = bank_of(bits);
  const Operand a = source(bank), b = immediate_or(bank, bits);
  if (rng_.chance(0.5)) {
    const Operand p = source(Bank::pred);
    return emit(make(Op::selp, random_type(bits, true), {fresh_or_any(bank)}, {a, b, p}), true);
  }
  const Operand c = source(Bank::b32);
  Instruction in = make(Op::slct, random_type(bits, true), {fresh_or_any(bank)}, {a, b, c});
  in.type2 = Type::s32;
  emit(in, true);
}

void BlockGen::compare() {
  const int bits = rng_.chance(0.6) ? 32 : 64;
  const Bank bank = bank_of(bits);
  const Type type = random_type(bits, true);
  // .b types compare only for equality; lo ls hi hs are the unsigned comparisons.
  std::vector<CmpOp> ops = {CmpOp::eq, CmpOp::ne};
  if (type != Type::b32 && type != Type::b64)
    for (CmpOp op : {CmpOp::lt, CmpOp::le, CmpOp::gt, CmpOp::ge}) ops.push_back(op);
  if (type == Type::u32 || type == Type::u64)
    for (CmpOp op : {CmpOp::lo, CmpOp::ls, CmpOp::hi, CmpOp::hs}) ops.push_back(op);
  std::vector<Operand> sources = {source(bank), immediate_or(bank, bits)};
  const auto bool_op = static_cast<BoolOp>(rng_.chance(0.5) ? 0 : rng_.range(1, 3));
  if (bool_op != BoolOp::none) {
    Operand c = source(Bank::pred);
    c.negated = rng_.chance(0.5);
    sources.push_back(c);
  }
  std::vector<Reg> dests = {fresh_or_any(Bank::pred)};
  if (rng_.chance(0.3)) {
    Reg q = fresh_or_any(Bank::pred);
    if (!(q == dests.front())) dests.push_back(q);
  }
  Instruction in = make(Op::setp, type, dests, sources);
  in.mode = static_cast<int>(rng_.pick(ops));
  in.bool_op = bool_op;
  emit(in, true);
}

void BlockGen::convert() {
  static const std::vector<Type> types = {Type::u8,  Type::s8,  Type::u16, Type::s16,
                                          Type::u32, Type::s32, Type::u64, Type::s64};
  const Type dtype = rng_.pick(types);
  Type atype = rng_.pick(types);
  while (atype == dtype) atype = rng_.pick(types);
  const Operand a = source(bank_of(bits_of(atype)));
  Instruction in = make(Op::cvt, dtype, {fresh_or_any(bank_of(bits_of(dtype)))}, {a});
  in.type2 = atype;
  emit(in, true);
}

void BlockGen::video() {
  const auto op = static_cast<VideoOp>(rng_.below(5));
  const Operand a = source(Bank::b32), b = source(Bank::b32), c = source(Bank::b32);
  Instruction in = make(rng_.chance(0.5) ? Op::vop4 : Op::vop2, random_type(32, false), {fresh_or_any(Bank::b32)},
                        {a, b, c});
  in.mode = static_cast<int>(op);
  in.type2 = random_type(32, false);
  in.type3 = random_type(32, false);
  // The secondary .add only for vabsdiff of one source type: each lane is then in 0..255 (or
  // 0..65535) whichever way the ISA's sum is read. Otherwise the merge form, .sat or wrapping.
  if (op == VideoOp::absdiff && in.type2 == in.type3 && rng_.chance(0.4)) in.accumulate = true;
  else in.flag = rng_.chance(0.5);
  emit(in, true);
}

} // namespace cudiff::generator::ptx
