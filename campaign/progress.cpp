// campaign: progress — the campaign's live line — tests, rates, findings, how busy the workers and
// the GPUs are, and the time left.
#include "campaign/progress_parts.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iterator>

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

void BusyTime::add(double start, double end) {
  if (!(end > start)) return;
  auto next = merged_.upper_bound(start);
  if (next != merged_.begin()) {
    const auto before = std::prev(next);
    if (before->second >= start) {  // overlaps or touches the span before it
      start = before->first;
      end = std::max(end, before->second);
      merged_.erase(before);
    }
  }
  while (next != merged_.end() && next->first <= end) {
    end = std::max(end, next->second);
    next = merged_.erase(next);
  }
  merged_.emplace(start, end);
  latest_ = std::max(latest_, end);
  while (!merged_.empty() && merged_.begin()->second < latest_ - kFoldSeconds) {
    folded_ += merged_.begin()->second - merged_.begin()->first;
    merged_.erase(merged_.begin());
  }
}

double BusyTime::seconds() const {
  double total = folded_;
  for (const auto& [start, end] : merged_) total += end - start;
  return total;
}

FuzzProgress::FuzzProgress(std::uint64_t done_before, double elapsed_before, std::optional<std::uint64_t> target,
                           double time_budget, std::size_t gpus, std::size_t workers)
    : done_before_(done_before), elapsed_before_(elapsed_before), gpu_use_(gpus), target_(target),
      time_budget_(time_budget), workers_(workers), started_(monotonic_seconds()) {}

void FuzzProgress::add(const BatchOutcome& outcome, std::size_t findings, std::size_t new_buckets) {
  tests_ += outcome.seeds.size();
  compiles_ += outcome.compiles;
  busy_seconds_ += outcome.seconds;
  if (outcome.gpu < gpu_use_.size()) {
    GpuUse& use = gpu_use_[outcome.gpu];
    ++use.batches;
    use.runs += outcome.runs.size();
    for (const RunSpan& span : outcome.runs) {
      use.run_seconds += span.end - span.start;
      use.busy.add(span.start, span.end);
    }
  }
  findings_ += findings;
  new_buckets_ += new_buckets;
}

double FuzzProgress::session_seconds() const { return std::max(1e-9, monotonic_seconds() - started_); }

GpuShare FuzzProgress::gpu_share(std::size_t gpu) const {
  GpuShare share;
  if (gpu >= gpu_use_.size()) return share;
  const GpuUse& use = gpu_use_[gpu];
  share.batches = use.batches;
  share.runs = use.runs;
  share.run_seconds = use.run_seconds;
  share.busy_seconds = use.busy.seconds();
  share.busy = std::min(1.0, share.busy_seconds / session_seconds());
  return share;
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

double FuzzProgress::seconds_left() const {
  const double tests_per_second = static_cast<double>(tests_) / session_seconds();
  double left = -1;
  if (target_ && tests_per_second > 0)
    left = static_cast<double>(*target_ - std::min(*target_, tests())) / tests_per_second;
  if (time_budget_ > 0) {
    const double by_time = std::max(0.0, time_budget_ - elapsed());
    left = left < 0 ? by_time : std::min(left, by_time);
  }
  return left;
}

std::string FuzzProgress::line(const std::string& activity) const {
  const double session = session_seconds();
  const double tests_per_second = static_cast<double>(tests_) / session;
  std::string text = "tests " + std::to_string(tests());
  if (target_)
    text += "/" + std::to_string(*target_) + " (" +
            percent(static_cast<double>(tests()) / static_cast<double>(*target_)) + ")";
  const double left = seconds_left();
  text += ", " + rate(tests_per_second) + " tests/s, " + rate(static_cast<double>(compiles_) / session) + " compiles/s";
  text += ", findings " + std::to_string(findings_) + " (" + std::to_string(new_buckets_) + " new bucket" +
          (new_buckets_ == 1 ? "" : "s") + ")";
  // Busy: the share of the workers' wall time spent inside a batch.
  text += ", workers busy " + percent(busy_seconds_ / (session * static_cast<double>(workers_)));
  // GPU busy: the time a GPU had at least one binary running, over the wall time; with several
  // GPUs their mean, then each one's (an idle GPU shows a campaign that leaves it no work).
  if (gpu_use_.empty()) {
    text += ", compile-only (no GPU)";
  } else {
    double sum = 0;
    std::vector<std::string> each;
    for (std::size_t gpu = 0; gpu < gpu_use_.size(); ++gpu) {
      const double busy = gpu_share(gpu).busy;
      sum += busy;
      each.push_back(std::to_string(gpu) + ": " + percent(busy));
    }
    text += ", GPU busy " + percent(sum / static_cast<double>(gpu_use_.size()));
    if (gpu_use_.size() > 1) text += " (" + join(each, ", ") + ")";
  }
  text += left >= 0 ? ", ETA " + format_seconds(left) : "";
  if (!activity.empty()) text += "; now: " + activity;
  return text;
}

} // namespace cudiff::campaign
