// pipeline: what a reduction's interestingness test spends, step by step (a cheap first build,
// the other configs, the sanitizer, ...): how many candidates reached each step, how many
// passed it and the seconds it took, summed over the threads that test at once. Printed at the
// end of a reduction stage, it says which step to make cheaper. Internal to pipeline/.
#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <stop_token>
#include <string>

namespace cudiff::pipeline {

class TestCosts {
public:
  /// Runs `step` (returning whether the candidate passed it), timing it under `name`. A step
  /// that `unused` was requested for meanwhile (its test's answer will not be read: the step
  /// may have been cut short) is not counted, and does not pass.
  template <class Step>
  bool time(const std::string& name, Step&& step, std::stop_token unused = {}) {
    const auto start = std::chrono::steady_clock::now();
    const bool passed = step();
    if (unused.stop_requested()) return false;
    add(name, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), passed);
    return passed;
  }
  void add(const std::string& name, double seconds, bool passed);
  /// "first config 120 x 4.1 s (31 passed), sanitizer 31 x 8.4 s (30 passed), ..." (the mean per
  /// run), in the order the steps were first reached; "" when nothing was timed.
  std::string summary() const;

private:
  struct Step {
    std::size_t order = 0, runs = 0, passed = 0;
    double seconds = 0;
  };
  mutable std::mutex mutex_;
  std::map<std::string, Step> steps_;
};

/// Shared by the copies of a test (the reducer copies it into a std::function).
using SharedTestCosts = std::shared_ptr<TestCosts>;

} // namespace cudiff::pipeline
