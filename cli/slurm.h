// `cudiff slurm`: a campaign as a Slurm job array. `submit` (cli/slurm_command.cpp) writes
// the job scripts and the fuzz options into the campaign's shared directory and submits the
// array (one `cudiff fuzz` shard per task) and the merge job that runs after it; `status`
// and `submit --wait` (cli/slurm_watch.cpp) follow the jobs through squeue and the shard
// databases copied out, and show the merged result.
#pragma once

#include "cli/options.h"

#include <boost/json.hpp>

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <string>

namespace cudiff::cli {

/// A submitted campaign, as DIR/jobs.json records it.
struct SlurmCampaign {
  std::filesystem::path directory;  ///< absolute; on a filesystem every node sees
  std::string array_job, merge_job;  ///< Slurm job ids
  std::uint64_t shards = 0;
};
boost::json::object to_json(const SlurmCampaign& campaign);
/// Reads DIR/jobs.json; throws Error(usage) when DIR holds no submitted campaign.
SlurmCampaign read_slurm_campaign(const std::filesystem::path& directory);

/// Follows the campaign until its jobs have left the queue (printing a progress line every
/// `poll_seconds`), then prints the merged result like `cudiff slurm status`. Returns 0 when
/// the merge job merged every shard, 2 otherwise (with the reason on `err`).
int wait_for_slurm_campaign(const SlurmCampaign& campaign, double poll_seconds, bool json, std::ostream& out,
                            std::ostream& err);
/// `cudiff slurm status DIR`: the jobs in the queue, the shards copied out, and once merged
/// the campaign's tests, findings and buckets. Returns 0, or 2 when the merge failed.
int print_slurm_status(const SlurmCampaign& campaign, bool json, std::ostream& out, std::ostream& err);

} // namespace cudiff::cli
