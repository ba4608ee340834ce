// reducer: a test whose answer will not be read is told to stop (StoppableInteresting) — the
// look-ahead's losers after a win, and what is in flight at the time limit — so a slow test
// does not hold a thread, or the end of a reduction, for an answer nobody reads.
#include "reducer/reducer.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

using namespace cudiff::reducer;

namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

bool has(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

/// Waits for a stop request for at most `cap`; true when it came.
bool stopped_within(std::stop_token unused, std::chrono::milliseconds cap) {
  const auto end = Clock::now() + cap;
  while (Clock::now() < end) {
    if (unused.stop_requested()) return true;
    std::this_thread::sleep_for(2ms);
  }
  return false;
}

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

} // namespace

TEST(ReducerStop, TheLosersOfAWindowAreToldToStopAndTheResultIsTheSequentialOne) {
  // Interesting: the line "l7" stays. A candidate that keeps l0 and loses l7 is slow (it waits
  // for a stop, at most 30 s): in the first window it is tested beside the winner, which drops
  // l0..l3, and after that win nothing reads its answer. Every other candidate answers at once.
  // The first win waits (at most 5 s) until a loser runs: a loser not started yet would be
  // dropped rather than stopped, on a busy machine.
  const std::string original = "l0\nl1\nl2\nl3\nl4\nl5\nl6\nl7\n";
  std::atomic<int> stops = 0;
  std::atomic<bool> loser_running = false;
  const StoppableInteresting slow_losers = [&](const std::string& text, std::stop_token unused) {
    if (has(text, "l7")) {
      for (int i = 0; i < 2500 && !loser_running; ++i) std::this_thread::sleep_for(2ms);
      return true;
    }
    if (has(text, "l0")) {
      loser_running = true;
      if (stopped_within(unused, 30s)) ++stops;
    }
    return false;
  };
  Options options;
  options.schedule = Schedule{{}, {"lines"}, {}};
  options.jobs = 4;
  // The original holds l7 too: checked, it would wait the 5 s for a loser nothing starts yet.
  options.check_original = false;
  const auto start = Clock::now();
  const Result parallel = reduce(original, slow_losers, options);
  EXPECT_LT(seconds_since(start), 10.0) << "a stale test was waited for";
  EXPECT_GE(stops.load(), 1);

  options.jobs = 1;
  const Result sequential = reduce(original, [](const std::string& text) { return has(text, "l7"); }, options);
  EXPECT_EQ(parallel.text, "l7\n");
  EXPECT_EQ(parallel.text, sequential.text);
}

TEST(ReducerStop, TheTestsInFlightAtTheTimeLimitAreToldToStop) {
  // Every candidate is slow; the limit is 1 s: the reduction returns the original soon after,
  // without waiting out the tests it started.
  std::atomic<int> stops = 0;
  const StoppableInteresting slow = [&](const std::string&, std::stop_token unused) {
    if (stopped_within(unused, 30s)) ++stops;
    return false;
  };
  Options options;
  options.schedule = Schedule{{}, {"lines"}, {}};
  options.jobs = 3;
  options.check_original = false;
  options.time_limit_seconds = 1;
  const auto start = Clock::now();
  const Result result = reduce("a\nb\nc\nd\n", slow, options);
  EXPECT_LT(seconds_since(start), 10.0);
  EXPECT_TRUE(result.stopped_early);
  EXPECT_EQ(result.text, "a\nb\nc\nd\n");
  EXPECT_EQ(stops.load(), 3);
}
