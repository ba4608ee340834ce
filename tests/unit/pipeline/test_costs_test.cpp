// TestCosts: what a reduction test's steps cost, summed over threads, in the order first reached.
#include "pipeline/test_costs.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

namespace cudiff::pipeline {
namespace {

TEST(TestCosts, StepsAreListedInTheOrderFirstReachedWithRunsAndPasses) {
  TestCosts costs;
  EXPECT_EQ(costs.summary(), "");
  costs.add("pair", 2.0, false);
  costs.add("sanitizer", 9.0, true);
  costs.add("pair", 4.0, true);
  EXPECT_EQ(costs.summary(), "pair 2 x 3.0 s (1 passed), sanitizer 1 x 9.0 s (1 passed)");
}

TEST(TestCosts, TimeReturnsTheStepsVerdictAndCountsEveryThread) {
  TestCosts costs;
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&costs, t] {
      for (int i = 0; i < 100; ++i) EXPECT_EQ(costs.time("build", [&] { return (t + i) % 2 == 0; }), (t + i) % 2 == 0);
    });
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(costs.summary().substr(0, 10), "build 800 ");
  EXPECT_NE(costs.summary().find("(400 passed)"), std::string::npos) << costs.summary();
}

} // namespace
} // namespace cudiff::pipeline
