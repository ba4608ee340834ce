// campaign: a campaign run or resumed (`cudiff fuzz`) — what it is asked to do, how it ended,
// each GPU's share, and how its --time runs out.
#pragma once

#include "campaign/params.h"
#include "runners/runners.h"
#include "triage/triage.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace cudiff::campaign {

/// One GPU's share of a campaign (this start of it).
struct GpuShare {
  runners::GpuInfo gpu;
  std::uint64_t batches = 0;  ///< batches whose binaries ran on it
  std::uint64_t runs = 0;     ///< binaries run on it
  double run_seconds = 0;     ///< their wall time, summed (overlapping runs each count)
  double busy_seconds = 0;    ///< wall time during which at least one binary ran on it
  double busy = 0;            ///< busy_seconds over the campaign's wall time
  std::optional<runners::ExecutorStats> executor;  ///< its executors, when used
};

/// After --time runs out, batches already started get this long to finish; then whatever
/// still runs for them is stopped (runners::Limits::deadline) and they are dropped, not
/// committed: --resume tests them again.
inline constexpr double kDrainSeconds = 30;
/// Reductions at the end of a --time campaign stop this long after its time ran out; a bucket
/// not reduced by then is left for `cudiff triage reduce`.
inline constexpr double kReductionStopSeconds = 55;

/// What a campaign is asked to do (cudiff fuzz).
struct CampaignSetup {
  std::filesystem::path db_path;
  triage::KnownDifferences known;
  bool quiet = false, resume = false;
  bool no_reduce = false;  ///< overrides a resumed campaign's stored choice
  std::optional<std::filesystem::path> report;
  FuzzParams params;  ///< a new campaign's (ignored with resume: read from the database)
  runners::Toolchain toolchain;
  runners::GpuDiscovery gpus;  ///< the GPUs to use (none: compile-only)
  std::size_t jobs = 1;
  /// Where binaries run: in executors (default; processes where the executor is missing) or a
  /// process each (--run-path process).
  runners::RunPath run_path = runners::RunPath::executor;
  std::size_t executors_per_gpu = 2;  ///< --executors N
  /// `--resume --time D`: a --time campaign goes on for D more seconds, even one that ended
  /// when its time ran out. 0: resumed as it was.
  double more_time = 0;
};

/// How a campaign ended.
struct CampaignSummary {
  std::string campaign_id;
  FuzzParams params;
  std::filesystem::path db_path, report;
  std::int64_t tests = 0, findings = 0;
  std::int64_t invalid_tests = 0;  ///< tests the sanitizer gate rejected (this start)
  std::vector<std::string> new_buckets;   ///< their keys
  /// What the new buckets are, as the summary's first line says it: new bugs by class, known
  /// or reported, dialect (the shipped known differences make many of them known).
  triage::BugTally bugs;
  std::vector<std::string> reductions;    ///< one line per bucket reduced
  std::vector<std::string> notes;
  double seconds = 0;
  bool compile_only = false;
  bool already_finished = false;  ///< a named campaign's command ran again after it had ended
  /// Batches still running when --time ran out (after kDrainSeconds more): not committed.
  std::size_t dropped_batches = 0;
  std::vector<std::string> unreduced;  ///< new buckets whose reduction the time limit stopped or skipped
  std::optional<runners::ExecutorStats> executor;  ///< all GPUs' executors together, when used
  std::vector<GpuShare> gpus;                      ///< each GPU's share (none when compile-only)
};

/// Runs (or resumes) the campaign in its named steps: open or resume the campaign row, start
/// the workers, commit each batch as it comes, close the campaign, reduce the new buckets and
/// write the report. Progress lines go to `err` (none when quiet).
CampaignSummary run_campaign(const CampaignSetup& setup, std::ostream& err);
/// `cudiff fuzz --json`: the campaign, its counts and rate, the new and unreduced buckets, what
/// the executors did, each GPU's share, the notes and the report.
boost::json::object to_json(const CampaignSummary& summary);

/// Half the usable cores (each batch builds with two compilers at once), at least one.
std::size_t default_fuzz_jobs();

} // namespace cudiff::campaign
