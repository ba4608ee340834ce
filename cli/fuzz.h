// `cudiff fuzz`: campaigns. Batches of generated programs are checked on a worker pool, a
// batch with a discrepancy is split until each finding is pinned on one test (which must show
// the same signature alone), findings are filed by one writer, one transaction per batch, and
// a killed campaign resumes where its last committed batch left it.
#pragma once

#include "cli/check.h"
#include "generator/generator.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace cudiff::cli {

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

/// What a campaign was asked to do; stored in the database (campaign_params) for --resume.
struct FuzzParams {
  std::uint64_t first_seed = 0;
  std::uint64_t batch = 8;               ///< seeds per translation unit
  std::optional<std::uint64_t> tests;    ///< stop after this many seeds
  double time_budget = 0;                ///< seconds; 0: none (then `tests` is set)
  generator::Size size = generator::Size::small;
  std::string policy;                    ///< Policy::dump() text
  std::vector<std::string> configs;      ///< config names
  std::optional<runners::Mode> mode;     ///< none: run with a GPU, else binary
  bool reduce = true;
  bool reduce_in_parallel = false;   ///< reduce each new bucket while fuzzing goes on
  double elapsed = 0;                    ///< seconds spent before the last resume
  std::string name;                      ///< a named campaign's name (id: named_campaign_id)
  Shard shard;                           ///< this database's part of the campaign
};
boost::json::object fuzz_params_json(const FuzzParams& params);
/// Throws Error(environment) naming what is missing in a stored record.
FuzzParams fuzz_params_from_json(const boost::json::value& json);

/// The first seed of this shard's k-th batch (k = 0, 1, ...).
std::uint64_t shard_batch_start(const FuzzParams& params, std::uint64_t k);
/// How many of the campaign's `tests` seeds this shard tests; nothing for a --time campaign.
std::optional<std::uint64_t> shard_test_count(const FuzzParams& params);

/// One seed's verdict after isolation, and the findings it is charged with.
struct SeedOutcome {
  std::uint64_t seed = 0;
  bool edge = false;  ///< an edge program (one planted E-rule violation), checked alone
  bool discrepancy = false;
  std::vector<oracle::Finding> findings;
  std::vector<triage::Signature> signatures;
  std::string source_name, source;  ///< the seed alone (a batch of one): the reproducer
  boost::json::object outputs;      ///< its check's commands and outputs
};

/// A checked batch: every seed's outcome, and what the splitting cost.
struct BatchOutcome {
  std::vector<SeedOutcome> seeds;
  std::size_t checks = 0;    ///< check_file calls (the batch itself, halves, single seeds)
  std::size_t compiles = 0;  ///< compiler invocations among them
  double seconds = 0;
  double gpu_seconds = 0;    ///< time the binaries ran
  std::vector<std::string> notes;  ///< e.g. a batch symptom no single test shows
};

/// What every worker shares (read-only while the campaign runs).
struct FuzzContext {
  generator::Policy policy;
  generator::Size size = generator::Size::small;
  CheckRequest check;  ///< configs, mode, limits (the file is set per batch)
  runners::Toolchain toolchain;
  std::filesystem::path workdir;
};

/// Generates the batch, checks it, and when it shows a discrepancy splits it by halving
/// (tests named by their labels in run and layout findings go straight to a check alone)
/// until every finding is pinned on one seed whose check alone shows the same signature.
/// Seeds whose test is an edge program (generator::is_edge_seed) are never batched: each is
/// checked alone in object mode against its expected rejection; a missed diagnostic is filed
/// with the violation fragment alone as its reproducer when that shows the same signature.
/// `gpu` (one GPU, or none) is where binaries run.
BatchOutcome check_batch(const FuzzContext& context, const std::vector<std::uint64_t>& seeds,
                         const runners::GpuDiscovery& gpu, const std::filesystem::path& workdir);

/// The live line and the end summary (cli/fuzz_progress.cpp).
class FuzzProgress {
public:
  FuzzProgress(std::uint64_t done_before, double elapsed_before, std::optional<std::uint64_t> target, double time_budget,
               std::size_t gpus, std::size_t workers);
  void add(const BatchOutcome& outcome, std::size_t findings, std::size_t new_buckets);
  /// "tests 96/500 (19%), 3.1 tests/s, 0.8 compiles/s, findings 2 (1 new bucket), CPU 97%,
  /// GPU 12%, ETA 2m10s"; compile-only campaigns (no GPUs) say so.
  std::string line() const;
  double elapsed() const;
  std::uint64_t tests() const;
  std::uint64_t findings() const { return findings_; }
  std::uint64_t new_buckets() const { return new_buckets_; }

private:
  std::uint64_t done_before_, tests_ = 0, compiles_ = 0, findings_ = 0, new_buckets_ = 0;
  double elapsed_before_, busy_seconds_ = 0, gpu_seconds_ = 0;
  std::optional<std::uint64_t> target_;
  double time_budget_;
  std::size_t gpus_;  ///< 0: compile-only
  std::size_t workers_;
  double started_;
};

} // namespace cudiff::cli
