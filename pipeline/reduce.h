// pipeline: the reduction of a test case (`cudiff reduce`, a bucket's reduction) — the
// finding a candidate must keep showing, the request, and how it went.
#pragma once

#include "oracle/oracle.h"
#include "pipeline/check.h"
#include "pipeline/ir_reduce.h"
#include "pipeline/limits.h"
#include "reducer/reducer.h"
#include "runners/runners.h"

#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cudiff::pipeline {

/// How a run finding splits the configs: the groups of configs whose runs print alike, each
/// sorted, the groups sorted. A wrong-code finding's matching configs are one group and each
/// of its differing groups another, so it splits as the run mismatch its program shows
/// without the generator's prediction (a reduced program has none). Empty for other kinds.
using RunPartition = std::vector<std::vector<std::string>>;
/// The split of a finding's configs (above).
RunPartition run_partition(const oracle::Finding& finding);
/// The same from a stored finding's kind and details (triage::StoredFinding).
RunPartition run_partition(std::string_view kind, const boost::json::value& details);

/// What the built-in test must keep: one finding's signature.
struct ReduceTarget {
  std::string key;  ///< the triage key every accepted candidate must show again
  std::string title;
  oracle::FindingKind kind = oracle::FindingKind::compile_status_mismatch;
  /// Set for a run finding reduced structurally (ReduceRequest::partition): a candidate is kept
  /// while any run finding of it (run mismatch, wrong code, common wrong code) splits the
  /// configs exactly so, whatever its key. With the guilty stage's swap twin among the configs
  /// (nvcc-O3 wrong, nvcc-O3-ptxas0 right), the split re-proves the stage on every candidate.
  RunPartition partition;
};

/// What to reduce and how: the original, the test (a script, or the built-in one with its
/// check), the reducer's jobs, schedule and time limit.
struct ReduceRequest {
  std::filesystem::path file;  ///< the original's name: candidates are written under it
  std::string source;          ///< the original's text
  /// Given to every candidate (layout probes, the expectation).
  std::optional<generator::Sidecar> sidecar;
  /// A run finding's split of the configs (run_partition), when it is reduced structurally:
  /// the original must show a run finding that splits them so (its key may differ: a stored
  /// wrong-code reproducer checked without its sidecar shows a run mismatch), and so must
  /// every candidate.
  RunPartition partition;
  std::optional<std::filesystem::path> test_script;  ///< C-Reduce-style; else the built-in test
  CheckRequest check;  ///< mode (none: check's default), configs, warnings, limits
  std::optional<std::string> key;  ///< built-in test: keep this key (or prefix); none: the first finding
  std::size_t jobs = 1;
  reducer::Schedule schedule = reducer::default_schedule();
  bool format = true;
  double script_timeout_seconds = kScriptSeconds;
  /// 0: none. Else the whole of reduce_source's time: its checks of the original and the IR
  /// stage come out of it before the text passes get the rest, less `reserved_checks`.
  double time_limit_seconds = 0;
  /// How many checks of the original (as long as its first check took) the text passes leave
  /// of the time limit for what the caller does after them: reduce_bucket's final check, its
  /// sanitizer gate and the cause's compiles (kFinalChecksReserved), so that a reduction given
  /// a campaign window's time ends, and stores what it reached, inside it.
  double reserved_checks = 0;
  std::optional<std::filesystem::path> out;  ///< rewritten with every improvement
  /// reduce_bucket: a generated program's finding is reduced at the IR level first (a
  /// wrong-code finding by reduce_generated, the others by `generated` below). Off: the text
  /// passes alone.
  bool ir = true;
  /// The original is this generated program or batch: with the built-in test and a finding
  /// that is not a run finding, the generator's edits (reduce_ir) run first under the same
  /// test, in the same cheap mode, and the text passes start from their result.
  std::optional<GeneratedOrigin> generated;
  /// `--policy FILE`: the generator policy the original was made with, for the IR stage, where
  /// none is stored with its campaign (a `cudiff check` of a file generated with a policy); it
  /// is used only when its hash is the one the program's header names.
  std::optional<generator::Policy> policy;
};

/// How a reduction went, for the report.
struct ReduceOutcome {
  reducer::Result result;
  std::optional<ReduceTarget> target;      ///< none with a test script
  std::optional<runners::Mode> test_mode;  ///< the mode candidates were checked in
  std::optional<runners::Mode> full_mode;  ///< the mode the original showed it in
  bool confirmed = false;  ///< the result shows the target in the full mode (or the script said yes)
  std::vector<std::string> notes;
  /// The IR stage, when `generated` made one run; else why it did not (empty: not asked).
  std::optional<IrReduction> ir;
  std::string ir_note;
};

/// Reduces request.source. With the built-in test: checks the original in the full mode,
/// picks the target finding (exit 2 via Error when there is none), finds the cheapest mode
/// that still shows it (syntax, then ptx, for compile-time kinds), reduces with a prefilter
/// (the cheapest config alone first) and confirms the result in the full mode, stepping back
/// to the last accepted text that passes there if needed. With `generated`, the IR stage runs
/// before the text passes (its result is confirmed in the full mode first; the text passes start
/// from the original when it is not), sharing the time limit. A run mismatch needs a GPU, and
/// every accepted candidate must be clean under every compute-sanitizer tool on both binaries.
/// Progress goes to `err`.
ReduceOutcome reduce_source(const ReduceRequest& request, const runners::Toolchain& toolchain,
                            const runners::GpuDiscovery& gpus, std::ostream& err);

} // namespace cudiff::pipeline
