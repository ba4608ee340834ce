// runners: what the executors did (ExecutorStats), as JSON and in words (`cudiff fuzz`'s summary).
#include "runners/runners.h"

#include <cstdio>

namespace cudiff::runners {

boost::json::value to_json(const ExecutorStats& stats) {
  boost::json::object reasons;
  for (const auto& [reason, count] : stats.fallback_reasons) reasons[reason] = count;
  return boost::json::object{{"runs", stats.runs},
                             {"ran_as_processes", stats.fallbacks},
                             {"fallback_reasons", std::move(reasons)},
                             {"executors_started", stats.starts},
                             {"executors_lost", stats.lost},
                             {"executor_start_failures", stats.failed_starts},
                             {"context_seconds", stats.start_seconds},
                             {"run_seconds", stats.run_seconds}};
}

std::string describe(const ExecutorStats& stats) {
  std::vector<std::string> reasons;
  for (const auto& [reason, count] : stats.fallback_reasons) reasons.push_back(reason + " " + std::to_string(count));
  char each[32];
  std::snprintf(each, sizeof each, "%.1f ms",
                stats.runs > 0 ? 1000 * stats.run_seconds / static_cast<double>(stats.runs) : 0.0);
  return "executor: " + std::to_string(stats.runs) + " runs (" + each + " each), " + std::to_string(stats.fallbacks) +
         " ran as processes" + (reasons.empty() ? "" : " (" + join(reasons, ", ") + ")") + ", " +
         std::to_string(stats.starts) + " executor" + (stats.starts == 1 ? "" : "s") + " started" +
         (stats.failed_starts == 0 ? "" : ", " + std::to_string(stats.failed_starts) + " failed to start") +
         (stats.lost == 0 ? "" : " (" + std::to_string(stats.lost) + " replaced after ending while idle)");
}

} // namespace cudiff::runners
