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
  /// The stored reproducer's cause (docs/triage.md, "Cause keys"), why it is not what its kind
  /// asks for when that is so, and the bucket the reproducer is in after (another than
  /// `bucket` when its cause split it).
  triage::Cause cause;
  std::string cause_note, cause_bucket;
  /// The known-bug case its cause is (KnownDifferences::match_cause): the reason its bucket was
  /// labelled known with; empty when none.
  std::string known_reason;
};

/// Reduces the best reproducer of the bucket `id` (key, key prefix or number) in the database
/// with the built-in test (its own key, the configs and mode of the campaign that found it)
/// and stores the result as a finding of a campaign of kind "reduce" when it is smaller and
/// shows the key again in the full mode, with its cause key (and the finding it was reduced
/// from: their bucket is split when its findings have two causes). `request` brings jobs, time limit, schedule and
/// format; the rest is filled here. A reproducer whose cause is a known-bug case's (`known`'s
/// match_cause) labels its bucket known with that case (and its upstream link), when it is new.
/// `finding`, when given, is the bucket's finding to reduce instead of its best reproducer (a
/// campaign's second sighting of a signature, to learn whether it is the same bug: its cause
/// splits the bucket when it is not). Throws Error(environment) when there is nothing to reduce,
/// or a run mismatch and no GPU; Error(usage) for a finding that is not the bucket's.
BucketReduction reduce_bucket(triage::Database& db, const std::string& id, ReduceRequest request,
                              const runners::Toolchain& toolchain, const runners::GpuDiscovery& gpus, std::ostream& err,
                              const triage::KnownDifferences& known = triage::KnownDifferences::shipped(),
                              const std::string& finding = "");

} // namespace cudiff::pipeline
