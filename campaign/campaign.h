// campaign: many tests — batches of generated programs checked on a worker pool, each
// discrepancy pinned on one test, filed by one writer, resumable; shards of one campaign over
// many databases (Slurm job arrays); the guided (libFuzzer) engine; the conformance
// measurement of the rules catalog.
//
// Contract: run_campaign writes the database in one transaction per batch, so a campaign
// killed at any moment resumes without losing or repeating a test; a batch's discrepancy is
// never filed as it is: the test responsible is isolated and must show the same signature
// when checked alone (docs/architecture.md, "Speed"). Nothing here parses a command line:
// cli/ turns options into the request structs below and prints what comes back.
#pragma once

#include "generator/generator.h"
#include "pipeline/pipeline.h"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <iosfwd>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace cudiff::campaign {

// ---- shards and named campaigns ----------------------------------------------------------

/// This database's part of a campaign split over `count` databases (Slurm array tasks, or
/// any set of hosts): batch b of the campaign's seed sequence belongs to shard b mod count.
/// Interleaving whole batches (not ranges) keeps every shard busy under a --time budget, and
/// the shards together test exactly the programs, batched exactly as, one unsharded campaign
/// with the same seed would.
struct Shard {
  std::uint64_t index = 0, count = 1;  ///< index < count
  std::string text() const { return std::to_string(index) + "/" + std::to_string(count); }
  bool operator==(const Shard&) const = default;
};
/// "I/N" with 0 <= I < N; throws Error(usage) naming --shard for anything else.
Shard parse_shard(const std::string& text);

/// What a Slurm array task's environment says: the task's shard (array indices must form a
/// range with one step, e.g. 0-7 or 1-15:2) and a campaign name every task of the array
/// shares ("slurm-<cluster>-<array job id>"). Nothing outside an array job; Error(usage)
/// when the variables do not fit together.
struct SlurmArrayTask {
  Shard shard;
  std::string campaign_name;
};
using Environment = std::function<std::optional<std::string>(const std::string& name)>;
std::optional<SlurmArrayTask> slurm_array_task(const Environment& environment);
/// The process environment, for slurm_array_task.
Environment process_environment();

/// A named campaign's id, the same on every host: shards of one campaign merge into one.
std::string named_campaign_id(const std::string& name);
/// A named campaign's default first seed, the same on every host.
std::uint64_t named_campaign_seed(const std::string& name);

// ---- parameters ----------------------------------------------------------------------------

/// What a campaign was asked to do; stored in the database (campaign_params) for --resume.
struct FuzzParams {
  std::uint64_t first_seed = 0;
  std::uint64_t batch = 8;             ///< seeds per translation unit
  std::optional<std::uint64_t> tests;  ///< stop after this many seeds
  double time_budget = 0;              ///< seconds; 0: none (then `tests` is set)
  generator::Size size = generator::Size::small;
  std::string policy;                  ///< Policy::dump() text
  std::vector<std::string> configs;    ///< config names
  std::optional<runners::Mode> mode;   ///< none: run with a GPU, else binary
  bool reduce = true;
  bool reduce_in_parallel = false;  ///< reduce each new bucket while fuzzing goes on
  /// Run-time findings pass compute-sanitizer before they are filed (--no-sanitizer-gate: off).
  bool sanitizer_gate = true;
  /// EMI / metamorphic variants of each program in its batch (generator::generate_batch; the
  /// metamorphic oracle): on by default when binaries run, 0 with --no-variants.
  std::uint64_t variants = 0;
  double elapsed = 0;               ///< seconds spent before the last resume
  std::string name;                 ///< a named campaign's name (id: named_campaign_id)
  Shard shard;                      ///< this database's part of the campaign
};
boost::json::object fuzz_params_json(const FuzzParams& params);
/// Throws Error(environment) naming what is missing in a stored record.
FuzzParams fuzz_params_from_json(const boost::json::value& json);

/// The first seed of this shard's k-th batch (k = 0, 1, ...).
std::uint64_t shard_batch_start(const FuzzParams& params, std::uint64_t k);
/// How many of the campaign's `tests` seeds this shard tests; nothing for a --time campaign.
std::optional<std::uint64_t> shard_test_count(const FuzzParams& params);

/// The limits of one generated program's check in a campaign (pipeline's limits section).
pipeline::CheckRequest campaign_check_request(const FuzzParams& params);

// ---- one batch -----------------------------------------------------------------------------

