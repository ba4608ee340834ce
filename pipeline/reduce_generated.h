// pipeline: a generated program's wrong-code finding reduced at the generator's IR level on the
// GPU, before the text passes (docs/reducer.md, "Reducing a generated program").
#pragma once

#include "generator/generator.h"
#include "pipeline/check.h"
#include "pipeline/reduce.h"
#include "runners/runners.h"
#include "triage/triage.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace cudiff::pipeline {

/// What the generator needs to make a stored finding's program again.
struct GeneratedOrigin {
  generator::Policy policy = generator::Policy::defaults();
  std::uint64_t seed = 0;
  generator::Size size = generator::Size::small;
  int variant = 0;  ///< the variant of the seed the finding's differing kernel belongs to; 0: the seed's own
};

/// The origin of a stored finding's reproducer when it is the program of one seed (a lone
/// program or a campaign's batch of one) that today's generator makes again byte for byte,
/// with the policy stored with its campaign. Otherwise none, and `why_not` says why.
std::optional<GeneratedOrigin> generated_origin(const triage::Database& db, const triage::StoredFinding& finding,
                                                std::string& why_not);

struct IrReduceRequest {
  GeneratedOrigin origin;
  /// The finding's split of the configs (run_partition) and its reference group: the configs
  /// that print the generator's prediction (a wrong-code finding's "matching").
  RunPartition partition;
  std::vector<std::string> reference;
  CheckRequest check;  ///< configs and limits; the input is each candidate
  std::size_t jobs = 1;
  double time_limit_seconds = 0;  ///< 0: none
  std::function<void(const generator::TestCase&)> on_improvement;
};

struct IrReduction {
  generator::TestCase program;  ///< the smallest program kept, with its prediction
  std::size_t original_lines = 0;
  std::size_t tests = 0, accepted = 0, rounds = 0;
  double seconds = 0;
  bool stopped_early = false;
  std::vector<std::string> log;  ///< the edits accepted, in order
};

/// Reduces the origin's program with generator::ProgramReduction (docs/reducer.md, "Reducing a
/// generated program"). A candidate is kept while, built with every config and run on the
/// first GPU, the reference configs print its prediction, the others another checksum, the
/// configs split as `partition`, and compute-sanitizer (every tool the program needs) is clean
/// on a reference config's binary. Edits are tried `jobs` at a time; the first kept in order
/// wins. Throws Error(environment) without a GPU or compute-sanitizer, Error(usage) when the
/// original does not show the finding.
IrReduction reduce_generated(const IrReduceRequest& request, const runners::Toolchain& toolchain,
                             const runners::GpuDiscovery& gpus, std::ostream& err);

} // namespace cudiff::pipeline
