// campaign::ActivityBoard and the progress line's "now:" part, and BackgroundReducer's status
// while it works: what a person watching a long campaign is told it is doing.
#include "campaign/loop_parts.h"
#include "campaign/progress_parts.h"

#include <gtest/gtest.h>

#include <future>

namespace cudiff::campaign {
namespace {

TEST(ActivityBoard, CountsPlainChecksAndNamesTheSlowPaths) {
  ActivityBoard board(5);
  EXPECT_EQ(board.summary(), "");
  board.set(0, "checking batch 100");
  board.set(1, "checking batch 108");
  board.set(2, "isolating batch 116: 4 seeds");
  board.set(3, "attributing seed 120");
  EXPECT_EQ(board.summary(), "2 checking, isolating batch 116: 4 seeds, attributing seed 120, 1 done");
  board.set(4, "checking edge seed 130");
  board.set(2, "checking batch 124");
  EXPECT_EQ(board.summary(), "3 checking, attributing seed 120, checking edge seed 130");
}

TEST(ActivityBoard, ManySlowPathsAreCountedPastThree) {
  ActivityBoard board(6);
  for (std::size_t w = 0; w < 6; ++w) board.set(w, "isolating batch " + std::to_string(w) + ": 1 seed");
  EXPECT_EQ(board.summary(), "isolating batch 0: 1 seed, isolating batch 1: 1 seed, isolating batch 2: 1 seed, 3 more");
}

TEST(FuzzProgress, TheLineEndsWithWhatTheWorkersDo) {
  FuzzProgress progress(0, 0, 100, 0, 1, 2);
  EXPECT_EQ(progress.line().find("now:"), std::string::npos);
  const std::string line = progress.line("2 checking");
  EXPECT_NE(line.find("; now: 2 checking"), std::string::npos) << line;
}

TEST(FuzzProgress, SecondsLeftAreUnknownUntilATestIsDoneOrByTheBudget) {
  // What a reduction alongside a --tests campaign is told to stop by: unknown at first.
  EXPECT_LT(FuzzProgress(0, 0, 100, 0, 0, 1).seconds_left(), 0);
  const double by_time = FuzzProgress(0, 30, std::nullopt, 90, 0, 1).seconds_left();
  EXPECT_GT(by_time, 59);
  EXPECT_LE(by_time, 60);
}

TEST(BackgroundReducer, StatusNamesTheBucketBeingReduced) {
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  BackgroundReducer reducer([released](const ReductionItem& item) {
    released.wait();
    return ReductionDone{item.key, "reduced " + item.key, true};
  });
  EXPECT_EQ(reducer.status(), "done");
  reducer.add(ReductionItem{"0123456789abcdef", 1, 10, "crash", {}});
  reducer.add(ReductionItem{"fedcba9876543210", 1, 20, "crash", {}});
  EXPECT_EQ(reducer.pending(), 2u);
  EXPECT_FALSE(reducer.wait_idle(0.2));
  EXPECT_EQ(reducer.status().rfind("bucket 0123456789ab (crash; 1 of 2), ", 0), 0u) << reducer.status();
  release.set_value();
  EXPECT_TRUE(reducer.wait_idle(10));
  EXPECT_EQ(reducer.pending(), 0u);
  std::vector<std::string> lines;
  for (const ReductionDone& done : reducer.finish()) lines.push_back(done.line);
  EXPECT_EQ(lines, (std::vector<std::string>{"reduced 0123456789abcdef", "reduced fedcba9876543210"}));
}

} // namespace
} // namespace cudiff::campaign
