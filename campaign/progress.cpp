// campaign: progress — the campaign's live line — tests, rates, findings, how busy the workers and
// the GPUs are, and the time left.
#include "campaign/campaign.h"

#include <chrono>
#include <cstdio>

namespace cudiff::campaign {
namespace {

double monotonic_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string percent(double share) {
  char text[16];
  std::snprintf(text, sizeof text, "%.0f%%", 100.0 * std::min(1.0, std::max(0.0, share)));
  return text;
}

std::string rate(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", value);
  return text;
}

} // namespace

FuzzProgress::FuzzProgress(std::uint64_t done_before, double elapsed_before, std::optional<std::uint64_t> target,
                           double time_budget, std::size_t gpus, std::size_t workers)
    : done_before_(done_before), elapsed_before_(elapsed_before), target_(target), time_budget_(time_budget),
      gpus_(gpus), workers_(workers), started_(monotonic_seconds()) {}

void FuzzProgress::add(const BatchOutcome& outcome, std::size_t findings, std::size_t new_buckets) {
  tests_ += outcome.seeds.size();
  compiles_ += outcome.compiles;
  busy_seconds_ += outcome.seconds;
  gpu_seconds_ += outcome.gpu_seconds;
  findings_ += findings;
  new_buckets_ += new_buckets;
}

double FuzzProgress::elapsed() const { return elapsed_before_ + monotonic_seconds() - started_; }
std::uint64_t FuzzProgress::tests() const { return done_before_ + tests_; }

void ActivityBoard::set(std::size_t worker, std::string what) {
  std::lock_guard lock(mutex_);
  if (worker < doing_.size()) doing_[worker] = std::move(what);
}

std::string ActivityBoard::summary() const {
  std::lock_guard lock(mutex_);
  // Plain checks are the normal state and only counted; the rest (isolation, attribution, an
  // edge program) are the slow paths a person wants named.
  std::size_t checking = 0, idle = 0;
  std::vector<std::string> named;
  for (const std::string& what : doing_) {
    if (what.empty()) ++idle;
    else if (what.starts_with("checking batch")) ++checking;
    else named.push_back(what);
  }
  std::vector<std::string> parts;
  if (checking > 0) parts.push_back(std::to_string(checking) + " checking");
  const std::size_t shown = std::min<std::size_t>(named.size(), 3);
  for (std::size_t i = 0; i < shown; ++i) parts.push_back(named[i]);
  if (named.size() > shown) parts.push_back(std::to_string(named.size() - shown) + " more");
  if (idle > 0 && idle < doing_.size()) parts.push_back(std::to_string(idle) + " done");
  return join(parts, ", ");
}

std::string FuzzProgress::line(const std::string& activity) const {
  const double session = std::max(1e-9, monotonic_seconds() - started_);
  const double tests_per_second = static_cast<double>(tests_) / session;
  std::string text = "tests " + std::to_string(tests());
  double left = -1;
  if (target_) {
    text += "/" + std::to_string(*target_) + " (" +
            percent(static_cast<double>(tests()) / static_cast<double>(*target_)) + ")";
    if (tests_per_second > 0) left = static_cast<double>(*target_ - std::min(*target_, tests())) / tests_per_second;
  }
  if (time_budget_ > 0) {
    const double by_time = std::max(0.0, time_budget_ - elapsed());
    left = left < 0 ? by_time : std::min(left, by_time);
  }
  text += ", " + rate(tests_per_second) + " tests/s, " + rate(static_cast<double>(compiles_) / session) + " compiles/s";
  text += ", findings " + std::to_string(findings_) + " (" + std::to_string(new_buckets_) + " new bucket" +
          (new_buckets_ == 1 ? "" : "s") + ")";
  // Busy: the share of the workers' wall time spent inside a batch.
  text += ", workers busy " + percent(busy_seconds_ / (session * static_cast<double>(workers_)));
  // GPU busy: run time over the wall time of all the campaign's GPUs together.
  text += gpus_ == 0 ? ", compile-only (no GPU)"
                     : ", GPU busy " + percent(gpu_seconds_ / (session * static_cast<double>(gpus_)));
  text += left >= 0 ? ", ETA " + format_seconds(left) : "";
  if (!activity.empty()) text += "; now: " + activity;
  return text;
}

} // namespace cudiff::campaign
