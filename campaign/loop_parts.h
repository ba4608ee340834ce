// campaign: what the loop's threads share — the batches handed to workers, new buckets reduced
// alongside, a bucket's reduction in a child process, the cores to use. Internal to campaign/.
#pragma once

#include "campaign/params.h"

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <functional>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace cudiff::campaign {

/// Hands out batches of untested seeds: batch b is seeds [first + bK, first + (b+1)K), less
/// those already committed (a resumed campaign), up to the campaign's end; a shard takes the
/// campaign's batches b = index, index + count, ... Safe to call from every worker.
class BatchSource {
public:
  /// `elapsed` says how long the campaign has run (for its time budget).
  BatchSource(const FuzzParams& params, std::set<std::uint64_t> done, std::function<double()> elapsed);
  /// The next batch, or nothing when the campaign is over (or stopping).
  std::vector<std::uint64_t> take();
  void stop();

private:
  const FuzzParams& params_;
  std::set<std::uint64_t> done_;
  std::function<double()> elapsed_;
  std::mutex mutex_;
  std::uint64_t next_ = 0;
  bool stopping_ = false;
};

/// New buckets reduced one at a time on a thread of its own while the campaign goes on
/// (--reduce-in-parallel). `reduce` does one bucket and returns the line to print.
class BackgroundReducer {
public:
  using Reduce = std::function<std::string(const std::string& key)>;
  explicit BackgroundReducer(Reduce reduce);
  ~BackgroundReducer();
  BackgroundReducer(const BackgroundReducer&) = delete;
  BackgroundReducer& operator=(const BackgroundReducer&) = delete;
  void add(const std::string& key);
  /// Buckets queued or being reduced.
  std::size_t pending() const;
  /// Waits up to `seconds` for the queue to empty; true when nothing is left to reduce.
  bool wait_idle(double seconds);
  /// "bucket 1a2b3c4d5e6f (2 of 3), 1m10s": what is being reduced now, for a progress line.
  std::string status() const;
  /// Waits for the reductions still queued; returns their lines, in the order they finished.
  std::vector<std::string> finish();

private:
  void loop();
  Reduce reduce_;
  mutable std::mutex mutex_;
  std::condition_variable idle_;
  std::string current_;
  std::size_t added_ = 0;
  std::chrono::steady_clock::time_point current_since_;
  std::condition_variable wake_;
  std::deque<std::string> keys_;
  std::vector<std::string> lines_;
  bool closing_ = false;
  std::thread thread_;
};

/// The bucket's reproducer reduced by `cudiff triage reduce KEY --db DB --jobs N` in a child
/// process (pipeline::kBucketReductionSeconds at most, and stopped at `deadline`), so a
/// reduction that fails or is killed costs that bucket's reduction only. Returns the line to
/// print.
std::string
reduce_bucket_in_child(const std::filesystem::path& db_path, const std::string& key, std::size_t jobs,
                       std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max());

/// The cores this process may use: its CPU affinity, capped by SLURM_CPUS_PER_TASK.
std::size_t usable_cores();

} // namespace cudiff::campaign
