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

} // namespace

std::vector<BlockEdit> block_edits(const Block& block) {
  std::vector<BlockEdit> edits;
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

} // namespace cudiff::generator::ptx
