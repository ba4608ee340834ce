// reducer (internal): testing candidates — the cache of answers and the worker threads.
#pragma once

#include "reducer/reducer.h"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <stop_token>
#include <thread>

namespace cudiff::reducer {

/// Runs the interestingness test on candidates, `jobs` at a time, and remembers every answer
/// by the hash of the candidate's text, so that no text is ever tested twice: a text asked
/// again is answered from the cache, or joins the test of the same text already running.
/// With jobs 1 the test runs in the caller's thread, inside submit(). A test nobody needs any
/// more (cancel, or the Tester's end) is asked to stop through its stop token.
class Tester {
public:
  struct Ticket;
  using Handle = std::shared_ptr<Ticket>;

  Tester(StoppableInteresting interesting, std::size_t jobs);
  /// Asks the tests running now to stop and waits for them (their answers are dropped); queued
  /// ones never start.
  ~Tester();
  Tester(const Tester&) = delete;
  Tester& operator=(const Tester&) = delete;

  Handle submit(std::string candidate);
  /// The answer; rethrows what the test threw (such an answer is not cached).
  bool wait(const Handle& handle);
  /// The answer if it comes before `end`, else none (the test goes on until cancelled).
  std::optional<bool> wait_until(const Handle& handle, std::chrono::steady_clock::time_point end);
  /// Nobody needs this answer any more: a test not started yet is dropped, one running is asked
  /// to stop; neither answer is cached (the same text submitted again is tested again).
  void cancel(const Handle& handle);

  std::size_t tests() const;       ///< test calls started
  std::size_t cache_hits() const;  ///< submits answered without a new test

private:
  void work();
  void run(const Handle& ticket);

  StoppableInteresting interesting_;
  std::size_t jobs_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::map<std::uint64_t, Handle> known_;  ///< answered or in flight, by text hash
  std::deque<Handle> queue_;
  std::vector<Handle> running_;  ///< started and not answered, for the end's stop requests
  std::vector<std::thread> workers_;
  bool stopping_ = false;
  std::size_t tests_ = 0;
  std::size_t cache_hits_ = 0;
};

struct Tester::Ticket {
  std::uint64_t hash = 0;
  std::string candidate;
  std::promise<bool> promise;
  std::shared_future<bool> answer;
  std::stop_source stop;   ///< requested when the answer will not be read
  bool started = false;    ///< under the Tester's mutex
  bool cancelled = false;  ///< under the Tester's mutex
};

} // namespace cudiff::reducer
