// variants_loops: the core's constant-bound for loops split in two, peeled (a first or last
// iteration of its own), and unswitched (a loop-invariant if hoisted out, a loop copy per arm;
// else versioned under a condition that varies per thread, both copies the same loop).
#include "generator/variants/variants.h"

namespace cudiff::generator {
namespace {

struct LoopSite {
  Block* block = nullptr;
  std::size_t index = 0;
  Owner owner;
};

std::vector<LoopSite> loops(Program& program, std::int64_t min_trips) {
  std::vector<LoopSite> sites;
  for (const BlockSlot& slot : block_slots(program))
    for (std::size_t i = 0; i < slot.block->size(); ++i)
      if ((*slot.block)[i].kind == StmtKind::For && (*slot.block)[i].trips >= min_trips)
        sites.push_back(LoopSite{slot.block, i, slot.owner});
  return sites;
}

/// The index in the loop body of a top-level if whose condition no statement of the loop
/// changes (nor the induction variable): its value is the same in every iteration.
std::vector<std::size_t> invariant_ifs(const Stmt& loop) {
  std::set<int> written = {loop.var};
  for (const Stmt& stmt : loop.body) vars_written(stmt, written);
  std::vector<std::size_t> found;
  for (std::size_t i = 0; i < loop.body.size(); ++i) {
    const Stmt& stmt = loop.body[i];
    if (stmt.kind != StmtKind::If) continue;
    std::set<int> read;
    vars_read(*stmt.expr, read);
    bool invariant = true;
    for (int var : read) invariant = invariant && !written.count(var);
    if (invariant) found.push_back(i);
  }
  return found;
}

/// The loop's body with its statement `at` (an if) replaced by the statements of one arm. The
/// arm's declarations stay unique (every variable is declared once), so it may be spliced.
Stmt with_arm(const Stmt& loop, std::size_t at, bool then_arm) {
  Stmt copy = loop;
  const Block& arm = then_arm ? loop.body[at].body : loop.body[at].else_body;
  copy.body.erase(copy.body.begin() + static_cast<std::ptrdiff_t>(at));
  copy.body.insert(copy.body.begin() + static_cast<std::ptrdiff_t>(at), arm.begin(), arm.end());
  return copy;
}

} // namespace

bool split_loop(Program& program, Rng& rng, bool peel) {
  const std::vector<LoopSite> sites = loops(program, 2);
  if (sites.empty()) return false;
  const LoopSite site = sites[rng.below(sites.size())];
  Stmt& loop = (*site.block)[site.index];
  const std::int64_t first_trips = peel ? (rng.chance(0.5) ? 1 : loop.trips - 1) : rng.range(1, loop.trips - 1);
  // The second part is a copy with fresh variables: every variable is declared once.
  Stmt second = clone_fresh({loop}, owner_vars(program, site.owner)).front();
  second.start = loop.start + first_trips * loop.step;
  second.trips = loop.trips - first_trips;
  loop.trips = first_trips;
  site.block->insert(site.block->begin() + static_cast<std::ptrdiff_t>(site.index) + 1, std::move(second));
  return true;
}

bool unswitch_loop(Program& program, Rng& rng, std::vector<std::string>& applied) {
  std::vector<LoopSite> sites = loops(program, 1);
  std::vector<LoopSite> unswitchable, kernel_loops;
  for (const LoopSite& site : sites) {
    if (!invariant_ifs((*site.block)[site.index]).empty()) unswitchable.push_back(site);
    if (site.owner.kernel >= 0) kernel_loops.push_back(site);
  }
  Stmt guard;
  guard.kind = StmtKind::If;
  if (!unswitchable.empty()) {
    const LoopSite site = unswitchable[rng.below(unswitchable.size())];
    Stmt& loop = (*site.block)[site.index];
    const std::vector<std::size_t> ifs = invariant_ifs(loop);
    const std::size_t at = ifs[rng.below(ifs.size())];
    // Hoisted: the loop runs at least once and reaches its top-level statements (no return in
    // a loop), and nothing before the if changes what the condition reads.
    guard.expr = loop.body[at].expr;
    guard.body = {with_arm(loop, at, true)};
    guard.else_body = clone_fresh({with_arm(loop, at, false)}, owner_vars(program, site.owner));
    loop = std::move(guard);
    applied.push_back("loop_unswitch");
    return true;
  }
  if (kernel_loops.empty()) return false;
  const LoopSite site = kernel_loops[rng.below(kernel_loops.size())];
  Stmt& loop = (*site.block)[site.index];
  guard.expr = opaque_any(program, program.kernels[site.owner.kernel], rng);
  guard.else_body = clone_fresh({loop}, owner_vars(program, site.owner));
  guard.body = {loop};
  loop = std::move(guard);
  applied.push_back("loop_version");
  return true;
}

} // namespace cudiff::generator
