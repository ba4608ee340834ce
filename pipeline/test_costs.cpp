// pipeline: TestCosts (test_costs.h).
#include "pipeline/test_costs.h"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace cudiff::pipeline {

void TestCosts::add(const std::string& name, double seconds, bool passed) {
  const std::lock_guard lock(mutex_);
  auto [step, inserted] = steps_.try_emplace(name);
  if (inserted) step->second.order = steps_.size();
  ++step->second.runs;
  step->second.passed += passed ? 1 : 0;
  step->second.seconds += seconds;
}

std::string TestCosts::summary() const {
  const std::lock_guard lock(mutex_);
  std::vector<std::pair<std::string, Step>> steps(steps_.begin(), steps_.end());
  std::ranges::sort(steps, {}, [](const auto& named) { return named.second.order; });
  std::string out;
  for (const auto& [name, step] : steps) {
    char line[160];
    std::snprintf(line, sizeof line, "%s %zu x %.1f s (%zu passed)", name.c_str(), step.runs,
                  step.seconds / static_cast<double>(std::max<std::size_t>(1, step.runs)), step.passed);
    out += (out.empty() ? "" : ", ") + std::string(line);
  }
  return out;
}

} // namespace cudiff::pipeline
