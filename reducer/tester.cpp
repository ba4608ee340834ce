// reducer: the candidate cache and the worker threads that run the interestingness test.
#include "reducer/tester.h"

#include "common/common.h"

#include <algorithm>

namespace cudiff::reducer {

Tester::Tester(StoppableInteresting interesting, std::size_t jobs)
    : interesting_(std::move(interesting)), jobs_(std::max<std::size_t>(1, jobs)) {
  if (jobs_ > 1)
    for (std::size_t i = 0; i < jobs_; ++i) workers_.emplace_back([this] { work(); });
}

Tester::~Tester() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    for (const Handle& running : running_) running->stop.request_stop();
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
      running_.push_back(ticket);
    }
    run(ticket);
  }
  return ticket;
}

bool Tester::wait(const Handle& handle) { return handle->answer.get(); }

std::optional<bool> Tester::wait_until(const Handle& handle, std::chrono::steady_clock::time_point end) {
  if (handle->answer.wait_until(end) != std::future_status::ready) return std::nullopt;
  return handle->answer.get();
}

void Tester::cancel(const Handle& handle) {
  std::lock_guard lock(mutex_);
  if (handle->cancelled) return;
  const bool running = std::ranges::find(running_, handle) != running_.end();
  if (handle->started && !running) return;  // answered: a true answer, kept in the cache
  handle->cancelled = true;
  if (auto found = known_.find(handle->hash); found != known_.end() && found->second == handle) known_.erase(found);
  if (running) {
    handle->stop.request_stop();  // run() answers it when the test returns
    return;
  }
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
      running_.push_back(ticket);
    }
    run(ticket);
  }
}

void Tester::run(const Handle& ticket) {
  // Leaves the running list; an answer that may have been cut short (cancelled: a stop was
  // asked) or that is an exception leaves the cache too, so the text is tested again if asked.
  const auto finish = [&](bool trusted) {
    std::lock_guard lock(mutex_);
    std::erase(running_, ticket);
    if (trusted && !ticket->cancelled) return;
    if (auto found = known_.find(ticket->hash); found != known_.end() && found->second == ticket) known_.erase(found);
  };
  try {
    const bool interesting = interesting_(ticket->candidate, ticket->stop.get_token());
    ticket->candidate.clear();  // the cache keeps the hash and the answer, not the text
    ticket->candidate.shrink_to_fit();
    finish(true);
    ticket->promise.set_value(interesting);
  } catch (...) {
    finish(false);
    ticket->promise.set_exception(std::current_exception());
  }
}

} // namespace cudiff::reducer
