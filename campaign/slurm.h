// campaign: a campaign as a Slurm job array (`cudiff slurm`; docs/slurm.md).
#pragma once

#include "runners/runners.h"
#include "triage/triage.h"

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace cudiff::campaign {

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
/// DIR/jobs.json's content, as read_slurm_campaign reads it.
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
/// The sbatch command lines of a request; nothing is written or submitted.
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
/// Where the campaign stands now: squeue for its jobs, its directory for the rest.
SlurmStatus slurm_status(const SlurmCampaign& campaign);
/// Follows the campaign until its jobs have left the queue, with a line on `err` when
/// something changed (at least once a minute), then its status.
SlurmStatus wait_for_slurm_campaign(const SlurmCampaign& campaign, double poll_seconds, std::ostream& err);
/// `cudiff slurm status --json`: to_json of the campaign, the tasks pending and running, the
/// shards copied out, the merge's state and exit status, and once merged the database, report,
/// tests, findings, buckets and new buckets.
boost::json::object to_json(const SlurmStatus& status);

} // namespace cudiff::campaign
