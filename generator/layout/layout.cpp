// layout: plan_layout(), the one entry point the core generator calls per program.
#include "generator/layout/layout_parts.h"

namespace cudiff::generator {

LayoutPlan plan_layout(const Policy& policy, Rng& rng, const Swarm& swarm, Size size, const std::string& probe_prefix,
                       const std::string& type_qualifier) {
  LayoutPlan plan;
  layout::emit_layout(layout::invent_types(policy, rng, swarm, size), plan, probe_prefix, type_qualifier);
  return plan;
}

} // namespace cudiff::generator
