// pipeline: a bucket's best reproducer reduced and stored as a smaller one (`cudiff triage
// reduce`, a campaign's reductions).
#pragma once

#include "pipeline/reduce.h"
#include "pipeline/reduce_generated.h"
#include "runners/runners.h"
#include "triage/triage.h"

#include <cstddef>
#include <iosfwd>
#include <optional>
#include <string>

namespace cudiff::pipeline {

/// What `reduce_bucket` did.
struct BucketReduction {
  triage::Bucket bucket;
  std::size_t original_bytes = 0;
  bool stored = false;             ///< a smaller reproducer was stored
  std::string stored_finding;      ///< its finding id
  bool now_best = false;           ///< it became the bucket's best reproducer
  ReduceRequest request;           ///< as the reduction ran (file, configs, mode...)
  ReduceOutcome outcome;
  /// The IR reduction that ran before the text passes, for a finding of a generated program
  /// (not one found by running it, but wrong code); else why it did not run (ir_note).
  std::optional<IrReduction> ir;
  std::string ir_note;
};

/// Reduces the best reproducer of the bucket `id` (key, key prefix or number) in the database
/// with the built-in test (its own key, the configs and mode of the campaign that found it)
/// and stores the result as a finding of a campaign of kind "reduce" when it is smaller and
/// shows the key again in the full mode. `request` brings jobs, time limit, schedule and
/// format; the rest is filled here. Throws Error(environment) when there is nothing to reduce,
/// or a run mismatch and no GPU.
BucketReduction reduce_bucket(triage::Database& db, const std::string& id, ReduceRequest request,
                              const runners::Toolchain& toolchain, const runners::GpuDiscovery& gpus,
                              std::ostream& err);

} // namespace cudiff::pipeline
