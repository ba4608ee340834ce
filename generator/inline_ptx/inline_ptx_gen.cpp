// inline_ptx: make_block, a random block of integer PTX. Straight-line items drawn by the
// "ptx.family.*" weights, loops with constant trip counts and ifs made of predicated branches
// nested up to "ptx.nesting.max", single instructions guarded by @p / @!p. Every register is
// written before it is read on every path (reads come only from the registers defined in the
// current scope), so run() is total and the PTX has one meaning.
#include "generator/inline_ptx/inline_ptx_gen_parts.h"

#include "common/common.h"

#include <algorithm>

namespace cudiff::generator::ptx {

Block::Block() = default;
Block::~Block() = default;
Block::Block(const Block&) = default;
Block::Block(Block&&) noexcept = default;
Block& Block::operator=(const Block&) = default;
Block& Block::operator=(Block&&) noexcept = default;

namespace {

// Declared registers per bank at most: enough for long blocks, few enough that values are
// reused (recurrences, overwritten registers) rather than always fresh.
constexpr int kRegisterCap[3] = {24, 16, 8};

} // namespace

Block make_block(Rng& rng, const Policy& policy, const std::vector<Width>& inputs, const std::vector<Width>& outputs) {
  Block block;
  block.inputs = inputs;
  block.outputs = outputs;
  BlockGen(rng, policy, block).generate();
  return block;
}

BlockGen::BlockGen(Rng& rng, const Policy& policy, Block& block) : rng_(rng), policy_(policy), block_(block) {
  for (const std::string& name : family_names()) weights_.push_back(policy.get("ptx.family." + name));
}

void BlockGen::generate() {
  family_ = "move";
  for (std::size_t i = 0; i < block_.inputs.size(); ++i) {
    const Bank bank = block_.inputs[i] == Width::b32 ? Bank::b32 : Bank::b64;
    emit(make(Op::mov, bank == Bank::b32 ? Type::b32 : Type::b64, {fresh(bank)},
              {reg_operand(Reg{Bank::input, static_cast<int>(i)})}));
  }
  const auto low = static_cast<std::int64_t>(policy_.get("ptx.instructions.min"));
  const auto high = std::max(low, static_cast<std::int64_t>(policy_.get("ptx.instructions.max")));
  items(static_cast<int>(rng_.range(low, high)));
  family_ = "move";
  std::vector<Reg> used;
  for (std::size_t i = 0; i < block_.outputs.size(); ++i) {
    const Bank bank = block_.outputs[i] == Width::b32 ? Bank::b32 : Bank::b64;
    ensure(bank);
    const Reg from = output_source(bank, used);
    used.push_back(from);
    emit(make(Op::mov, bank == Bank::b32 ? Type::b32 : Type::b64, {Reg{Bank::output, static_cast<int>(i)}},
              {reg_operand(from)}));
  }
  block_.features.assign(features_.begin(), features_.end());
}

// ---- registers ------------------------------------------------------------------------

Instruction BlockGen::make(Op op, Type type, std::vector<Reg> dests, std::vector<Operand> sources) {
  Instruction in;
  in.op = op;
  in.type = type;
  in.dests = std::move(dests);
  in.sources = std::move(sources);
  return in;
}

bool BlockGen::is_defined(const Reg& reg) {
  const auto& list = defined(reg.bank);
  return std::find(list.begin(), list.end(), reg.index) != list.end();
}

bool BlockGen::is_readonly(const Reg& reg) const {
  return std::find(readonly_.begin(), readonly_.end(), reg) != readonly_.end();
}

void BlockGen::define(const Reg& reg) {
  if (reg.bank > Bank::pred || is_defined(reg)) return;
  defined(reg.bank).push_back(reg.index);
}

Reg BlockGen::fresh_or_any(Bank bank) {
  int& next = next_[static_cast<int>(bank)];
  std::vector<int> writable;
  for (int i = 0; i < next; ++i)
    if (!is_readonly(Reg{bank, i})) writable.push_back(i);
  if (next < kRegisterCap[static_cast<int>(bank)] && (writable.empty() || rng_.chance(0.4))) return Reg{bank, next++};
  if (writable.empty()) throw Error(ErrorKind::internal, "generator defect: inline PTX block out of registers");
  return Reg{bank, rng_.pick(writable)};
}

Reg BlockGen::fresh(Bank bank) {
  int& next = next_[static_cast<int>(bank)];
  if (next < kRegisterCap[static_cast<int>(bank)]) return Reg{bank, next++};
  return fresh_or_any(bank);
}

void BlockGen::ensure(Bank bank) {
  if (!defined(bank).empty()) return;
  if (bank == Bank::pred) {
    Instruction in = make(Op::setp, Type::u32, {fresh_or_any(Bank::pred)},
                          {source(Bank::b32), immediate_or(Bank::b32, 32)});
    in.mode = static_cast<int>(CmpOp::hi);
    emit(in);
    return;
  }
  const Bank other = bank == Bank::b32 ? Bank::b64 : Bank::b32;
  const Type type = bank == Bank::b32 ? Type::u32 : Type::u64;
  if (defined(other).empty()) {
    emit(make(Op::mov, type, {fresh_or_any(bank)}, {imm_operand(edge_value(bank == Bank::b32 ? 32 : 64))}));
    return;
  }
  Instruction in = make(Op::cvt, type, {fresh_or_any(bank)}, {source(other)});
  in.type2 = bank == Bank::b32 ? Type::u64 : Type::u32;
  emit(in);
}

Operand BlockGen::source(Bank bank) {
  ensure(bank);
  return reg_operand(Reg{bank, rng_.pick(defined(bank))});
}

std::uint64_t BlockGen::edge_value(int bits) {
  static const std::vector<std::uint64_t> edges = {0,
                                                   1,
                                                   2,
                                                   7,
                                                   8,
                                                   15,
                                                   16,
                                                   31,
                                                   32,
                                                   33,
                                                   63,
                                                   64,
                                                   65,
                                                   0x7f,
                                                   0x80,
                                                   0xff,
                                                   0x100,
                                                   0x7fff,
                                                   0x8000,
                                                   0xffff,
                                                   0x7fffffff,
                                                   0x80000000,
                                                   0xffffffff,
                                                   0x100000000ull,
                                                   0x7fffffffffffffffull,
                                                   0x8000000000000000ull,
                                                   ~0ull,
                                                   0xffffffff00000000ull};
  const std::uint64_t value = rng_.chance(0.7) ? rng_.pick(edges) : rng_.next_u64();
  return value & isa::mask(bits);
}

Operand BlockGen::immediate_or(Bank bank, int bits) {
  if (rng_.chance(policy_.get("ptx.immediate"))) return imm_operand(edge_value(bits));
  return source(bank);
}

Operand BlockGen::amount(int bits) {
  if (rng_.chance(policy_.get("ptx.immediate")))
    return imm_operand(rng_.below(static_cast<std::uint64_t>(2 * bits + 2)));
  const Operand raw = source(Bank::b32);
  if (!rng_.chance(policy_.get("ptx.amount.masked"))) return raw;
  const std::vector<std::uint64_t> masks = {static_cast<std::uint64_t>(bits - 1),
                                            static_cast<std::uint64_t>(2 * bits - 1), 0xff, 0x1ff};
  const Reg temp = fresh_or_any(Bank::b32);
  emit(make(Op::and_, Type::b32, {temp}, {raw, imm_operand(rng_.pick(masks))}));
  return reg_operand(temp);
}

Operand BlockGen::in_range_amount(int bits) {
  if (rng_.chance(policy_.get("ptx.immediate"))) return imm_operand(rng_.below(static_cast<std::uint64_t>(bits)));
  const Reg temp = fresh_or_any(Bank::b32);
  emit(make(Op::and_, Type::b32, {temp}, {source(Bank::b32), imm_operand(static_cast<std::uint64_t>(bits - 1))}));
  return reg_operand(temp);
}

Reg BlockGen::output_source(Bank bank, const std::vector<Reg>& used) {
  const auto& recent = recent_[static_cast<int>(bank)];
  for (auto it = recent.rbegin(); it != recent.rend(); ++it)
    if (is_defined(*it) && std::find(used.begin(), used.end(), *it) == used.end()) return *it;
  return Reg{bank, rng_.pick(defined(bank))};
}

// ---- emission and structure -----------------------------------------------------------

void BlockGen::emit(Instruction in, bool may_guard) {
  in.family = family_;
  bool guarded = false;
  if (may_guard && !defined(Bank::pred).empty() && rng_.chance(policy_.get("ptx.predicated"))) {
    Operand guard = reg_operand(Reg{Bank::pred, rng_.pick(defined(Bank::pred))});
    guard.negated = rng_.chance(0.5);
    in.guard = guard;  // read before the instruction writes: a setp may overwrite its own guard
    guarded = true;
    features_.insert("predicated");
  }
  for (const Reg& reg : in.dests) {
    if (!guarded || is_defined(reg)) define(reg);
    if (reg.bank == Bank::b32 || reg.bank == Bank::b64) recent_[static_cast<int>(reg.bank)].push_back(reg);
  }
  if (family_ != "move") features_.insert(family_);
  block_.body.push_back(std::move(in));
}

void BlockGen::emit_label(int label) {
  Instruction in;
  in.op = Op::label;
  in.label = label;
  in.family = family_;
  block_.body.push_back(in);
}

void BlockGen::emit_branch(int label, std::optional<Operand> guard, bool uniform) {
  Instruction in;
  in.op = Op::bra;
  in.label = label;
  in.guard = guard;
  in.uniform = uniform;
  in.family = family_;
  block_.body.push_back(in);
}

void BlockGen::items(int count) {
  for (int i = 0; i < count; ++i) item();
}

void BlockGen::item() {
  if (depth_ < static_cast<int>(policy_.get("ptx.nesting.max"))) {
    if (rng_.chance(policy_.get("ptx.loop"))) return loop();
    if (rng_.chance(policy_.get("ptx.if"))) return branch();
  }
  family_item();
}

template <typename Body>
void BlockGen::scoped(Body body) {
  const std::vector<int> saved[3] = {defined_[0], defined_[1], defined_[2]};
  ++depth_;
  body();
  --depth_;
  for (int i = 0; i < 3; ++i) defined_[i] = saved[i];
}

void BlockGen::loop() {
  // do { body } while (++counter < trips) or (--counter != 0): the counter and the loop's
  // predicate are read-only inside; the body's writes to outer registers carry recurrences.
  family_ = "loop";
  const int trips = static_cast<int>(rng_.range(1, static_cast<std::int64_t>(policy_.get("ptx.loop.trips.max"))));
  const bool count_up = rng_.chance(0.5);
  const Reg counter = fresh(Bank::b32);
  const Reg again = fresh(Bank::pred);
  const int top = labels_++;
  emit(make(Op::mov, Type::u32, {counter}, {imm_operand(count_up ? 0 : static_cast<std::uint64_t>(trips))}));
  emit_label(top);
  readonly_.push_back(counter);
  readonly_.push_back(again);
  scoped([&] { items(static_cast<int>(rng_.range(1, 4))); });
  family_ = "loop";
  readonly_.resize(readonly_.size() - 2);
  emit(make(count_up ? Op::add : Op::sub, Type::u32, {counter}, {reg_operand(counter), imm_operand(1)}));
  Instruction test = make(Op::setp, Type::u32, {again},
                          {reg_operand(counter), imm_operand(count_up ? static_cast<std::uint64_t>(trips) : 0)});
  test.mode = static_cast<int>(count_up ? CmpOp::lt : CmpOp::ne);
  emit(test);
  emit_branch(top, reg_operand(again), false);
}

void BlockGen::branch() {
  // @p bra ELSE; then; bra END; ELSE: else; END:  (or without the else part).
  family_ = "if";
  Operand condition;
  if (!defined(Bank::pred).empty() && rng_.chance(0.4)) {
    condition = source(Bank::pred);
  } else {
    const bool wide = rng_.chance(0.3);
    const Bank bank = wide ? Bank::b64 : Bank::b32;
    Instruction test = make(Op::setp, wide ? Type::u64 : Type::s32, {fresh_or_any(Bank::pred)},
                            {source(bank), immediate_or(bank, wide ? 64 : 32)});
    test.mode = static_cast<int>(rng_.pick(std::vector<CmpOp>{CmpOp::lt, CmpOp::ge, CmpOp::eq, CmpOp::ne}));
    const Reg p = test.dests.front();
    emit(test);
    condition = reg_operand(p);
  }
  condition.negated = rng_.chance(0.5);
  const int skip = labels_++;
  emit_branch(skip, condition, false);
  scoped([&] { items(static_cast<int>(rng_.range(1, 4))); });
  family_ = "if";
  if (rng_.chance(0.6)) {
    const int end = labels_++;
    emit_branch(end, std::nullopt, rng_.chance(0.5));  // every active thread jumps: .uni holds
    emit_label(skip);
    scoped([&] { items(static_cast<int>(rng_.range(1, 4))); });
    family_ = "if";
    emit_label(end);
  } else {
    emit_label(skip);
  }
}

} // namespace cudiff::generator::ptx
