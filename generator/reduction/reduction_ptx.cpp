// reduction_ptx: the IR reduction's edits of an inline-PTX block (generator/inline_ptx/): an
// instruction less, a guard less. Whether the block still runs (every register written before
// it is read, every output written, every loop ending) is the interpreter's to say: the caller
// runs the kernel and drops an edit it refuses.
#include "generator/inline_ptx/inline_ptx_parts.h"
#include "generator/reduction/reduction.h"

#include <algorithm>

namespace cudiff::generator::ptx {
namespace {

/// Whether a branch of the block jumps to `label`: such a label stays, or the PTX would name
/// a label it does not define on a path no thread takes (which the interpreter never sees).
bool branched_to(const Block& block, int label) {
  return std::ranges::any_of(block.body, [&](const Instruction& in) { return in.op == Op::bra && in.label == label; });
}

/// Whether every branch of the block names a label it still has.
bool labels_complete(const Block& block) {
  return std::ranges::all_of(block.body, [&](const Instruction& in) {
    return in.op != Op::bra || std::ranges::any_of(block.body, [&](const Instruction& other) {
             return other.op == Op::label && other.label == in.label;
           });
  });
}

/// Whether an instruction sets the carry flag, which the next carry-in instruction reads
/// without naming it: such an instruction is never dead.
bool sets_carry(const Instruction& in) {
  return in.op == Op::add_cc || in.op == Op::sub_cc || in.op == Op::mad_cc ||
         ((in.op == Op::addc || in.op == Op::subc || in.op == Op::madc) && in.flag);
}

/// Whether instruction `at` is a branch to a label that follows it with only labels between:
/// it goes where the block would go without it.
bool branches_to_next(const Block& block, std::size_t at) {
  if (block.body[at].op != Op::bra) return false;
  for (std::size_t next = at + 1; next < block.body.size() && block.body[next].op == Op::label; ++next)
    if (block.body[next].label == block.body[at].label) return true;
  return false;
}

/// The instructions whose results nothing reads (no source, guard or output names a register
/// they write), the labels no branch names and the branches to the next instruction, deleted
/// until none is left: what the edits before left behind, in one edit.
bool delete_dead(Block& block) {
  bool any = false;
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t at = block.body.size(); at-- > 0;)
      if (branches_to_next(block, at) ||
          (block.body[at].op == Op::label && !branched_to(block, block.body[at].label))) {
        block.body.erase(block.body.begin() + static_cast<std::ptrdiff_t>(at));
        changed = true;
      }
    std::vector<Reg> read;
    for (const Instruction& in : block.body) {
      for (const Operand& source : in.sources)
        if (!source.immediate) read.push_back(source.reg);
      if (in.guard && !in.guard->immediate) read.push_back(in.guard->reg);
    }
    const auto dead = [&](const Instruction& in) {
      if (in.op == Op::label || in.op == Op::bra || in.dests.empty() || sets_carry(in)) return false;
      return std::ranges::none_of(in.dests, [&](const Reg& reg) {
        return reg.bank == Bank::output || std::ranges::find(read, reg) != read.end();
      });
    };
    changed = std::erase_if(block.body, dead) > 0 || changed;
    any = any || changed;
  }
  return any;
}

} // namespace

bool drop_unused_input(Block& block, std::size_t input) {
  if (input >= block.inputs.size()) return false;
  const auto names = [&](const Operand& operand) {
    return !operand.immediate && operand.reg.bank == Bank::input && operand.reg.index == static_cast<int>(input);
  };
  for (const Instruction& in : block.body)
    if (std::ranges::any_of(in.sources, names) || (in.guard && names(*in.guard))) return false;
  block.inputs.erase(block.inputs.begin() + static_cast<std::ptrdiff_t>(input));
  // The later inputs' operand numbers move down by one.
  const auto renumber = [&](Operand& operand) {
    if (!operand.immediate && operand.reg.bank == Bank::input && operand.reg.index > static_cast<int>(input))
      --operand.reg.index;
  };
  for (Instruction& in : block.body) {
    for (Operand& source : in.sources) renumber(source);
    if (in.guard) renumber(*in.guard);
  }
  return true;
}

