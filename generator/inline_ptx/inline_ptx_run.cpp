// inline_ptx: run(), a machine for the block's PTX: registers, predicates, the carry flag CC.CF,
// labels and branches, executing each instruction by the ISA's semantics (inline_ptx_isa.cpp).
// Reading a register or the carry flag before it is written is a generator defect, not a value.
#include "generator/inline_ptx/inline_ptx_parts.h"

#include "common/common.h"

#include <map>

namespace cudiff::generator::ptx {
namespace {

// Far above what any generated block runs (16 iterations of nested loops of a few dozen
// instructions): reaching it means a loop does not terminate, a generator defect.
constexpr std::uint64_t kStepLimit = 4'000'000;

[[noreturn]] void defect(const std::string& what) {
  throw Error(ErrorKind::internal, "generator defect: inline PTX block " + what);
}

class Machine {
public:
  Machine(const Block& block, const std::vector<std::uint64_t>& inputs) : block_(block), inputs_(inputs) {
    if (inputs.size() != block.inputs.size())
      defect("run with " + std::to_string(inputs.size()) + " inputs for " + std::to_string(block.inputs.size()));
    outputs_.assign(block.outputs.size(), std::nullopt);
    for (std::size_t i = 0; i < block.body.size(); ++i)
      if (block.body[i].op == Op::label) labels_[block.body[i].label] = i;
  }

  std::vector<std::uint64_t> run() {
    std::uint64_t steps = 0;
    std::size_t pc = 0;
    while (pc < block_.body.size()) {
      if (++steps > kStepLimit) defect("runs past " + std::to_string(kStepLimit) + " steps");
      const Instruction& in = block_.body[pc];
      ++pc;
      if (in.guard && !read_predicate(*in.guard)) continue;
      if (in.op == Op::bra) {
        const auto target = labels_.find(in.label);
        if (target == labels_.end()) defect("branches to a missing label " + std::to_string(in.label));
        pc = target->second;
        continue;
      }
      execute(in);
    }
    std::vector<std::uint64_t> results;
    for (std::size_t i = 0; i < outputs_.size(); ++i) {
      if (!outputs_[i]) defect("never writes output " + std::to_string(i));
      results.push_back(*outputs_[i]);
    }
    return results;
  }

private:
  int width(const Reg& reg) const {
    switch (reg.bank) {
    case Bank::b32: return 32;
    case Bank::b64: return 64;
    case Bank::pred: return 1;
    case Bank::input: return block_.inputs.at(static_cast<std::size_t>(reg.index)) == Width::b32 ? 32 : 64;
    case Bank::output: return block_.outputs.at(static_cast<std::size_t>(reg.index)) == Width::b32 ? 32 : 64;
    }
    return 32;
  }

  std::optional<std::uint64_t>& slot(const Reg& reg) {
    auto& bank = banks_[static_cast<int>(reg.bank)];
    if (reg.bank == Bank::output) return outputs_.at(static_cast<std::size_t>(reg.index));
    if (bank.size() <= static_cast<std::size_t>(reg.index)) bank.resize(static_cast<std::size_t>(reg.index) + 1);
    return bank[static_cast<std::size_t>(reg.index)];
  }

  std::uint64_t read(const Operand& operand) {
    if (operand.immediate) return operand.value;
    if (operand.reg.bank == Bank::input) {
      const std::size_t index = static_cast<std::size_t>(operand.reg.index);
      return inputs_.at(index) & isa::mask(width(operand.reg));
    }
    const auto& value = slot(operand.reg);
    if (!value) defect("reads a register before writing it");
    return operand.negated ? (*value ^ 1) : *value;
  }

  bool read_predicate(const Operand& operand) { return read(operand) != 0; }

  void write(const Reg& reg, std::uint64_t value) { slot(reg) = value & isa::mask(width(reg)); }

  bool carry() {
    if (!carry_) defect("reads CC.CF before a .cc instruction set it");
    return *carry_;
  }

  void execute(const Instruction& in);

