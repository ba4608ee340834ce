// generate_parts: one seed's program built and not yet emitted, and its sidecar — what
// generate.cpp's entry points and the IR reduction (reduction.cpp) share. Internal to
// generator/.
#pragma once

#include "generator/core/emit.h"
#include "generator/generator.h"
#include "generator/ir.h"
#include "generator/layout/layout.h"

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cudiff::generator {

/// One seed's program, generated and validated, not yet emitted.
struct Built {
  Swarm swarm;
  LayoutPlan layout;
  Program program;
  EmitOptions options;
  std::set<std::string> used;
};

/// The program of `seed`; probe and type names carry `probe_prefix` and `type_qualifier` as
/// plan_layout says ("" and "" for a lone program).
Built build(const Policy& policy, Rng& rng, std::uint64_t seed, Size size, const std::string& probe_prefix,
            const std::string& type_qualifier);
/// `built` turned into its variant `index` (1-based); the transforms applied, in order.
std::vector<std::string> make_variant(Built& built, std::uint64_t seed, int index);
/// The sidecar of `built`: checksum lines named `kernel_label` + kernel; `scope` qualifies the
/// ABI family's names ("cudiff_s<seed>::" in a batch, else "").
Sidecar sidecar_of(const Built& built, const Policy& policy, std::uint64_t seed, Size size,
                   const std::string& kernel_label, const std::string& scope);
/// The leading comment of a lone program: seed, version, policy hash, size, constructs.
std::string header_comment(std::uint64_t seed, const Policy& policy, Size size, const Swarm& swarm);
/// One test of a batch (generate_batch): a seed's program (index 0) or its variant `index`,
/// built under the test's label ("s<seed>" or "s<seed>v<index>"), with what the variant derives from.
struct BatchTest {
  std::uint64_t seed = 0;
  int index = 0;
  Built built;
  std::optional<Sidecar::VariantOf> variant_of;
};
/// The test `index` of `seed` as generate_batch builds it.
BatchTest build_batch_test(const Policy& policy, std::uint64_t seed, Size size, int index);
/// The batch's text and sidecar, in the order of `tests`; its seeds are theirs, in order of first
/// appearance. generate_batch is build_batch_test for every seed and index, then this.
TestCase emit_batch(const Policy& policy, Size size, const std::vector<BatchTest>& tests);
/// 16 hex digits, as checksum lines print them.
std::string hex64(std::uint64_t value);

} // namespace cudiff::generator