/// One seed's verdict after isolation, and the findings it is charged with.
struct SeedOutcome {
  std::uint64_t seed = 0;
  bool edge = false;  ///< an edge program (one planted E-rule violation), checked alone
  bool discrepancy = false;
  std::vector<oracle::Finding> findings;
  std::vector<triage::Signature> signatures;
  std::string source_name, source;  ///< the seed alone (a batch of one): the reproducer
  boost::json::object outputs;      ///< its check's commands and outputs
  /// Set when the sanitizer gate found its run faulting: its run-time findings were withheld
  /// (not in `findings`) and the test goes to the invalid-tests list instead.
  std::optional<triage::InvalidTest> invalid;
};

/// When a binary ran: steady-clock seconds (since the clock's epoch).
struct RunSpan {
  double start = 0, end = 0;
};

/// A checked batch: every seed's outcome, and what the splitting cost.
struct BatchOutcome {
  std::vector<SeedOutcome> seeds;
  std::size_t checks = 0;    ///< checks made (the batch itself, halves, single seeds)
  std::size_t compiles = 0;  ///< compiler invocations among them
  double seconds = 0;
  std::vector<RunSpan> runs;       ///< each binary's run, on the batch's GPU
  std::size_t gpu = 0;             ///< which of the campaign's GPUs (its position in CampaignSetup::gpus)
  std::vector<std::string> notes;  ///< e.g. a batch symptom no single test shows
};

/// What every worker shares (read-only while the campaign runs).
struct FuzzContext {
  generator::Policy policy;
  generator::Size size = generator::Size::small;
  pipeline::CheckRequest check;  ///< configs, mode, limits (the test is set per batch)
  runners::Toolchain toolchain;
  std::filesystem::path workdir;
  /// compute-sanitizer on a seed alone with a run-time finding (pipeline::sanitizer_gate).
  pipeline::SanitizerGate sanitizer_gate;  ///< off unless the campaign makes it
  int variants = 0;                        ///< variants per seed in its batch (FuzzParams::variants)
  /// Each GPU's executors (runners::ExecutorPool), when binaries run on the executor path; none:
  /// every binary runs as a process. Only a check of several seeds uses them: a seed alone (what
  /// isolation files, the sanitizer gate checks and attribution rebuilds) runs as a process, so
  /// every finding filed is one the process path shows.
  std::vector<std::shared_ptr<runners::ExecutorPool>> executors;
  std::shared_ptr<runners::ExecutorPool> executor_for(const runners::GpuDiscovery& gpu) const;
};

/// Says what a worker is doing now ("checking batch 1040", "isolating batch 1040: 4 seeds"),
/// for the progress line.
using Activity = std::function<void(const std::string& what)>;

/// Generates the batch, checks it, and when it shows a discrepancy isolates each finding
/// (isolate_findings) on one seed. Seeds whose test is an edge program
/// (generator::is_edge_seed) are never batched: each is checked alone in object mode against
/// its expected rejection; a missed diagnostic is filed with the violation fragment alone as
/// its reproducer when that shows the same signature. `gpu` (one GPU, or none) is where
/// binaries run.
/// Seeds whose program a compiler of `check.configs` rejects on purpose
/// (generator::rejecting_compilers: a construct such as managed_memory, or a probe clang
/// rejects) are not batched either: each is checked alone, as a batch of one, so the rejection
/// costs neither its batch's other tests nor a bisection (docs/campaign.md, "Batches").
BatchOutcome check_batch(const FuzzContext& context, const std::vector<std::uint64_t>& seeds,
                         const runners::GpuDiscovery& gpu, const std::filesystem::path& workdir,
                         const Activity& activity = {});

/// The seeds among `seeds` (none of them edge seeds) whose program one of the compilers of
/// `configs` rejects on purpose: check_batch checks each of them alone.
std::vector<std::uint64_t> seeds_rejected_on_purpose(const generator::Policy& policy, generator::Size size,
                                                     const std::vector<std::uint64_t>& seeds,
                                                     const std::vector<runners::Config>& configs);

/// One check of some seeds (the whole batch, a half, one seed): its findings and their keys.
struct SeedsCheck {
  std::vector<oracle::Finding> findings;
  std::vector<triage::Signature> signatures;
  /// For each finding, the seeds whose tests it names (run and layout findings name the
  /// kernels and probes that differ; the batch's sidecar says whose they are); empty when the
  /// finding names none (a compile-time finding is about the whole translation unit).
  std::vector<std::set<std::uint64_t>> named_seeds;
  std::string source_name, source;  ///< what was checked: the reproducer when it is one seed
  boost::json::object outputs;
  /// The sanitizer gate's verdict on a seed alone with a run-time finding (check_batch runs it
  /// while the binaries exist; none for a batch of several, or without such a finding), its
  /// one-line note, and for an invalid program what the invalid-tests list keeps.
  std::optional<pipeline::GateResult> gate;
  std::string gate_note;
  std::optional<triage::InvalidTest> invalid;
  bool agree() const { return findings.empty(); }
};
using CheckSeeds = std::function<SeedsCheck(const std::vector<std::uint64_t>& seeds)>;
/// What happens to a seed's findings once they are pinned on it (their keys matched the
/// batch's): stage attribution, which rewrites each finding's details and signature.
using SettlePinned = std::function<void(SeedOutcome& outcome)>;

