// campaign: a campaign run or resumed (`cudiff fuzz`) — what it is asked to do, how it ended,
// each GPU's share, and how its --time runs out.
#pragma once

#include "campaign/params.h"
#include "runners/runners.h"
#include "triage/triage.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
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
/// A reduction still running this long after its window ended (a --time campaign's time, a
/// --tests campaign's share after its tests) is stopped; its bucket is left for --resume.
inline constexpr double kReductionStopSeconds = 55;
/// The last line of a `triage reduce` that its --time-limit stopped says this.
inline constexpr std::string_view kStoppedAtTimeLimit = "stopped at the time limit";

struct CampaignSummary;

/// What a campaign is asked to do (cudiff fuzz).
struct CampaignSetup {
  std::filesystem::path db_path;
  triage::KnownDifferences known;
  bool quiet = false, resume = false;
  bool no_reduce = false;  ///< overrides a resumed campaign's stored choice
  /// A new campaign applies no avoid rules (--rediscover); else the database's and, unless
  /// `known` is none(), the known-bug suite's (campaign_avoid_rules).
  bool rediscover = false;
  std::optional<std::filesystem::path> report;
  FuzzParams params;  ///< a new campaign's (ignored with resume: read from the database)
  runners::Toolchain toolchain;
  runners::GpuDiscovery gpus;  ///< the GPUs to use (none: compile-only)
  std::size_t jobs = 0;  ///< workers; 0: plan_cores's
  /// --reduce-share given: a new campaign's comes in `params`; this overrides a resumed one's.
  std::optional<double> reduce_share;
  /// Where binaries run: in executors (default; processes where the executor is missing) or a
  /// process each (--run-path process).
  runners::RunPath run_path = runners::RunPath::executor;
  std::size_t executors_per_gpu = 2;  ///< --executors N
  /// How batches are built (--build-path; docs/pipeline.md, "Build paths"): not a parameter of
  /// the campaign (a resumed one takes the flag given then), since both paths judge alike.
  pipeline::BuildPath build_path = pipeline::BuildPath::device;
  /// `--resume --time D`: a --time campaign goes on for D more seconds, even one that ended
  /// when its time ran out. 0: resumed as it was.
  double more_time = 0;
  /// Called once the tests are done and the report is written, before the reductions that
  /// follow them (cli prints the summary there): the summary as it stands then.
  std::function<void(const CampaignSummary&)> on_tests_done;
};

/// A campaign's reductions (docs/campaign.md, "Reductions").
struct ReductionSummary {
  double share = 0;                ///< the share of the campaign's time kept for them
  std::size_t alongside_jobs = 0;  ///< jobs of a reduction alongside the tests; 0: after them only
  std::size_t after_jobs = 0;      ///< jobs of a reduction after the tests
  std::size_t queued = 0;          ///< new bugs queued: this start's and those left before
  std::size_t not_queued = 0;      ///< new buckets not reduced by default: known, reported, dialect
  std::size_t small = 0;           ///< new bugs not reduced: their reproducer is already_small
  std::size_t ended = 0;           ///< reductions that ran to their end (stored a smaller reproducer or not)
  double window = -1;              ///< seconds they had after the tests (negative: no bound)
  double seconds = 0;              ///< seconds they took after the tests
  std::string under_way;           ///< when the tests ended: what was being reduced, or "done"
  bool only = false;               ///< a --resume with no tests left: reductions only
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
  std::vector<std::string> reductions;    ///< one line per reduction, as they ended
  ReductionSummary reduction;
  std::vector<std::string> notes;
  double seconds = 0;  ///< the tests' (this start's, with what earlier starts spent)
  bool compile_only = false;
  bool already_finished = false;  ///< a named campaign's command ran again after it had ended
  /// Batches still running when --time ran out (after kDrainSeconds more): not committed.
  std::size_t dropped_batches = 0;
  /// New bugs still to reduce (keys), most important first: their window ran out, or --resume
  /// reduces them (the campaign's stored pending_reductions).
  std::vector<std::string> unreduced;
  std::optional<runners::ExecutorStats> executor;  ///< all GPUs' executors together, when used
  std::vector<GpuShare> gpus;                      ///< each GPU's share (none when compile-only)
};

/// Runs (or resumes) the campaign in its named steps: open or resume the campaign row, start
/// the workers (and the reductions alongside where the cores allow), commit each batch as it
/// comes, close the campaign, write the report (then on_tests_done), reduce the new bugs left
/// in their window, most important first, and write the report again. Progress lines go to
/// `err` (none when quiet).
CampaignSummary run_campaign(const CampaignSetup& setup, std::ostream& err);
/// `cudiff fuzz --json`: the campaign, its counts and rate, the new and unreduced buckets, what
/// the executors did, each GPU's share, the notes and the report.
boost::json::object to_json(const CampaignSummary& summary);

/// Half the usable cores (each batch builds with two compilers at once), at least one: the
/// workers of a campaign whose reductions wait for its tests (plan_cores).
std::size_t default_fuzz_jobs();

} // namespace cudiff::campaign
