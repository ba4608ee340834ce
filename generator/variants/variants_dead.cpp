// variants_dead: Orion-style dead code (Le et al., "Compiler validation via equivalence modulo
// inputs") — statements of the kernel under a condition that is false on every thread, which
// the generator knows from the input data and the parameters it chose, and the compilers
// cannot know.
#include "generator/core/interpreter.h"
#include "generator/variants/variants.h"

namespace cudiff::generator {
namespace {

/// Statements that may be copied under a dead condition: no barrier, warp operation or atomic
/// (their mere presence changes what the compilers may assume about convergence), no return.
bool copyable(const Stmt& stmt) { return !is_collective(stmt.kind) && !contains_return(stmt); }

} // namespace

bool dead_code(Program& program, Rng& rng) {
  std::vector<BlockSlot> slots;
  for (const BlockSlot& slot : block_slots(program))
    if (slot.owner.kernel >= 0) slots.push_back(slot);
  if (slots.empty()) return false;
  const BlockSlot slot = slots[rng.below(slots.size())];
  Kernel& kernel = program.kernels[slot.owner.kernel];
  Block& block = *slot.block;
  const std::size_t at = rng.below(block.size() + 1);

  // The dead body: a run of the statements before `at` in the same block (everything they read
  // is still in scope there), each declared variable a fresh one; else a dead output write.
  std::vector<std::size_t> starts;
  for (std::size_t i = 0; i < at; ++i)
    if (copyable(block[i])) starts.push_back(i);
  Block dead;
  if (!starts.empty()) {
    const std::size_t first = starts[rng.below(starts.size())];
    Block run;
    for (std::size_t i = first; i < at && run.size() < 3 && copyable(block[i]); ++i) run.push_back(block[i]);
    dead = clone_fresh(run, kernel.vars);
  } else {
    Stmt write;
    write.kind = StmtKind::WriteOut;
    write.slot = static_cast<int>(rng.below(static_cast<std::uint64_t>(kernel.slots)));
    write.expr = make_const(Value::make_unsigned(IntType::ULLong, rng.next_u64()));
    dead.push_back(std::move(write));
  }
  Stmt guard;
  guard.kind = StmtKind::If;
  guard.expr = opaque_false(program, kernel, rng);
  guard.body = std::move(dead);
  block.insert(block.begin() + static_cast<std::ptrdiff_t>(at), std::move(guard));
  return true;
}

} // namespace cudiff::generator
