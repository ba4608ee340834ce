// campaign::BusyTime and FuzzProgress's per-GPU figures: how busy each GPU of a campaign was,
// counted as the time at least one binary ran on it, never as the sum of overlapping runs.
#include "campaign/progress_parts.h"

#include <gtest/gtest.h>

#include <chrono>

namespace cudiff::campaign {
namespace {

TEST(BusyTime, OverlappingSpansCountOnce) {
  BusyTime busy;
  busy.add(10, 20);
  busy.add(15, 25);  // overlaps the first
  busy.add(12, 14);  // inside it
  EXPECT_DOUBLE_EQ(busy.seconds(), 15);
}

TEST(BusyTime, SpansInAnyOrderMergeAcrossGaps) {
  BusyTime busy;
  busy.add(40, 50);
  busy.add(0, 5);
  busy.add(20, 30);
  EXPECT_DOUBLE_EQ(busy.seconds(), 25);
  busy.add(4, 41);  // bridges all three
  EXPECT_DOUBLE_EQ(busy.seconds(), 50);
  busy.add(50, 52);  // touches the end
  busy.add(60, 60);  // empty
  busy.add(70, 65);  // backwards: ignored
  EXPECT_DOUBLE_EQ(busy.seconds(), 52);
}

TEST(BusyTime, OldSpansAreFoldedWithoutChangingTheTotal) {
  BusyTime busy;
  double expected = 0;
  for (int i = 0; i < 10'000; ++i) {  // a span of 1 s every 2 s for over five hours
    busy.add(2.0 * i, 2.0 * i + 1);
    expected += 1;
  }
  EXPECT_DOUBLE_EQ(busy.seconds(), expected);
  busy.add(2.0 * 9'999 - 0.5, 2.0 * 9'999 + 3);  // a late span overlapping the newest ones
  EXPECT_DOUBLE_EQ(busy.seconds(), expected + 2.5);
}

/// A batch of `runs` binaries on GPU `gpu`, each one second long, all starting now.
BatchOutcome batch_on(std::size_t gpu, int runs) {
  BatchOutcome outcome;
  outcome.gpu = gpu;
  outcome.seeds.resize(8);
  const double now = std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  for (int i = 0; i < runs; ++i) outcome.runs.push_back(RunSpan{now - 1, now});
  return outcome;
}

TEST(FuzzProgress, EachGpuKeepsItsOwnBatchesRunsAndBusyTime) {
  FuzzProgress progress(0, 0, 100, 0, 2, 4);
  progress.add(batch_on(1, 3), 0, 0);
  progress.add(batch_on(1, 2), 0, 0);
  const GpuShare idle = progress.gpu_share(0);
  EXPECT_EQ(idle.batches, 0u);
  EXPECT_EQ(idle.runs, 0u);
  EXPECT_DOUBLE_EQ(idle.busy_seconds, 0);
  const GpuShare used = progress.gpu_share(1);
  EXPECT_EQ(used.batches, 2u);
  EXPECT_EQ(used.runs, 5u);
  EXPECT_DOUBLE_EQ(used.run_seconds, 5);
  // Five runs over the same second are one busy second: within a second of each other.
  EXPECT_NEAR(used.busy_seconds, 1, 0.01);
  EXPECT_LE(used.busy, 1.0);
  const std::string line = progress.line();
  EXPECT_NE(line.find("GPU busy "), std::string::npos) << line;
  EXPECT_NE(line.find(" (0: 0%, 1: "), std::string::npos) << line;
}

TEST(FuzzProgress, OneGpuShowsNoPerGpuListAndCompileOnlySaysSo) {
  FuzzProgress one(0, 0, 100, 0, 1, 2);
  one.add(batch_on(0, 1), 0, 0);
  EXPECT_EQ(one.line().find(" (0: "), std::string::npos) << one.line();
  EXPECT_NE(one.line().find("GPU busy "), std::string::npos) << one.line();
  FuzzProgress none(0, 0, 100, 0, 0, 2);
  EXPECT_NE(none.line().find("compile-only (no GPU)"), std::string::npos) << none.line();
}

} // namespace
} // namespace cudiff::campaign