namespace {

/// Output `output` set to 0 at the block's end instead of by the instructions that wrote it,
/// which go, with what only they needed: a block keeps the slice of its other outputs.
bool output_as_zero(Block& block, std::size_t output) {
  if (output >= block.outputs.size()) return false;
  const Reg reg{Bank::output, static_cast<int>(output)};
  // Already 0: moving its `mov` to the end again would be another text, not a smaller block.
  const auto writes = [&](const Instruction& in) { return std::ranges::find(in.dests, reg) != in.dests.end(); };
  const auto zeroes = [](const Instruction& in) {
    return in.op == Op::mov && !in.guard && in.sources.size() == 1 && in.sources.front().immediate &&
           in.sources.front().value == 0;
  };
  if (std::ranges::all_of(block.body, [&](const Instruction& in) { return !writes(in) || zeroes(in); })) return false;
  std::erase_if(block.body, writes);
  Instruction zero;
  zero.op = Op::mov;
  zero.type = block.outputs[output] == Width::b64 ? Type::b64 : Type::b32;
  zero.dests = {reg};
  zero.sources = {Operand{true, {}, 0, false}};
  block.body.push_back(std::move(zero));
  delete_dead(block);
  return true;
}

/// The edits, each as it changes the block (block_edits adds the clean-up).
std::vector<BlockEdit> edits_of(const Block& block) {
  std::vector<BlockEdit> edits;
  edits.push_back({"delete the PTX instructions nothing reads", "ptx: delete dead instructions", delete_dead});
  // An output as 0 with what only it needed: the slice of the other outputs in one test. Not
  // for a block of one output, which would be left with nothing to compute.
  if (block.outputs.size() > 1)
    for (std::size_t output = 0; output < block.outputs.size(); ++output)
      edits.push_back({"PTX output " + std::to_string(output) + " as 0, with what only it needed",
                       "ptx: an output as 0", [output](Block& b) { return output_as_zero(b, output); }});
  // Halves, quarters... of the instructions first (ddmin's first steps): a block that keeps a
  // crash in a few of its instructions loses the rest in a few tests, not one test each.
  const std::size_t count = block.body.size();
  for (std::size_t chunk = count / 2; chunk >= 2; chunk /= 2)
    for (std::size_t from = 0; from + chunk <= count; from += chunk)
      edits.push_back({"delete PTX instructions " + std::to_string(from) + ".." + std::to_string(from + chunk - 1),
                       "ptx: delete instructions", [from, chunk](Block& b) {
                         if (from + chunk > b.body.size()) return false;
                         b.body.erase(b.body.begin() + static_cast<std::ptrdiff_t>(from),
                                      b.body.begin() + static_cast<std::ptrdiff_t>(from + chunk));
                         return labels_complete(b);
                       }});
  for (std::size_t i = 0; i < block.body.size(); ++i) {
    const Instruction& in = block.body[i];
    if (in.op == Op::label && branched_to(block, in.label)) continue;
    edits.push_back(
        {"delete PTX instruction " + std::to_string(i) + " (" + (in.op == Op::label ? "label" : mnemonic(in)) + ")",
         "ptx: delete an instruction", [i, op = in.op](Block& b) {
           if (i >= b.body.size() || b.body[i].op != op) return false;
           if (op == Op::label && branched_to(b, b.body[i].label)) return false;
           b.body.erase(b.body.begin() + static_cast<std::ptrdiff_t>(i));
           return true;
         }});
  }
  // An instruction's result as 0 (`mov` of an immediate, its guard kept): what computed it, and
  // what only that read, can then go as dead instructions.
  for (std::size_t i = 0; i < block.body.size(); ++i) {
    const Instruction& in = block.body[i];
    const bool plain_zero = in.op == Op::mov && !in.sources.empty() && in.sources.front().immediate &&
                            in.sources.front().value == 0;
    if (in.op == Op::label || in.op == Op::bra || in.dests.size() != 1 || in.dests.front().bank == Bank::pred ||
        plain_zero)
      continue;
    edits.push_back({"PTX instruction " + std::to_string(i) + " (" + mnemonic(in) + ") as 0",
                     "ptx: an instruction's result as 0", [i](Block& b) {
                       if (i >= b.body.size() || b.body[i].dests.size() != 1) return false;
                       Instruction& in = b.body[i];
                       const Reg dest = in.dests.front();
                       const bool wide = dest.bank == Bank::b64 ||
                                         (dest.bank == Bank::output &&
                                          b.outputs.at(static_cast<std::size_t>(dest.index)) == Width::b64);
                       if (dest.bank == Bank::pred) return false;
                       Instruction zero;
                       zero.op = Op::mov;
                       zero.type = wide ? Type::b64 : Type::b32;
                       zero.dests = {dest};
                       zero.sources = {Operand{true, {}, 0, false}};
                       zero.guard = in.guard;
                       zero.family = in.family;
                       in = std::move(zero);
                       return true;
                     }});
  }
  // A branch keeps its guard: unguarded, a loop's back edge would never end.
  for (std::size_t i = 0; i < block.body.size(); ++i)
    if (block.body[i].guard && block.body[i].op != Op::bra)
      edits.push_back({"drop the guard of PTX instruction " + std::to_string(i), "ptx: drop a guard", [i](Block& b) {
                         if (i >= b.body.size() || !b.body[i].guard) return false;
                         b.body[i].guard.reset();
                         return true;
                       }});
  return edits;
}

} // namespace

std::vector<BlockEdit> block_edits(const Block& block) {
  std::vector<BlockEdit> edits = edits_of(block);
  // Every edit leaves no dead instruction behind: what it made dead goes in the same test. An
  // instruction nothing reads would otherwise cost a test of its own later, or, set to 0 or
  // deleted one by one while the crash stays (ptxas drops dead code itself), a test each.
  for (BlockEdit& edit : edits)
    edit.apply = [apply = std::move(edit.apply)](Block& b) {
      if (!apply(b)) return false;
      delete_dead(b);
      return true;
    };
  return edits;
}

} // namespace cudiff::generator::ptx
