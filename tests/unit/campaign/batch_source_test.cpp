// campaign::BatchSource: the seeds each worker gets, for whole campaigns, shards, resumed
// campaigns and time budgets; and campaign::BackgroundReducer.
#include "campaign/loop_parts.h"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <thread>

namespace cudiff::campaign {
namespace {

std::vector<std::vector<std::uint64_t>> drain(BatchSource& source) {
  std::vector<std::vector<std::uint64_t>> batches;
  for (auto batch = source.take(); !batch.empty(); batch = source.take()) batches.push_back(batch);
  return batches;
}

FuzzParams params(std::uint64_t first, std::uint64_t tests, std::uint64_t batch, Shard shard = {}) {
  FuzzParams p;
  p.first_seed = first;
  p.tests = tests;
  p.batch = batch;
  p.shard = shard;
  return p;
}

TEST(BatchSource, AWholeCampaignIsItsSeedsInBatchesWithAShortLastOne) {
  const FuzzParams p = params(100, 10, 4);
  BatchSource source(p, {}, [] { return 0.0; });
  EXPECT_EQ(drain(source),
            (std::vector<std::vector<std::uint64_t>>{{100, 101, 102, 103}, {104, 105, 106, 107}, {108, 109}}));
  EXPECT_TRUE(source.take().empty());  // stays dry
}

TEST(BatchSource, ShardsTakeEveryNthBatchAndTogetherTestEachSeedOnce) {
  std::multiset<std::uint64_t> all;
  for (std::uint64_t index = 0; index < 3; ++index) {
    const FuzzParams p = params(0, 20, 3, Shard{index, 3});
    BatchSource source(p, {}, [] { return 0.0; });
    const auto batches = drain(source);
    for (const auto& batch : batches) {
      EXPECT_EQ(batch.front() / 3 % 3, index) << "batch starting at " << batch.front();
      all.insert(batch.begin(), batch.end());
    }
  }
  ASSERT_EQ(all.size(), 20u);
  for (std::uint64_t seed = 0; seed < 20; ++seed) EXPECT_EQ(all.count(seed), 1u) << seed;
}

TEST(BatchSource, AResumedCampaignSkipsCommittedSeedsAndWholeBatchesOfThem) {
  const FuzzParams p = params(0, 12, 4);
  BatchSource source(p, {0, 1, 2, 3, 5, 6}, [] { return 0.0; });
  EXPECT_EQ(drain(source), (std::vector<std::vector<std::uint64_t>>{{4, 7}, {8, 9, 10, 11}}));
}

TEST(BatchSource, ATimeBudgetEndsTheCampaignAndStopEndsItAtOnce) {
  FuzzParams p;
  p.first_seed = 0;
  p.batch = 2;
  p.time_budget = 60;
  double elapsed = 0;
  BatchSource source(p, {}, [&] { return elapsed; });
  EXPECT_EQ(source.take(), (std::vector<std::uint64_t>{0, 1}));
  EXPECT_EQ(source.take(), (std::vector<std::uint64_t>{2, 3}));
  elapsed = 60;
  EXPECT_TRUE(source.take().empty());

  BatchSource stopped(p, {}, [] { return 0.0; });
  EXPECT_FALSE(stopped.take().empty());
  stopped.stop();
  EXPECT_TRUE(stopped.take().empty());
}

TEST(BatchSource, WorkersTakingAtOnceNeverGetTheSameSeed) {
  const FuzzParams p = params(0, 2000, 3);
  BatchSource source(p, {}, [] { return 0.0; });
  std::mutex mutex;
  std::multiset<std::uint64_t> seen;
  std::vector<std::thread> workers;
  for (int w = 0; w < 4; ++w)
    workers.emplace_back([&] {
      for (auto batch = source.take(); !batch.empty(); batch = source.take()) {
        std::lock_guard lock(mutex);
        seen.insert(batch.begin(), batch.end());
      }
    });
  for (auto& worker : workers) worker.join();
  EXPECT_EQ(seen.size(), 2000u);
  EXPECT_EQ(std::set<std::uint64_t>(seen.begin(), seen.end()).size(), 2000u);
}

ReductionItem item(const std::string& key, int rank = 0, std::int64_t size = 0) {
  return ReductionItem{key, rank, size, "", {}};
}

TEST(BackgroundReducer, ReducesEachKeyOnceInOrderAndFinishWaitsForAll) {
  std::vector<std::string> reduced;
  std::atomic<int> running{0}, most{0};
  BackgroundReducer reducer([&](const ReductionItem& item) {
    const int now = ++running;
    most = std::max(most.load(), now);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    reduced.push_back(item.key);  // one thread: no lock needed, which the test also checks
    --running;
    return ReductionDone{item.key, "reduce " + item.key + ": done", true};
  });
  for (const char* key : {"a", "b", "c"}) reducer.add(item(key));
  const std::vector<ReductionDone> ended = reducer.finish();
  EXPECT_EQ(reduced, (std::vector<std::string>{"a", "b", "c"}));
  std::vector<std::string> lines;
  for (const ReductionDone& done : ended) lines.push_back(done.line);
  EXPECT_EQ(lines, (std::vector<std::string>{"reduce a: done", "reduce b: done", "reduce c: done"}));
  EXPECT_EQ(most.load(), 1);  // one at a time
  EXPECT_EQ(reducer.finish().size(), 3u);  // finishing twice is harmless
}

TEST(BackgroundReducer, NothingQueuedFinishesAtOnce) {
  int calls = 0;
  BackgroundReducer reducer([&](const ReductionItem& item) {
    ++calls;
    return ReductionDone{item.key, "", true};
  });
  EXPECT_TRUE(reducer.finish().empty());
  EXPECT_EQ(calls, 0);
}

TEST(BackgroundReducer, AfterTheTestsItTakesTheMostImportantFirst) {
  std::vector<std::string> reduced;
  BackgroundReducer reducer(
      [&](const ReductionItem& item) {
        reduced.push_back(item.key);
        return ReductionDone{item.key, "", true};
      },
      false);  // not started: the reductions wait for the tests
  reducer.add(item("missed", 3, 100));
  reducer.add(item("crash-big", 1, 9000));
  reducer.add(item("rejects", 2, 50));
  reducer.add(item("crash-small", 1, 300));
  reducer.add(item("wrong", 0, 20000));
  reducer.add(item("crash-small-later", 1, 300));
  EXPECT_TRUE(reducer.wait_idle(0.05));  // idle: nothing will be taken before start()
  EXPECT_EQ(reducer.waiting(), 6u);
  std::vector<std::string> queued;
  for (const ReductionItem& waiting : reducer.queued()) queued.push_back(waiting.key);
  const std::vector<std::string> order{"wrong", "crash-small", "crash-small-later", "crash-big", "rejects", "missed"};
  EXPECT_EQ(queued, order);
  reducer.start();
  EXPECT_EQ(reducer.finish().size(), 6u);
  EXPECT_EQ(reduced, order);
}

TEST(BackgroundReducer, HeldItFinishesTheOneUnderWayAndLeavesTheRestQueued) {
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::atomic<int> calls{0};
  BackgroundReducer reducer([&, released](const ReductionItem& item) {
    ++calls;
    released.wait();
    return ReductionDone{item.key, "reduced " + item.key, item.key != "b"};
  });
  reducer.add(item("a"));
  reducer.add(item("b"));
  reducer.add(item("c"));
  while (reducer.waiting() == 3) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  reducer.hold();
  EXPECT_FALSE(reducer.wait_idle(0.05));  // "a" is under way
  release.set_value();
  EXPECT_TRUE(reducer.wait_idle(10));
  const std::vector<ReductionDone> ended = reducer.take_done();
  ASSERT_EQ(ended.size(), 1u);
  EXPECT_EQ(ended[0].key, "a");
  EXPECT_TRUE(reducer.take_done().empty());  // each ended reduction is taken once
  std::vector<std::string> left;
  for (const ReductionItem& waiting : reducer.queued()) left.push_back(waiting.key);
  EXPECT_EQ(left, (std::vector<std::string>{"b", "c"}));
  EXPECT_EQ(reducer.finish().size(), 1u);
  EXPECT_EQ(calls.load(), 1);
}

} // namespace
} // namespace cudiff::campaign