  const Block& block_;
  const std::vector<std::uint64_t>& inputs_;
  std::vector<std::optional<std::uint64_t>> banks_[5];
  std::vector<std::optional<std::uint64_t>> outputs_;
  std::map<int, std::size_t> labels_;
  std::optional<bool> carry_;
};

void Machine::execute(const Instruction& in) {
  const auto source = [&](std::size_t i) { return read(in.sources.at(i)); };
  const Reg& d = in.dests.empty() ? Reg{} : in.dests.front();
  const int bits = bits_of(in.type);
  switch (in.op) {
  case Op::label:
  case Op::bra: return;
  case Op::mov: write(d, source(0)); return;
  case Op::add: write(d, source(0) + source(1)); return;
  case Op::sub: write(d, source(0) - source(1)); return;
  case Op::and_: write(d, in.type == Type::pred ? (source(0) & source(1) & 1) : source(0) & source(1)); return;
  case Op::or_: write(d, source(0) | source(1)); return;
  case Op::xor_: write(d, source(0) ^ source(1)); return;
  case Op::not_: write(d, ~source(0)); return;
  case Op::cnot: write(d, isa::cnot(source(0) & isa::mask(bits))); return;
  case Op::lop3:
    write(d, isa::lop3(static_cast<std::uint32_t>(source(0)), static_cast<std::uint32_t>(source(1)),
                       static_cast<std::uint32_t>(source(2)), static_cast<std::uint32_t>(in.mode)));
    return;
  case Op::shl: write(d, isa::shl(bits, source(0), static_cast<std::uint32_t>(source(1)))); return;
  case Op::shr: write(d, isa::shr(in.type, source(0), static_cast<std::uint32_t>(source(1)))); return;
  case Op::shf_l:
  case Op::shf_r:
    write(d, isa::shf(in.op == Op::shf_l, in.flag, static_cast<std::uint32_t>(source(0)),
                      static_cast<std::uint32_t>(source(1)), static_cast<std::uint32_t>(source(2))));
    return;
  case Op::prmt:
    write(d, isa::prmt(static_cast<PrmtMode>(in.mode), static_cast<std::uint32_t>(source(0)),
                       static_cast<std::uint32_t>(source(1)), static_cast<std::uint32_t>(source(2))));
    return;
  case Op::bfe:
    write(d,
          isa::bfe(in.type, source(0), static_cast<std::uint32_t>(source(1)), static_cast<std::uint32_t>(source(2))));
    return;
  case Op::bfi:
    write(d, isa::bfi(bits, source(0), source(1), static_cast<std::uint32_t>(source(2)),
                      static_cast<std::uint32_t>(source(3))));
    return;
  case Op::bfind: write(d, isa::bfind(in.type, in.flag, source(0))); return;
  case Op::brev: write(d, isa::brev(bits, source(0))); return;
  case Op::popc: write(d, isa::popc(source(0) & isa::mask(bits))); return;
  case Op::clz: write(d, isa::clz(bits, source(0))); return;
  case Op::add_cc:
  case Op::addc: {
    const isa::Carried result = isa::add_carry(bits, source(0), source(1), in.op == Op::addc && carry());
    write(d, result.value);
    if (in.op == Op::add_cc || in.flag) carry_ = result.carry;
    return;
  }
  case Op::sub_cc:
  case Op::subc: {
    const isa::Carried result = isa::sub_borrow(bits, source(0), source(1), in.op == Op::subc && carry());
    write(d, result.value);
    if (in.op == Op::sub_cc || in.flag) carry_ = result.carry;
    return;
  }
  case Op::mad_cc:
  case Op::madc: {
    // (a*b).lo or .hi, plus c (and CC.CF for madc), the carry out into CC.CF with .cc.
    const std::uint64_t product = in.mode == 1 ? isa::mul_hi(in.type, source(0), source(1))
                                               : isa::mul_lo(in.type, source(0), source(1));
    const isa::Carried result = isa::add_carry(bits, product, source(2), in.op == Op::madc && carry());
    write(d, result.value);
    if (in.op == Op::mad_cc || in.flag) carry_ = result.carry;
    return;
  }
  case Op::mul_lo: write(d, isa::mul_lo(in.type, source(0), source(1))); return;
  case Op::mul_hi: write(d, isa::mul_hi(in.type, source(0), source(1))); return;
  case Op::mul_wide: write(d, isa::mul_wide(in.type, source(0), source(1))); return;
  case Op::mad_lo: write(d, isa::mul_lo(in.type, source(0), source(1)) + source(2)); return;
  case Op::mad_hi: write(d, isa::mul_hi(in.type, source(0), source(1)) + source(2)); return;
  case Op::mad_wide: write(d, isa::mul_wide(in.type, source(0), source(1)) + source(2)); return;
  case Op::min: write(d, isa::min(in.type, source(0), source(1))); return;
  case Op::max: write(d, isa::max(in.type, source(0), source(1))); return;
  case Op::selp: write(d, source(2) != 0 ? source(0) : source(1)); return;
  case Op::slct: write(d, isa::sign_extend(source(2), 32) >= 0 ? source(0) : source(1)); return;
  case Op::setp: {
    const bool t = isa::compare(static_cast<CmpOp>(in.mode), in.type, source(0), source(1));
    bool p = t, q = !t;
    if (in.bool_op != BoolOp::none) {
      const bool c = source(2) != 0;
      const auto combine = [&](bool x) {
        return in.bool_op == BoolOp::and_ ? (x && c) : in.bool_op == BoolOp::or_ ? (x || c) : (x != c);
      };
      p = combine(t);
      q = combine(!t);
    }
    write(d, p ? 1 : 0);
    if (in.dests.size() > 1) write(in.dests[1], q ? 1 : 0);
    return;
  }
  case Op::cvt: write(d, isa::cvt(in.type, in.type2, source(0), width(d))); return;
  case Op::vop4:
  case Op::vop2:
    write(d, isa::video(static_cast<VideoOp>(in.mode), in.op == Op::vop4 ? 4 : 2, in.type, in.type2, in.type3, in.flag,
                        in.accumulate, static_cast<std::uint32_t>(source(0)), static_cast<std::uint32_t>(source(1)),
                        static_cast<std::uint32_t>(source(2))));
    return;
  }
  defect("has an unknown instruction");
}

} // namespace

std::vector<std::uint64_t> run(const Block& block, const std::vector<std::uint64_t>& inputs) {
  return Machine(block, inputs).run();
}

} // namespace cudiff::generator::ptx
