// probes: planting V-rule probes into a built program, and their text (internal to generator/).
#pragma once

#include "generator/ir.h"

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace cudiff::generator {

/// With the policy's "probe.share", picks up to "probe.count.max" catalog probes for the
/// program and wraps up to "probe.sites.max" of its expressions in each device probe. Uses a
/// random stream of its own, derived from `seed`; values and checksums are unchanged. At most
/// one probe clang rejects, and none when `constructs_used` holds a construct a compiler
/// rejects (kConstructsRejectedByACompiler); never a probe unspecified_value_uses flags.
void plant_probes(Program& program, const Policy& policy, std::uint64_t seed,
                  const std::set<std::string>& constructs_used);

/// `#include` lines for the probes' headers (global scope, after the preamble).
std::string probe_includes(const std::vector<PlantedProbe>& probes);
/// The probes' fragments, each between `// cudiff probe <RULE> begin` and `... end` lines.
std::string probe_definitions(const std::vector<PlantedProbe>& probes);
/// A device probe call as an expression of type `type`: `((T)f((unsigned long long)arg))`.
std::string probe_call_text(const PlantedProbe& planted, const std::string& type, const std::string& argument);

} // namespace cudiff::generator
