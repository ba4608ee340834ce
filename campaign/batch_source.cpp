// campaign: the batch source — which seeds each worker checks next, shards and resumed
// campaigns included — and the background reducer that works through the new bugs, most
// important first.
#include "campaign/loop_parts.h"

#include <algorithm>

namespace cudiff::campaign {

BatchSource::BatchSource(const FuzzParams& params, std::set<std::uint64_t> done, std::function<double()> elapsed,
                         std::function<double()> time_limit)
    : params_(params), done_(std::move(done)), elapsed_(std::move(elapsed)), time_limit_(std::move(time_limit)) {}

std::vector<std::uint64_t> BatchSource::take() {
  std::lock_guard lock(mutex_);
  while (!stopping_) {
    if (params_.time_budget > 0 && elapsed_() >= (time_limit_ ? time_limit_() : params_.time_budget)) break;
    const std::uint64_t start = shard_batch_start(params_, next_);
    const std::uint64_t end_limit = params_.tests ? params_.first_seed + *params_.tests : ~0ull;
    if (start >= end_limit) break;
    ++next_;
    std::vector<std::uint64_t> seeds;
    for (std::uint64_t seed = start; seed < std::min(start + params_.batch, end_limit); ++seed)
      if (!done_.count(seed)) seeds.push_back(seed);
    if (!seeds.empty()) return seeds;
  }
  stopping_ = true;
  return {};
}

void BatchSource::stop() {
  std::lock_guard lock(mutex_);
  stopping_ = true;
}

BackgroundReducer::BackgroundReducer(Reduce reduce, bool start_now)
    : reduce_(std::move(reduce)), started_(start_now), thread_([this] { loop(); }) {}

BackgroundReducer::~BackgroundReducer() {
  hold();  // an early end (an error) waits for the reduction under way only
  finish();
}

void BackgroundReducer::add(ReductionItem item) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back({std::move(item), added_++});
  }
  wake_.notify_one();
}

void BackgroundReducer::start() {
  {
    std::lock_guard lock(mutex_);
    started_ = true;
  }
  wake_.notify_one();
}

void BackgroundReducer::hold() {
  {
    std::lock_guard lock(mutex_);
    held_ = true;
  }
  wake_.notify_one();
  idle_.notify_all();
}

std::size_t BackgroundReducer::pending() const {
  std::lock_guard lock(mutex_);
  return queue_.size() + (current_ ? 1 : 0);
}

std::size_t BackgroundReducer::waiting() const {
  std::lock_guard lock(mutex_);
  return queue_.size();
}

bool BackgroundReducer::wait_idle(double seconds) {
  std::unique_lock lock(mutex_);
  return idle_.wait_for(lock, std::chrono::duration<double>(seconds),
                        [&] { return !current_ && (queue_.empty() || !taking()); });
}

std::string BackgroundReducer::status() const {
  std::lock_guard lock(mutex_);
  if (!current_) return queue_.empty() ? "done" : std::to_string(queue_.size()) + " queued";
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - current_since_).count();
  return "bucket " + current_->key.substr(0, 12) + " (" + (current_->what.empty() ? "" : current_->what + "; ") +
         std::to_string(done_.size() + 1) + " of " + std::to_string(done_.size() + 1 + queue_.size()) + "), " +
         format_seconds(seconds);
}

std::vector<ReductionDone> BackgroundReducer::take_done() {
  std::lock_guard lock(mutex_);
  std::vector<ReductionDone> fresh(done_.begin() + static_cast<std::ptrdiff_t>(taken_done_), done_.end());
  taken_done_ = done_.size();
  return fresh;
}

std::vector<ReductionItem> BackgroundReducer::queued() const {
  std::lock_guard lock(mutex_);
  std::vector<Entry> entries = queue_;
  std::ranges::sort(entries, [](const Entry& a, const Entry& b) {
    if (reduced_before(a.item, b.item)) return true;
    if (reduced_before(b.item, a.item)) return false;
    return a.order < b.order;
  });
  std::vector<ReductionItem> items;
  for (Entry& entry : entries) items.push_back(std::move(entry.item));
  return items;
}

std::vector<ReductionDone> BackgroundReducer::finish() {
  {
    std::lock_guard lock(mutex_);
    closing_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
  std::lock_guard lock(mutex_);
  return done_;
}

std::vector<BackgroundReducer::Entry>::iterator BackgroundReducer::next() {
  return std::ranges::min_element(queue_, [](const Entry& a, const Entry& b) {
    if (reduced_before(a.item, b.item)) return true;
    if (reduced_before(b.item, a.item)) return false;
    return a.order < b.order;
  });
}

void BackgroundReducer::loop() {
  for (;;) {
    ReductionItem item;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return closing_ || (taking() && !queue_.empty()); });
      if (!taking() || queue_.empty()) return;  // closing, with nothing it may take
      const auto first = next();
      item = first->item;
      queue_.erase(first);
      current_ = item;
      current_since_ = std::chrono::steady_clock::now();
    }
    ReductionDone done = reduce_(item);
    if (done.key.empty()) done.key = item.key;
    {
      std::lock_guard lock(mutex_);
      done_.push_back(std::move(done));
      current_.reset();
    }
    idle_.notify_all();
  }
}

} // namespace cudiff::campaign
