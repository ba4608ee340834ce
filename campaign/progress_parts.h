// campaign: a campaign's progress — the live line, the end summary's figures, how busy each GPU
// was, and what every worker is doing. Internal to campaign/.
#pragma once

#include "campaign/batch_parts.h"
#include "campaign/fuzz.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace cudiff::campaign {

/// The wall time during which at least one of a set of spans was open: how long a GPU had a
/// binary running, however many ran at once. Spans come in any order (batches finish out of
/// order) and are merged as they come; merged spans that ended more than kFoldSeconds before the
/// latest one are folded into a total, so a long campaign keeps a bounded set. A span reported
/// later than that (a batch over an hour long) could count time twice; no batch runs that long
/// under the compile and run limits.
class BusyTime {
public:
  static constexpr double kFoldSeconds = 3600;
  void add(double start, double end);
  double seconds() const;

private:
  std::map<double, double> merged_;  ///< start -> end, disjoint, not yet folded
  double folded_ = 0, latest_ = 0;
};

/// The live line and the end summary's figures.
class FuzzProgress {
public:
  /// `gpus`: how many GPUs run binaries (0: compile-only).
  FuzzProgress(std::uint64_t done_before, double elapsed_before, std::optional<std::uint64_t> target,
               double time_budget, std::size_t gpus, std::size_t workers);
  void add(const BatchOutcome& outcome, std::size_t findings, std::size_t new_buckets);
  /// "tests 96/500 (19%), 3.1 tests/s, 0.8 compiles/s, findings 2 (1 new bucket), workers busy 97%,
  /// GPU busy 12%, ETA 2m10s"; with several GPUs each one's share follows ("GPU busy 12% (0: 14%,
  /// 1: 10%)"); compile-only campaigns (no GPUs) say so. A GPU is busy while at least one binary
  /// runs on it.
  /// `activity`, when given, ends the line: what the workers are doing ("; now: ...").
  std::string line(const std::string& activity = "") const;
  double elapsed() const;
  std::uint64_t tests() const;
  std::uint64_t findings() const { return findings_; }
  std::uint64_t new_buckets() const { return new_buckets_; }
  /// GPU `gpu`'s batches, runs and busy time so far (GpuShare::gpu and executor left empty).
  GpuShare gpu_share(std::size_t gpu) const;
  /// Seconds since this start (the tests' time, when called as they end).
  double session_seconds() const;
  /// The line's ETA: the seconds the tests still take at this start's rate (a --tests
  /// campaign) or until the time budget; negative when not known yet.
  double seconds_left() const;

private:
  struct GpuUse {
    std::uint64_t batches = 0, runs = 0;
    double run_seconds = 0;
    BusyTime busy;
  };
  std::uint64_t done_before_, tests_ = 0, compiles_ = 0, findings_ = 0, new_buckets_ = 0;
  double elapsed_before_, busy_seconds_ = 0;
  std::vector<GpuUse> gpu_use_;
  std::optional<std::uint64_t> target_;
  double time_budget_;
  std::size_t workers_;
  double started_;
};

/// What every worker is doing, gathered for the progress line. Thread-safe.
class ActivityBoard {
public:
  explicit ActivityBoard(std::size_t workers) : doing_(workers) {}
  void set(std::size_t worker, std::string what);
  /// The workers' activities, alike ones counted: "6 checking, isolating batch 1040: 4 seeds".
  std::string summary() const;

private:
  mutable std::mutex mutex_;
  std::vector<std::string> doing_;
};

} // namespace cudiff::campaign
