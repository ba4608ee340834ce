// campaign: Slurm status — where a Slurm campaign stands (squeue for the jobs, the campaign
// directory for the shards copied out and the merge's status) and, once merged, what it found.
#include "campaign/slurm.h"
#include "pipeline/limits.h"

#include <chrono>
#include <ostream>
#include <thread>

namespace cudiff::campaign {
namespace {

/// The jobs' tasks still in the queue, by state.
struct QueueState {
  std::uint64_t pending = 0, running = 0, other = 0;  ///< array tasks
  std::string merge;  ///< the merge job's state; empty once it left the queue
  bool empty() const { return pending + running + other == 0 && merge.empty(); }
};

/// squeue, one line per array task. A job Slurm has forgotten (MinJobAge after it ended) is
/// "Invalid job id", which means: not in the queue.
QueueState read_queue(const SlurmCampaign& campaign) {
  const auto squeue = find_on_path("squeue");
  if (!squeue) throw_environment("squeue not found on PATH: run this where Slurm's commands are");
  runners::Command command;
  command.argv = {squeue->string(), "--noheader", "--array", "--jobs=" + campaign.array_job + "," + campaign.merge_job,
                  "--format=%i %T"};
  command.limits.wall_seconds = pipeline::kSlurmQuerySeconds;
  QueueState state;
  for (int attempt = 0;; ++attempt) {
    const runners::SubprocessResult result = runners::run_subprocess(command);
    if (result.exited_zero()) {
      for (const std::string& line : split_lines(result.out.text)) {
        const auto fields = split(trim(line), ' ');
        if (fields.size() < 2) continue;
        const std::string& id = fields[0];
        const std::string& status = fields.back();
        if (id == campaign.merge_job) state.merge = status;
        else if (status == "PENDING") ++state.pending;
        else if (status == "RUNNING" || status == "COMPLETING") ++state.running;
        else ++state.other;
      }
      return state;
    }
    if (result.err.text.find("Invalid job id") != std::string::npos) return state;
    // The controller can be busy for a moment: a few tries before giving up.
    if (attempt == 4)
      throw_environment("squeue failed (" + result.status_text() + "): " + std::string(trim(result.err.text)));
    std::this_thread::sleep_for(std::chrono::seconds(2));
  }
}

std::uint64_t shards_copied(const SlurmCampaign& campaign) {
  std::uint64_t copied = 0;
  for (std::uint64_t i = 0; i < campaign.shards; ++i) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(campaign.directory / "shards" / ("shard-" + std::to_string(i) + ".db"), ec))
      ++copied;
  }
  return copied;
}

/// The merge job's exit status from DIR/merge.status; nothing before it ended.
std::optional<int> merge_status(const SlurmCampaign& campaign) {
  std::error_code ec;
  if (!std::filesystem::exists(campaign.directory / "merge.status", ec)) return std::nullopt;
  const std::string text(trim(read_file(campaign.directory / "merge.status")));
  try {
    return std::stoi(text);
  } catch (const std::exception&) {
    return 2;
  }
}

std::string progress_line(const SlurmCampaign& campaign, const QueueState& queue, double seconds) {
  return "shards: " + std::to_string(queue.running) + " running, " + std::to_string(queue.pending) + " pending, " +
         std::to_string(shards_copied(campaign)) + "/" + std::to_string(campaign.shards) +
         " copied out; merge: " + (queue.merge.empty() ? "done" : queue.merge) + "; " + format_seconds(seconds);
}

} // namespace

boost::json::object to_json(const SlurmCampaign& campaign) {
  return {{"directory", campaign.directory.string()},
          {"array_job", campaign.array_job},
          {"merge_job", campaign.merge_job},
          {"shards", campaign.shards}};
}

SlurmCampaign read_slurm_campaign(const std::filesystem::path& directory) {
  const std::filesystem::path jobs = directory / "jobs.json";
  std::error_code ec;
  if (!std::filesystem::is_regular_file(jobs, ec))
    throw_usage(directory.string() + " holds no campaign submitted with cudiff slurm submit (no jobs.json)");
  try {
    const auto json = boost::json::parse(read_file(jobs)).as_object();
    SlurmCampaign campaign;
    campaign.directory = std::filesystem::absolute(directory).lexically_normal();
    campaign.array_job = std::string(json.at("array_job").as_string());
    campaign.merge_job = std::string(json.at("merge_job").as_string());
    campaign.shards = boost::json::value_to<std::uint64_t>(json.at("shards"));
    return campaign;
  } catch (const Error&) {
    throw;
  } catch (const std::exception& error) {
    throw_environment(jobs.string() + " is damaged (" + error.what() + ")");
  }
}

std::string SlurmStatus::merge_state() const {
  if (!merge_queue_state.empty()) return merge_queue_state;
  return merge_status ? "ended" : "gone";
}

SlurmStatus slurm_status(const SlurmCampaign& campaign) {
  SlurmStatus status;
  status.campaign = campaign;
  const QueueState queue = read_queue(campaign);
  status.pending = queue.pending;
  status.running = queue.running;
  status.other = queue.other;
  status.merge_queue_state = queue.merge;
  status.copied_out = shards_copied(campaign);
  status.merge_status = merge_status(campaign);
  std::error_code ec;
  if (status.merge_status && std::filesystem::exists(status.database(), ec)) {
    // Read-only: the merged file sits on the shared filesystem, in rollback-journal mode.
    const triage::Database db = triage::Database::open(status.database(),
                                                       triage::OpenOptions{.create = false, .read_only = true});
    status.totals = db.totals();
    triage::BucketQuery fresh;
    fresh.status = triage::Status::fresh;
    status.new_buckets = static_cast<std::int64_t>(db.buckets(fresh).size());
    for (const auto& stored : db.campaigns())
      if (stored.kind == "fuzz") status.merged = stored;
  }
  return status;
}

SlurmStatus wait_for_slurm_campaign(const SlurmCampaign& campaign, double poll_seconds, std::ostream& err) {
  const auto started = std::chrono::steady_clock::now();
  std::string last_state;
  double last_printed = 0;
  for (;;) {
    const QueueState queue = read_queue(campaign);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (queue.empty()) break;
    // A line when something changed, else once a minute: a log, not a flood.
    const std::string line = progress_line(campaign, queue, seconds);
    const std::string state = line.substr(0, line.rfind(';'));
    if (state != last_state || seconds - last_printed >= 60) {
      err << line << "\n" << std::flush;
      last_state = state;
      last_printed = seconds;
    }
    std::this_thread::sleep_for(std::chrono::duration<double>(poll_seconds));
  }
  return slurm_status(campaign);
}

} // namespace cudiff::campaign