/// Pins the findings of `checked` (the check of `seeds`) on single seeds: findings that all
/// name their seeds (run, layout) send those seeds straight to a check alone; otherwise the
/// seeds are halved and each half that still disagrees is split again. A seed alone is charged
/// only with findings whose key the batch showed. Notes say what could not be pinned. A seed
/// alone whose sanitizer gate found the program invalid is charged with none of its run-time
/// findings (SeedOutcome::invalid says why); the others carry the gate's note in their
/// details ("sanitizer_gate"). `settle`, when given, is then called on each pinned seed after
/// that key match (batch keys carry no stage).
std::map<std::uint64_t, SeedOutcome> isolate_findings(const std::vector<std::uint64_t>& seeds,
                                                      const SeedsCheck& checked, const CheckSeeds& check,
                                                      std::vector<std::string>& notes, const SettlePinned& settle = {});

// ---- the loop --------------------------------------------------------------------------------

/// Hands out batches of untested seeds: batch b is seeds [first + bK, first + (b+1)K), less
/// those already committed (a resumed campaign), up to the campaign's end; a shard takes the
/// campaign's batches b = index, index + count, ... Safe to call from every worker.
class BatchSource {
public:
  /// `elapsed` says how long the campaign has run (for its time budget).
  BatchSource(const FuzzParams& params, std::set<std::uint64_t> done, std::function<double()> elapsed);
  /// The next batch, or nothing when the campaign is over (or stopping).
  std::vector<std::uint64_t> take();
  void stop();

private:
  const FuzzParams& params_;
  std::set<std::uint64_t> done_;
  std::function<double()> elapsed_;
  std::mutex mutex_;
  std::uint64_t next_ = 0;
  bool stopping_ = false;
};

/// New buckets reduced one at a time on a thread of its own while the campaign goes on
/// (--reduce-in-parallel). `reduce` does one bucket and returns the line to print.
class BackgroundReducer {
public:
  using Reduce = std::function<std::string(const std::string& key)>;
  explicit BackgroundReducer(Reduce reduce);
  ~BackgroundReducer();
  BackgroundReducer(const BackgroundReducer&) = delete;
  BackgroundReducer& operator=(const BackgroundReducer&) = delete;
  void add(const std::string& key);
  /// Buckets queued or being reduced.
  std::size_t pending() const;
  /// Waits up to `seconds` for the queue to empty; true when nothing is left to reduce.
  bool wait_idle(double seconds);
  /// "bucket 1a2b3c4d5e6f (2 of 3), 1m10s": what is being reduced now, for a progress line.
  std::string status() const;
  /// Waits for the reductions still queued; returns their lines, in the order they finished.
  std::vector<std::string> finish();

private:
  void loop();
  Reduce reduce_;
  mutable std::mutex mutex_;
  std::condition_variable idle_;
  std::string current_;
  std::size_t added_ = 0;
  std::chrono::steady_clock::time_point current_since_;
  std::condition_variable wake_;
  std::deque<std::string> keys_;
  std::vector<std::string> lines_;
  bool closing_ = false;
  std::thread thread_;
};

/// The wall time during which at least one of a set of spans was open: how long a GPU had a
/// binary running, however many ran at once. Spans come in any order (batches finish out of
/// order) and are merged as they come; merged spans that ended more than kFoldSeconds before the
/// latest one are folded into a total, so a long campaign keeps a bounded set. A span reported
/// later than that (a batch over an hour long) could count time twice; no batch runs that long
/// under the compile and run limits.
class BusyTime {
public:
  static constexpr double kFoldSeconds = 3600;
  void add(double start, double end);
  double seconds() const;

private:
  std::map<double, double> merged_;  ///< start -> end, disjoint, not yet folded
  double folded_ = 0, latest_ = 0;
};

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

