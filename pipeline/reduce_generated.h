// pipeline: a generated program's wrong-code finding reduced at the generator's IR level on the
// GPU, before the text passes (docs/reducer.md, "Reducing a generated program").
#pragma once

#include "generator/generator.h"
#include "pipeline/check.h"
#include "pipeline/ir_reduce.h"
#include "pipeline/reduce.h"
#include "runners/runners.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace cudiff::pipeline {

struct IrReduceRequest {
  /// The test the finding's differing kernel is in (origin.seed, origin.variant) is reduced
  /// alone, as generate_program (or its variant) makes it.
  GeneratedOrigin origin;
  /// The finding's split of the configs (run_partition) and its reference group: the configs
  /// that print the generator's prediction (a wrong-code finding's "matching").
  RunPartition partition;
  std::vector<std::string> reference;
  CheckRequest check;  ///< configs and limits; the input is each candidate
  IrOptions options;
};

/// Reduces the origin's program with generator::ProgramReduction (docs/reducer.md, "Reducing a
/// generated program"). A candidate is kept while, built with every config that runs on the
/// first GPU and run there, the reference configs print its prediction, the others another
/// checksum, the configs split as `partition`, and compute-sanitizer (every tool the program
/// needs) is clean on a reference config's binary. A compile-only config is left out of the
/// test (a line on `err` says so). Throws Error(environment) without a GPU or
/// compute-sanitizer, Error(usage) when the original does not show the finding.
IrReduction reduce_generated(const IrReduceRequest& request, const runners::Toolchain& toolchain,
                             const runners::GpuDiscovery& gpus, std::ostream& err);

} // namespace cudiff::pipeline
