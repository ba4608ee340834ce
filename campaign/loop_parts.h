// campaign: what the loop's threads share — the batches handed to workers, new bugs reduced in
// order on a thread of their own, a bucket's reduction in a child process, the cores to use.
// Internal to campaign/.
#pragma once

#include "campaign/params.h"
#include "campaign/reductions.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
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
  /// `elapsed` says how long the campaign has run, for its time budget; `time_limit`, when
  /// given, says when no batch starts any more in place of the budget (a --time campaign that
  /// keeps a share of its time for the bugs waiting to be reduced: tests_time_limit).
  BatchSource(const FuzzParams& params, std::set<std::uint64_t> done, std::function<double()> elapsed,
              std::function<double()> time_limit = {});
  /// The next batch, or nothing when the campaign is over (or stopping).
  std::vector<std::uint64_t> take();
  void stop();

private:
  const FuzzParams& params_;
  std::set<std::uint64_t> done_;
  std::function<double()> elapsed_, time_limit_;
  std::mutex mutex_;
  std::uint64_t next_ = 0;
  bool stopping_ = false;
};

/// How one reduction ended.
struct ReductionDone {
  std::string key;
  std::string line;       ///< what to print
  bool finished = true;   ///< false: stopped or not started for want of time; still to do
};

/// New bugs reduced one at a time on a thread of its own, most important first
/// (reduced_before, then the order added), whenever it runs: alongside the tests (started at
/// once), or after them (start() then). `reduce` does one bucket.
class BackgroundReducer {
public:
  using Reduce = std::function<ReductionDone(const ReductionItem& item)>;
  explicit BackgroundReducer(Reduce reduce, bool start_now = true);
  ~BackgroundReducer();
  BackgroundReducer(const BackgroundReducer&) = delete;
  BackgroundReducer& operator=(const BackgroundReducer&) = delete;
  void add(ReductionItem item);
  /// Starts taking items (once): what is queued, then what comes.
  void start();
  /// Takes no more items (for good): the one under way goes on, the rest stay queued.
  void hold();
  /// Items queued or under way.
  std::size_t pending() const;
  /// Items queued and not started.
  std::size_t waiting() const;
  /// Waits up to `seconds` until nothing is under way and nothing more will be taken (the
  /// queue is empty, or held, or not started); true then.
  bool wait_idle(double seconds);
  /// "bucket 1a2b3c4d5e6f (crash; 2 of 3), 1m10s": what is being reduced now, for a progress
  /// line; "3 queued", "done".
  std::string status() const;
  /// The reductions that ended since the last call, in the order they ended.
  std::vector<ReductionDone> take_done();
  /// The items not started, in the order they would be taken.
  std::vector<ReductionItem> queued() const;
  /// Waits for the items it will still take (all of them, unless held or not started) and
  /// for the one under way; returns every reduction that ended, in order.
  std::vector<ReductionDone> finish();

private:
  struct Entry {
    ReductionItem item;
    std::uint64_t order = 0;
  };
  void loop();
  bool taking() const { return started_ && !held_; }
  std::vector<Entry>::iterator next();  // the queue's first, under the lock
  Reduce reduce_;
  mutable std::mutex mutex_;
  std::condition_variable idle_;
  std::condition_variable wake_;
  std::vector<Entry> queue_;
  std::optional<ReductionItem> current_;
  std::chrono::steady_clock::time_point current_since_;
  std::uint64_t added_ = 0;
  std::vector<ReductionDone> done_;
  std::size_t taken_done_ = 0;  ///< done_ entries take_done() has returned
  bool started_ = false, held_ = false, closing_ = false;
  std::thread thread_;
};

/// How reduce_bucket_in_child ended.
struct ChildReduction {
  std::string line;      ///< "reduce 1a2b3c4d5e6f: <the child's last line>"
  bool finished = true;  ///< false: stopped at `deadline` or by `stop`, or at its time limit
};
/// The bucket's reproducer reduced by `cudiff triage reduce KEY --db DB --jobs N
/// [--time-limit S]` in a child process (pipeline::kBucketReductionSeconds at most, and stopped
/// at `deadline` or when `stop` is set), so a reduction that fails or is killed costs that
/// bucket's reduction only. A `time_limit` below kBucketReductionSeconds is the window's: the
/// child stops there and stores what it reduced so far, and the reduction is not finished.
/// `finding`: that sighting of the bucket instead of its best reproducer (`--finding`).
ChildReduction
reduce_bucket_in_child(const std::filesystem::path& db_path, const std::string& key, std::size_t jobs,
                       double time_limit = -1,
                       std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max(),
                       const std::atomic<bool>* stop = nullptr, const std::string& finding = "");

/// The cores this process may use: its CPU affinity, capped by SLURM_CPUS_PER_TASK.
std::size_t usable_cores();

} // namespace cudiff::campaign