/// The live line and the end summary's figures.
class FuzzProgress {
public:
  /// `gpus`: how many GPUs run binaries (0: compile-only).
  FuzzProgress(std::uint64_t done_before, double elapsed_before, std::optional<std::uint64_t> target,
               double time_budget, std::size_t gpus, std::size_t workers);
  void add(const BatchOutcome& outcome, std::size_t findings, std::size_t new_buckets);
  /// "tests 96/500 (19%), 3.1 tests/s, 0.8 compiles/s, findings 2 (1 new bucket), workers busy 97%,
  /// GPU busy 12%, ETA 2m10s"; with several GPUs each one's share follows ("GPU busy 12% (0: 14%,
  /// 1: 10%)"); compile-only campaigns (no GPUs) say so. A GPU is busy while at least one binary
  /// runs on it.
  /// `activity`, when given, ends the line: what the workers are doing ("; now: ...").
  std::string line(const std::string& activity = "") const;
  double elapsed() const;
  std::uint64_t tests() const;
  std::uint64_t findings() const { return findings_; }
  std::uint64_t new_buckets() const { return new_buckets_; }
  /// GPU `gpu`'s batches, runs and busy time so far (GpuShare::gpu and executor left empty).
  GpuShare gpu_share(std::size_t gpu) const;

private:
  struct GpuUse {
    std::uint64_t batches = 0, runs = 0;
    double run_seconds = 0;
    BusyTime busy;
  };
  double session_seconds() const;
  std::uint64_t done_before_, tests_ = 0, compiles_ = 0, findings_ = 0, new_buckets_ = 0;
  double elapsed_before_, busy_seconds_ = 0;
  std::vector<GpuUse> gpu_use_;
  std::optional<std::uint64_t> target_;
  double time_budget_;
  std::size_t workers_;
  double started_;
};

/// What every worker is doing, gathered for the progress line. Thread-safe.
class ActivityBoard {
public:
  explicit ActivityBoard(std::size_t workers) : doing_(workers) {}
  void set(std::size_t worker, std::string what);
  /// The workers' activities, alike ones counted: "6 checking, isolating batch 1040: 4 seeds".
  std::string summary() const;

private:
  mutable std::mutex mutex_;
  std::vector<std::string> doing_;
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

/// The bucket's reproducer reduced by `cudiff triage reduce KEY --db DB --jobs N` in a child
/// process (pipeline::kBucketReductionSeconds at most, and stopped at `deadline`), so a
/// reduction that fails or is killed costs that bucket's reduction only. Returns the line to
/// print.
std::string
reduce_bucket_in_child(const std::filesystem::path& db_path, const std::string& key, std::size_t jobs,
                       std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max());

/// The cores this process may use: its CPU affinity, capped by SLURM_CPUS_PER_TASK.
std::size_t usable_cores();
/// Half the usable cores (each batch builds with two compilers at once), at least one.
std::size_t default_fuzz_jobs();

// ---- guided generation (libFuzzer) ---------------------------------------------------------
// libFuzzer's input bytes drive the generator's decisions (ByteRng), each program is checked
// and filed like a campaign's test, and what the compilers did with it (diagnostic ids, PTX
// instruction kinds and directives, outcomes, the verdict) comes back as features that
// libFuzzer counts as coverage, so it keeps and mutates the inputs that made a compiler do
// something new. cudiff-libfuzzer (cli/libfuzzer_main.cpp) is the process libFuzzer drives.

struct GuidedOptions {
  std::filesystem::path db_path = "cudiff.db";
  std::optional<std::string> campaign;  ///< join this campaign (set by `cudiff fuzz --engine libfuzzer`)
  triage::KnownDifferences known;
  generator::Size size = generator::Size::small;
  generator::Policy policy = generator::Policy::defaults();
  std::vector<runners::Config> configs = runners::default_configs();
  std::optional<runners::Mode> mode;  ///< none: run with a GPU, else binary (compile-only)
  bool no_gpu = false;                ///< --gpus none
  std::optional<std::filesystem::path> features_log;  ///< one JSON line per program (bench/guided)
  runners::ToolchainSearch search;
  bool quiet = false;
  /// The unguided baseline (bench/guided): seeds from here, one program each, no libFuzzer.
  std::optional<std::uint64_t> baseline_first_seed;
  double baseline_seconds = 0;  ///< 0: no time limit
  std::optional<std::uint64_t> baseline_tests;
};

/// Whether programs run on a GPU: one is present, --gpus none was not given, and the mode is
/// run or unset.
bool guided_runs(const GuidedOptions& options, const runners::GpuDiscovery& gpus);
/// A new campaign row of `kind` ("guided", "baseline"): this host, the compilers' versions,
/// the configs, the first GPU when programs run, the mode.
triage::Campaign new_guided_campaign(const std::string& kind, const GuidedOptions& options,
                                     const runners::Toolchain& toolchain, const runners::GpuDiscovery& gpus);

/// What the compilers did with one program, as named features with counts. The names:
/// "outcome <config> <accepted|rejected|crashed|hung>", "diag <config> <tool> <severity> <id>",
/// "run <config> <status>", "ptx <config> <instruction kind>", "ptx <config> directive <.name>",
/// "ptx <config> space <.name>", "verdict agree", "finding <kind> <side>", "bucket <key>".
using Features = std::map<std::string, std::uint32_t>;

/// The features of a finished check, with the PTX each accepted config emitted (by config name)
/// and the signatures of its findings. Pure.
Features check_features(const pipeline::CheckRun& run, const std::map<std::string, oracle::PtxFeatures>& ptx,
                        const std::vector<triage::Signature>& signatures);

/// One program's result.
struct GuidedResult {
  std::string name;  ///< "cudiff_in_<hash>" or "cudiff_<seed>"
  Features features;
  std::string headline;  ///< the verdict's
  std::size_t findings = 0;
  std::vector<std::string> new_buckets;
  double seconds = 0;
  std::string generator_error;  ///< the generator threw (a cudiff bug): nothing was compiled
};

/// Distinct things seen so far by one session (its progress line, and the bench's curves).
struct GuidedTotals {
  std::uint64_t programs = 0, findings = 0, new_buckets = 0, generator_errors = 0;
  std::set<std::string> diagnostic_ids;  ///< "<tool> <severity> <id>", whichever config printed it
  std::set<std::string> ptx_kinds;       ///< instruction kinds, whichever config emitted them
  std::set<std::string> buckets;
  /// Adds one program's features.
  void add(const Features& features);
};

/// One process's share of a guided campaign: the database, the compilers, a scratch directory.
class GuidedSession {
public:
  /// Opens the database (a new campaign of kind "guided", or joins options.campaign), finds
  /// the compilers and GPUs. Throws Error with one line when any of them is unusable.
  GuidedSession(GuidedOptions options, std::ostream& log);
  GuidedSession(const GuidedSession&) = delete;
  GuidedSession& operator=(const GuidedSession&) = delete;

