// layout: plan_layout(), the one entry point the core generator calls per program.
#include "generator/layout_parts.h"

namespace cudiff::generator {

LayoutPlan plan_layout(const Policy& policy, Rng& rng, const Swarm& swarm, Size size) {
  LayoutPlan plan;
  layout::emit_layout(layout::invent_types(policy, rng, swarm, size), plan);
  return plan;
}

} // namespace cudiff::generator
