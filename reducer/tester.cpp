// reducer: the candidate cache and the worker threads that run the interestingness test.
#include "reducer/tester.h"

#include "common/common.h"

namespace cudiff::reducer {

Tester::Tester(Interesting interesting, std::size_t jobs)
    : interesting_(std::move(interesting)), jobs_(std::max<std::size_t>(1, jobs)) {
  if (jobs_ > 1)
    for (std::size_t i = 0; i < jobs_; ++i) workers_.emplace_back([this] { work(); });
}

Tester::~Tester() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& worker : workers_) worker.join();
}

Tester::Handle Tester::submit(std::string candidate) {
  auto ticket = std::make_shared<Ticket>();
  ticket->hash = fnv1a64(candidate);  // common.h: the cache key
  {
    std::lock_guard lock(mutex_);
    if (auto found = known_.find(ticket->hash); found != known_.end()) {
      ++cache_hits_;
      return found->second;
    }
    ticket->candidate = std::move(candidate);
    ticket->answer = ticket->promise.get_future().share();
    known_.emplace(ticket->hash, ticket);
    if (jobs_ > 1) queue_.push_back(ticket);
  }
  if (jobs_ > 1) {
    wake_.notify_one();
  } else {
    {
      std::lock_guard lock(mutex_);
      ticket->started = true;
      ++tests_;
    }
    run(ticket);
  }
  return ticket;
}

bool Tester::wait(const Handle& handle) { return handle->answer.get(); }

void Tester::cancel(const Handle& handle) {
  std::lock_guard lock(mutex_);
  if (handle->started || handle->cancelled) return;
  handle->cancelled = true;
  if (auto found = known_.find(handle->hash); found != known_.end() && found->second == handle) known_.erase(found);
  handle->promise.set_value(false);  // never read by the reducer; keeps any waiter from hanging
}

std::size_t Tester::tests() const {
  std::lock_guard lock(mutex_);
  return tests_;
}

std::size_t Tester::cache_hits() const {
  std::lock_guard lock(mutex_);
  return cache_hits_;
}

void Tester::work() {
  while (true) {
    Handle ticket;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      ticket = queue_.front();
      queue_.pop_front();
      if (ticket->cancelled) continue;
      ticket->started = true;
      ++tests_;
    }
    run(ticket);
  }
}

void Tester::run(const Handle& ticket) {
  try {
    const bool interesting = interesting_(ticket->candidate);
    ticket->candidate.clear();  // the cache keeps the hash and the answer, not the text
    ticket->candidate.shrink_to_fit();
    ticket->promise.set_value(interesting);
  } catch (...) {
    {
      std::lock_guard lock(mutex_);
      if (auto found = known_.find(ticket->hash); found != known_.end() && found->second == ticket) known_.erase(found);
    }
    ticket->promise.set_exception(std::current_exception());
  }
}

} // namespace cudiff::reducer