  /// The program `bytes` name, checked, filed, and its features.
  GuidedResult test_bytes(std::string_view bytes);
  /// The program of `seed` (a SeededRng, as `cudiff generate --seed` makes it): the baseline.
  GuidedResult test_seed(std::uint64_t seed);
  /// The baseline: test_seed from options.baseline_first_seed until its time or test count is
  /// used up. Returns the process exit status.
  int run_baseline();

  const GuidedTotals& totals() const { return totals_; }
  const std::string& campaign_id() const { return campaign_.id; }
  /// "guided 7a3c...: 40 programs, 3 findings (2 new buckets), 0.31 programs/s, 57 diagnostic ids, 212 PTX kinds"
  std::string progress_line() const;

private:
  GuidedResult test(const generator::TestCase& program, const std::string& seed_text, std::string_view input);
  std::map<std::string, oracle::PtxFeatures> emitted_ptx(const pipeline::CheckRun& run,
                                                         const std::filesystem::path& dir);
  void file_program(const generator::TestCase& program, const std::string& seed_text, std::string_view input,
                    const pipeline::CheckRun& run, const std::vector<triage::Signature>& signatures,
                    GuidedResult& result);
  void log_features(const GuidedResult& result);
  void note_progress();

  GuidedOptions options_;
  std::ostream& log_;
  triage::Database db_;
  triage::Campaign campaign_;
  runners::Toolchain toolchain_;
  runners::GpuDiscovery gpus_;
  pipeline::CheckRequest request_;
  TempDir workdir_;
  GuidedTotals totals_;
  std::chrono::steady_clock::time_point started_, last_line_;
};

/// A guided campaign run by cudiff-libfuzzer (`cudiff fuzz --engine libfuzzer`).
struct LibFuzzerCampaign {
  std::filesystem::path libfuzzer_binary;  ///< cudiff-libfuzzer
  /// cudiff-libfuzzer's own "--name=value" flags (db, known, size, policy, configs, mode,
  /// gpus, compilers), already checked by the caller.
  std::vector<std::string> flags;
  GuidedOptions options;  ///< the same, parsed
  std::filesystem::path corpus = "corpus/guided/live";
  bool corpus_given = false;  ///< else corpus/guided/seeds is read too
  double time_budget = 0;     ///< seconds; 0: `tests` programs
  std::uint64_t tests = 200;
  std::optional<std::uint64_t> seed;
  std::uint64_t jobs = 1;  ///< libFuzzer -fork
  std::vector<std::string> libfuzzer_flags;
  bool quiet = false, reduce = true;
  std::optional<std::filesystem::path> report;
};

struct LibFuzzerSummary {
  triage::Campaign campaign;
  std::vector<std::string> new_buckets, reductions;
  double seconds = 0;
  bool runs = false;         ///< programs ran on a GPU
  bool interrupted = false;  ///< Ctrl-C
  std::string status;        ///< libFuzzer's exit ("exit 0", "signal 9")
  bool clean = false;        ///< libFuzzer used up its budget or was interrupted
  std::filesystem::path corpus, report;
};

/// Creates the campaign, starts cudiff-libfuzzer with the campaign's options as its flags,
/// shows progress from the database on `err` while it runs (every 30 s), then reduces the new
/// buckets and writes the report. Ctrl-C stops libFuzzer, and the campaign is still closed.
LibFuzzerSummary run_libfuzzer_campaign(const LibFuzzerCampaign& request, std::ostream& err);

// ---- the conformance measurement of the rules catalog (cudiff rules --measure) ------------
// What each compiler does with every E rule's violation (and its fixed form) and every V
// rule's probe, and the file it is kept in, which plain `cudiff rules` shows beside the catalog.

/// What one config did with one measured program.
struct MeasuredCompile {
  std::string config;
  std::string outcome;      ///< "accepted", "rejected", "crashed", "hung"
  std::string first_error;  ///< the first error's message ("" when accepted)
  std::string tool;         ///< which stage printed it (frontend, ptxas...)
  int line = 0;             ///< its line
  bool at_planted_line = false;
};

/// One measured program: a rule's violation, its fixed form, or its probe.
struct MeasuredItem {
  std::string rule;
  std::string variant;  ///< "violation", "fixed", "probe"
  bool must_reject = false;
  int planted_line = 0;
  std::vector<MeasuredCompile> compiles;
  std::string finding;       ///< the oracle's verdict: "" when as expected, else its summary
  std::string finding_kind;  ///< missed_diagnostic, false_rejection, crash, hang...
  std::string known_reason;  ///< when the finding is a recorded known difference
  /// "nvcc" or "clang": the verdict of that compiler's first config ("accept", "reject",
  /// "crash", "hang").
  std::string verdict_of(std::string_view compiler) const;
};

struct Measurement {
  double measured_at = 0;
  std::string nvcc_version, clang_version;
  std::uint64_t seed = 0;
  std::string size;
  std::vector<std::string> configs;
  std::vector<MeasuredItem> items;
};

boost::json::value to_json(const Measurement& measurement);
/// Throws Error(usage) with one line for a file that is not a measurement.
Measurement measurement_from_json(const boost::json::value& json, const std::string& origin);

struct MeasureRequest {
  std::uint64_t seed = 1;  ///< the program the violations are planted in
  generator::Size size = generator::Size::small;
  std::optional<std::string> rule;  ///< only this rule
  std::vector<runners::Config> configs = runners::default_configs();
  double compile_seconds = pipeline::kProgramCompileSeconds;
  std::size_t jobs = 1;
  triage::KnownDifferences known;
  runners::Toolchain toolchain;
};
/// Measures every planned program on `jobs` workers (each builds with every config at once),
/// printing a progress line to `err` every 20 programs. Throws Error(environment) when a
/// worker fails, Error(usage) for a rule with neither a violation template nor a probe.
Measurement measure_conformance(const MeasureRequest& request, std::ostream& err);

// ---- the rules catalog's coverage (cudiff rules) -------------------------------------------

/// One rule as `cudiff rules` shows it: what cudiff has for it and, once measured, what each
/// compiler did with its violation (E) or its probe (V).
struct RuleCoverage {
  rules::Rule rule;
  /// In words: "violation template", "generator: A, B; probe", "scanned for in generated
  /// programs", "not checkable: WHY", "-" for nothing.
  std::string covered_by;
  std::vector<std::string> constructs;  ///< the generator constructs that exercise it
  bool measured = false;                ///< the measurement has its violation or probe
  std::string nvcc = "-", clang = "-";  ///< each compiler's verdict; "-" when none
  std::string verdict = "-";            ///< "ok", or the finding's kind (" (known)" when known)
};

/// The catalog's coverage: its rules, and counts over the whole catalog.
struct CatalogCoverage {
  std::vector<RuleCoverage> rules;  ///< in catalog order
  std::size_t e_rules = 0, e_checkable = 0, e_with_violation = 0;  ///< with a template: checkable ones
  std::size_t v_rules = 0, v_generated = 0;  ///< generated: a construct or a probe exercises it
  std::size_t u_rules = 0, u_scanned = 0;    ///< scanned: ubscan looks for it
};

/// What cudiff covers of rules::rule_catalog(): for each rule (only those of kind `only`, when
/// given) the violation template (E), the generator constructs and probe (V) or the scan (U)
/// that covers it, with the measured verdicts when `measurement` has them. Never throws.
CatalogCoverage rules_coverage(const std::optional<Measurement>& measurement, std::optional<rules::RuleKind> only);
/// `cudiff rules --json`: {"rules": [each rule, with "measured" once measured], "coverage": the counts}.
boost::json::object to_json(const CatalogCoverage& coverage);
/// The conformance table of `cudiff rules --measure`: a row per measured program (rule,
/// program, each compiler's verdict, a rejection "(line)" when its error is at the planted line
/// else "(elsewhere)", the verdict, the first diagnostic), then the programs counted by verdict.
std::string render_measurement(const Measurement& measurement);

// ---- the known-bug recall suite ------------------------------------------------------------
// corpus/known-bugs/<case>/: programs that show real compiler bugs, each with the finding it
// must give (docs/campaign.md, "Recall"). Checking every case under a set of configs says
// which share of known bugs that set finds, and at what cost: how the default configs are
// chosen.

/// What a case must give: a finding of one of `kinds`, whose bucket title contains
/// `title_contains` (or whose key starts with `key_prefix`), attributed to `stage`.
struct KnownBugExpectation {
  std::vector<std::string> kinds;  ///< FindingKind names; any of them counts (one kind may be split later)
  std::string stage;               ///< oracle::to_string(Stage): "frontend", "device-codegen", "ptxas"...
  std::string key_prefix;          ///< set when the bucket is named by its key
  std::string title_contains;      ///< set when the bucket is named by its title
  std::string verdict;             ///< "discrepancy" or "known-difference"
};

/// One case of the suite, as its case.json says.
struct KnownBugCase {
  std::string name;                  ///< the case's directory name
  std::filesystem::path directory;
  std::filesystem::path file;        ///< the reproducer (directory / case.json's "file")
  std::string title, source, licence;
  std::map<std::string, std::string> reproduces_with;  ///< compiler -> version it was confirmed with
  bool needs_gpu = false;
  bool confirmed = false;            ///< reproduced by hand (GPU cases: on a GPU) with those versions
  std::optional<runners::Mode> mode; ///< the cheapest mode that shows it; none: check's default
  std::vector<std::string> configs;  ///< the presets that show it (some may be unknown here)
  KnownBugExpectation expect;
  std::string does_not_reproduce;    ///< why it no longer shows ("" while it does): not checked
};

/// The case in `directory` (its case.json). Throws Error(usage) naming the file and the field
/// for a case.json that is not JSON, lacks a field, or names a reproducer that does not exist.
KnownBugCase read_known_bug(const std::filesystem::path& directory);
/// Every case below `suite` (each subdirectory with a case.json), sorted by name. Throws
/// Error(usage) when `suite` is not a directory or holds no case.
std::vector<KnownBugCase> read_known_bugs(const std::filesystem::path& suite);

/// A named set of configs to measure. Names that are not presets here are kept in `unknown`
/// and reported, never an error: the suite may name presets of a newer cudiff.
struct ConfigSet {
  std::string name;  ///< the list as given ("nvcc-O3,clang-O3"), or "case" (each case's own)
  std::vector<runners::Config> configs;
  std::vector<std::string> unknown;
  bool per_case = false;  ///< "case": each case is checked with the presets its case.json names
  std::optional<std::string> arch;  ///< replaces every config's (a per-case set's too)
};
/// A comma-separated list of preset names, or "case". `arch` (if set) replaces every config's.
ConfigSet config_set(std::string_view list, const std::optional<std::string>& arch = std::nullopt);

/// How one case fared under one config set.
struct CaseOutcome {
  std::string name;
  std::string status;  ///< "found", "missed", "skipped"
  std::string note;    ///< why skipped, which configs were unknown, what was found instead...
  bool found = false;        ///< a finding of an expected kind
  bool right_bucket = false; ///< ... whose key or title matches
  std::string stage;         ///< "right", "wrong (<stage>)", "no stage" (the finding carries none)
  std::string found_kind, found_title, found_key;
  std::vector<std::string> configs;  ///< the configs it was checked with
  double compile_seconds = 0;  ///< summed over configs (the compilers' time, not wall time)
  double run_seconds = 0;      ///< summed over the runs
  double wall_seconds = 0;     ///< the whole check
};

/// Judges one check of a case: pure. `signatures` are the check's findings' signatures, in
/// order (pipeline::signatures_of). A finding of an expected kind whose bucket matches is
/// preferred to one whose bucket does not.
CaseOutcome judge_known_bug(const KnownBugCase& bug, const oracle::Verdict& verdict,
                            const std::vector<triage::Signature>& signatures);

/// One config set over the suite: each case's outcome and the totals.
struct RecallResult {
  ConfigSet set;
  std::vector<CaseOutcome> cases;
  std::size_t checked = 0, found = 0, right_bucket = 0, right_stage = 0, no_stage = 0, skipped = 0;
  std::size_t confirmed_missed = 0;  ///< cases marked confirmed that were checked and not found
  double compile_seconds = 0, run_seconds = 0, wall_seconds = 0;
  double recall() const { return checked == 0 ? 0.0 : double(found) / double(checked); }
};

struct RecallRequest {
  std::vector<KnownBugCase> cases;
  std::vector<ConfigSet> sets;
  std::optional<runners::Mode> mode;  ///< every case in this mode (else each case's own)
  runners::Limits compile_limits = pipeline::limits(pipeline::kFileCompileSeconds);
  runners::Limits run_limits = pipeline::limits(pipeline::kRunSeconds);
  runners::Toolchain toolchain;
  runners::GpuDiscovery gpus;  ///< none: cases that need a GPU are skipped, with the reason
};

struct RecallReport {
  std::string nvcc_version, clang_version, gpu;  ///< gpu: the first GPU, or why there is none
  std::vector<RecallResult> results;  ///< one per set, in the request's order
};

/// Checks every case (pipeline::check_test, one case at a time so its time is its own) under
/// every set and judges it. A line per case goes to `err`.
RecallReport measure_recall(const RecallRequest& request, std::ostream& err);
boost::json::value to_json(const RecallReport& report);

// ---- Slurm ---------------------------------------------------------------------------------
// A campaign as a Slurm job array: the job scripts and the fuzz options are written into the
// campaign's shared directory and the array (one `cudiff fuzz` shard per task) and the merge
// job that runs after it are submitted; the jobs are then followed through squeue and the
// shard databases copied out.

/// A submitted campaign, as DIR/jobs.json records it.
struct SlurmCampaign {
  std::filesystem::path directory;   ///< absolute; on a filesystem every node sees
  std::string array_job, merge_job;  ///< Slurm job ids
  std::uint64_t shards = 0;
};
boost::json::object to_json(const SlurmCampaign& campaign);
/// Reads DIR/jobs.json; throws Error(usage) when DIR holds no submitted campaign.
SlurmCampaign read_slurm_campaign(const std::filesystem::path& directory);

/// What `cudiff slurm submit` asks for.
struct SlurmSubmitRequest {
  SlurmCampaign campaign;         ///< its directory (absolute) and shard count; no jobs yet
  std::filesystem::path cudiff;   ///< the binary every node runs
  std::optional<std::uint64_t> gpus_per_task, cpus_per_task;
  std::optional<std::string> partition, time_limit;
  std::vector<std::string> sbatch_flags;  ///< for both jobs
  std::vector<std::string> fuzz_options;  ///< checked by the caller as `cudiff fuzz` would
  double fuzz_time_budget = 0;            ///< the fuzz options' --time, for the default time limit
};
/// The two sbatch command lines; the merge job's dependency names ARRAY_JOB until it is known.
struct SlurmSubmission {
  runners::Command array, merge;
};
SlurmSubmission slurm_submission(const SlurmSubmitRequest& request);
/// Writes the campaign's directory (job scripts, fuzz.args, shards/, logs/), submits the array
/// and then the merge job, and records both in DIR/jobs.json. Throws Error(usage) when DIR
/// holds a submitted campaign already, Error(environment) with sbatch's one-line reason when
/// it refuses (a refused merge job says how to submit it by hand).
SlurmCampaign submit_slurm_campaign(const SlurmSubmitRequest& request);

/// Where a submitted campaign stands: squeue for the jobs, the directory for the shards copied
/// out and the merge's status, and once merged what it found.
struct SlurmStatus {
  SlurmCampaign campaign;
  std::uint64_t pending = 0, running = 0, other = 0;  ///< array tasks in the queue
  std::string merge_queue_state;  ///< the merge job's state in the queue; empty once it left
  std::uint64_t copied_out = 0;   ///< shard databases in DIR/shards
  std::optional<int> merge_status;  ///< DIR/merge.status, once the merge job ended
  std::optional<triage::Campaign> merged;  ///< the merged fuzz campaign
  triage::Totals totals;
  std::int64_t new_buckets = 0;
  bool queue_empty() const { return pending + running + other == 0 && merge_queue_state.empty(); }
  /// The merge job's state: its queue state, else "ended" (it wrote merge.status) or "gone".
  std::string merge_state() const;
  std::filesystem::path database() const { return campaign.directory / "campaign.db"; }
  std::filesystem::path report() const { return campaign.directory / "report.html"; }
};
SlurmStatus slurm_status(const SlurmCampaign& campaign);
/// Follows the campaign until its jobs have left the queue, with a line on `err` when
/// something changed (at least once a minute), then its status.
SlurmStatus wait_for_slurm_campaign(const SlurmCampaign& campaign, double poll_seconds, std::ostream& err);
/// `cudiff slurm status --json`: to_json of the campaign, the tasks pending and running, the
/// shards copied out, the merge's state and exit status, and once merged the database, report,
/// tests, findings, buckets and new buckets.
boost::json::object to_json(const SlurmStatus& status);

} // namespace cudiff::campaign
