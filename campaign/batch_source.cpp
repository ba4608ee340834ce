// campaign: the batch source — which seeds each worker checks next, shards and resumed
// campaigns included — and the background reducer that works through new buckets meanwhile.
#include "campaign/loop_parts.h"

namespace cudiff::campaign {

BatchSource::BatchSource(const FuzzParams& params, std::set<std::uint64_t> done, std::function<double()> elapsed)
    : params_(params), done_(std::move(done)), elapsed_(std::move(elapsed)) {}

std::vector<std::uint64_t> BatchSource::take() {
  std::lock_guard lock(mutex_);
  while (!stopping_) {
    if (params_.time_budget > 0 && elapsed_() >= params_.time_budget) break;
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

BackgroundReducer::BackgroundReducer(Reduce reduce) : reduce_(std::move(reduce)), thread_([this] { loop(); }) {}

BackgroundReducer::~BackgroundReducer() { finish(); }

void BackgroundReducer::add(const std::string& key) {
  {
    std::lock_guard lock(mutex_);
    keys_.push_back(key);
    ++added_;
  }
  wake_.notify_one();
}

std::size_t BackgroundReducer::pending() const {
  std::lock_guard lock(mutex_);
  return keys_.size() + (current_.empty() ? 0 : 1);
}

bool BackgroundReducer::wait_idle(double seconds) {
  std::unique_lock lock(mutex_);
  return idle_.wait_for(lock, std::chrono::duration<double>(seconds),
                        [&] { return keys_.empty() && current_.empty(); });
}

std::string BackgroundReducer::status() const {
  std::lock_guard lock(mutex_);
  if (current_.empty()) return keys_.empty() ? "done" : std::to_string(keys_.size()) + " queued";
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - current_since_).count();
  return "bucket " + current_.substr(0, 12) + " (" + std::to_string(lines_.size() + 1) + " of " +
         std::to_string(added_) + "), " + format_seconds(seconds);
}

std::vector<std::string> BackgroundReducer::finish() {
  {
    std::lock_guard lock(mutex_);
    closing_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
  return lines_;
}

void BackgroundReducer::loop() {
  for (;;) {
    std::string key;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return closing_ || !keys_.empty(); });
      if (keys_.empty()) return;
      key = keys_.front();
      keys_.pop_front();
      current_ = key;
      current_since_ = std::chrono::steady_clock::now();
    }
    std::string line = reduce_(key);
    {
      std::lock_guard lock(mutex_);
      lines_.push_back(std::move(line));
      current_.clear();
    }
    idle_.notify_all();
  }
}

} // namespace cudiff::campaign
