// campaign: Slurm submission — writes the campaign's directory (the job scripts, the fuzz
// options, later the shards, logs and the merged result) and submits the array job, one
// `cudiff fuzz` shard per task, and the merge job that runs once every task has ended.
#include "campaign/slurm.h"
#include "pipeline/limits.h"
#include "slurm_scripts.h"  // generated from scripts/slurm by campaign/embed_slurm_scripts.cmake

#include <cmath>

namespace cudiff::campaign {
namespace {

bool sets_time_limit(const std::vector<std::string>& flags) {
  for (const std::string& flag : flags)
    if (flag == "-t" || flag == "--time" || flag.rfind("--time=", 0) == 0 ||
        (flag.rfind("-t", 0) == 0 && flag.size() > 2))
      return true;
  return false;
}

/// Runs sbatch --parsable; returns the job id ("1234" of "1234" or "1234;cluster").
std::string submit(runners::Command command, const std::filesystem::path& sbatch, const std::string& what) {
  command.limits.wall_seconds = pipeline::kSlurmSubmitSeconds;
  command.argv[0] = sbatch.string();
  const runners::SubprocessResult result = runners::run_subprocess(command);
  const std::string reply(trim(result.out.text));
  if (!result.exited_zero() || reply.empty()) {
    const auto lines = split_lines(std::string(trim(result.err.text)));
    throw_environment("sbatch refused the " + what + " (" + result.status_text() + ")" +
                      (lines.empty() ? "" : ": " + lines.front()));
  }
  return reply.substr(0, reply.find(';'));
}

void write_directory(const SlurmCampaign& campaign, const std::vector<std::string>& fuzz_options) {
  const std::filesystem::path& dir = campaign.directory;
  std::error_code ec;
  // A campaign's shards are never overwritten; a submission sbatch refused left none, and its
  // directory can be used again.
  const bool has_shards = std::filesystem::is_directory(dir / "shards", ec) &&
                          std::filesystem::directory_iterator(dir / "shards", ec) !=
                              std::filesystem::directory_iterator();
  if (std::filesystem::exists(dir / "jobs.json", ec) || has_shards)
    throw_usage(dir.string() + " holds a submitted campaign already; give another --out");
  for (const char* sub : {"shards", "logs"}) {
    std::filesystem::create_directories(dir / sub, ec);
    if (ec) throw_environment("cannot create " + (dir / sub).string() + ": " + ec.message());
  }
  std::string args;
  for (const std::string& option : fuzz_options) args += option + "\n";
  write_file(dir / "fuzz.args", args);
  write_file(dir / "campaign.sbatch", embedded::campaign_sbatch);
  write_file(dir / "merge.sbatch", embedded::merge_sbatch);
  for (const char* script : {"campaign.sbatch", "merge.sbatch"})
    std::filesystem::permissions(dir / script, std::filesystem::perms::owner_exec | std::filesystem::perms::group_exec,
                                 std::filesystem::perm_options::add, ec);
}

} // namespace

SlurmSubmission slurm_submission(const SlurmSubmitRequest& request) {
  const SlurmCampaign& campaign = request.campaign;
  const std::filesystem::path& dir = campaign.directory;
  SlurmSubmission submission;
  auto& array = submission.array.argv;
  array = {"sbatch",
           "--parsable",
           "--job-name=cudiff-fuzz",
           "--array=0-" + std::to_string(campaign.shards - 1),
           "--output=" + (dir / "logs" / "shard-%a.out").string(),
           "--requeue"};
  if (request.gpus_per_task && *request.gpus_per_task > 0)
    array.push_back("--gres=gpu:" + std::to_string(*request.gpus_per_task));
  if (request.cpus_per_task && *request.cpus_per_task > 0)
    array.push_back("--cpus-per-task=" + std::to_string(*request.cpus_per_task));
  if (request.time_limit) {
    array.push_back("--time=" + *request.time_limit);
  } else if (request.fuzz_time_budget > 0 && !sets_time_limit(request.sbatch_flags)) {
    // The budget, plus time for the batches in flight, reductions and the copy out.
    array.push_back("--time=" + std::to_string(static_cast<long>(std::ceil(request.fuzz_time_budget / 60)) + 30));
  }
  auto& merge = submission.merge.argv;
  merge = {"sbatch",
           "--parsable",
           "--job-name=cudiff-merge",
           "--dependency=afterany:ARRAY_JOB",
           "--kill-on-invalid-dep=yes",
           "--output=" + (dir / "logs" / "merge.out").string(),
           "--time=60"};
  if (request.partition) {
    array.push_back("--partition=" + *request.partition);
    merge.push_back("--partition=" + *request.partition);
  }
  for (const std::string& flag : request.sbatch_flags) {
    array.push_back(flag);
    merge.push_back(flag);
  }
  for (const std::string& part : {(dir / "campaign.sbatch").string(), request.cudiff.string(), dir.string()})
    array.push_back(part);
  for (const std::string& part :
       {(dir / "merge.sbatch").string(), request.cudiff.string(), dir.string(), std::to_string(campaign.shards)})
    merge.push_back(part);
  return submission;
}

SlurmCampaign submit_slurm_campaign(const SlurmSubmitRequest& request) {
  SlurmCampaign campaign = request.campaign;
  SlurmSubmission submission = slurm_submission(request);
  const auto sbatch = find_on_path("sbatch");
  if (!sbatch) throw_environment("sbatch not found on PATH: run cudiff slurm submit where Slurm's commands are");
  write_directory(campaign, request.fuzz_options);
  campaign.array_job = submit(submission.array, *sbatch, "array job");
  for (std::string& part : submission.merge.argv)
    if (part == "--dependency=afterany:ARRAY_JOB") part = "--dependency=afterany:" + campaign.array_job;
  try {
    campaign.merge_job = submit(submission.merge, *sbatch, "merge job");
  } catch (const Error& error) {
    throw_environment(std::string(error.what()) + "; the array job " + campaign.array_job + " runs: submit " +
                      (campaign.directory / "merge.sbatch").string() +
                      " with --dependency=afterany:" + campaign.array_job + ", or scancel " + campaign.array_job);
  }
  write_file(campaign.directory / "jobs.json", pretty_json(to_json(campaign)));
  return campaign;
}

} // namespace cudiff::campaign
