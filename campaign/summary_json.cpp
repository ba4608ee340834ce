// campaign: a campaign's summary as JSON (`cudiff fuzz --json`): its counts and rate, what the
// executors did, each GPU's share; a Slurm campaign's status (`cudiff slurm status --json`).
#include "campaign/campaign.h"

namespace cudiff::campaign {
namespace {

boost::json::value executor_json(const std::optional<runners::ExecutorStats>& stats) {
  if (!stats) return nullptr;
  return runners::to_json(*stats);
}

boost::json::array strings_json(const std::vector<std::string>& strings) {
  boost::json::array list;
  for (const auto& text : strings) list.push_back(boost::json::string(text));
  return list;
}

/// Each GPU's share: [{"index", "name", "batches", "runs", "run_seconds", "busy_seconds",
/// "busy", "executor"}].
boost::json::array gpus_json(const std::vector<GpuShare>& gpus) {
  boost::json::array list;
  for (const GpuShare& share : gpus)
    list.push_back(boost::json::object{{"index", share.gpu.index},
                                       {"name", share.gpu.describe()},
                                       {"batches", share.batches},
                                       {"runs", share.runs},
                                       {"run_seconds", share.run_seconds},
                                       {"busy_seconds", share.busy_seconds},
                                       {"busy", share.busy},
                                       {"executor", executor_json(share.executor)}});
  return list;
}

/// The reductions: their share and jobs, how many were queued, ended and left, their window
/// and time after the tests, and each one's line.
boost::json::object reductions_json(const CampaignSummary& summary) {
  const ReductionSummary& reduction = summary.reduction;
  return {{"share", reduction.share},
          {"alongside_jobs", reduction.alongside_jobs},
          {"after_jobs", reduction.after_jobs},
          {"queued", reduction.queued},
          {"not_reduced_by_default", reduction.not_queued},
          {"already_small", reduction.small},
          {"ended", reduction.ended},
          {"left", summary.unreduced.size()},
          {"window_seconds", reduction.window},
          {"seconds", reduction.seconds},
          {"lines", strings_json(summary.reductions)}};
}

boost::json::array avoided_json(const FuzzParams& params) {
  boost::json::array rules;
  for (const triage::AvoidRule& rule : params.avoided) rules.push_back(triage::to_json(rule));
  return rules;
}

} // namespace

boost::json::object to_json(const CampaignSummary& summary) {
  const double seconds = summary.seconds;
  return {{"campaign", summary.campaign_id},
          {"name", summary.params.name},
          {"shard", summary.params.shard.text()},
          {"database", summary.db_path.string()},
          {"tests", summary.tests},
          {"findings", summary.findings},
          {"invalid_tests", summary.invalid_tests},
          {"new_buckets", strings_json(summary.new_buckets)},
          {"bugs", triage::to_json(summary.bugs)},
          {"seconds", seconds},
          {"tests_per_second", seconds > 0 ? static_cast<double>(summary.tests) / seconds : 0.0},
          {"programs", summary.tests * static_cast<std::int64_t>(1 + summary.params.variants)},
          {"compile_only", summary.compile_only},
          {"dropped_batches", summary.dropped_batches},
          {"unreduced", strings_json(summary.unreduced)},
          {"reductions", reductions_json(summary)},
          {"executor", executor_json(summary.executor)},
          {"gpus", gpus_json(summary.gpus)},
          {"notes", strings_json(summary.notes)},
          {"avoided", avoided_json(summary.params)},
          {"rediscover", summary.params.rediscover},
          {"report", summary.report.string()}};
}

boost::json::object to_json(const SlurmStatus& status) {
  boost::json::object result = to_json(status.campaign);
  result["tasks_pending"] = status.pending;
  result["tasks_running"] = status.running;
  result["shards_copied"] = status.copied_out;
  result["merge_state"] = status.merge_state();
  if (status.merge_status) result["merge_status"] = *status.merge_status;
  std::error_code ec;
  if (status.merge_status && std::filesystem::exists(status.database(), ec)) {
    result["database"] = status.database().string();
    result["report"] = status.report().string();
    result["tests"] = status.merged ? status.merged->tests : 0;
    result["findings"] = status.totals.findings;
    result["buckets"] = status.totals.buckets;
    result["new_buckets"] = status.new_buckets;
  }
  return result;
}

} // namespace cudiff::campaign
