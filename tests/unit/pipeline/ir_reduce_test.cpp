// Unit: pipeline::reduce_ir, the IR stage's loop, with tests that need no compiler — it ends
// (no program is visited twice, even when every candidate is kept), takes the first kept edit
// in order whatever the jobs, counts what it tested, and tells the tests it will not read to stop.
#include "pipeline/pipeline.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

namespace cudiff::pipeline {
namespace {

/// Seed 2's batch with one variant, of the default policy (the samples' policy makes programs
/// with every construct, whose thousands of edits take a minute to walk).
generator::ProgramReduction small_batch() {
  return generator::ProgramReduction(generator::Policy::defaults(), std::vector<std::uint64_t>{2},
                                     generator::Size::small, 1);
}

TEST(ReduceIr, ATestThatKeepsEverythingEndsAtAProgramWithNothingLeftToCut) {
  generator::ProgramReduction reduction = small_batch();
  std::ostringstream err;
  std::set<std::string> seen;
  const IrReduction result = reduce_ir(
      reduction, [&](const generator::TestCase&, std::stop_token) { return true; }, IrOptions{}, err);
  EXPECT_GT(result.accepted, 20u);
  EXPECT_EQ(result.log.size(), result.accepted);
  // Nothing is left that changes the program (or only edits back to where it has been).
  std::size_t offered = 0;
  for (std::size_t i = 0; i < reduction.edits(); ++i) offered += reduction.candidate(i) ? 1 : 0;
  EXPECT_LT(offered, 3u) << reduction.current().source;
  EXPECT_LT(test::count_lines(reduction.current().source), 30u) << reduction.current().source;
  EXPECT_NE(err.str().find("ir-reduce: kept"), std::string::npos);
}

TEST(ReduceIr, ATestThatKeepsNothingTestsEachCandidateOnceAndKeepsTheStart) {
  generator::ProgramReduction reduction = small_batch();
  const std::string start = reduction.current().source;
  std::atomic<std::size_t> asked = 0;
  std::mutex mutex;
  std::set<std::string> distinct;  // two edits that make one program: it is tested once
  std::ostringstream err;
  IrOptions options;
  options.jobs = 3;
  const IrReduction result = reduce_ir(
      reduction,
      [&](const generator::TestCase& candidate, std::stop_token) {
        ++asked;
        const std::lock_guard lock(mutex);
        distinct.insert(candidate.source);
        return false;
      },
      options, err);
  EXPECT_EQ(result.accepted, 0u);
  EXPECT_EQ(result.rounds, 1u);
  EXPECT_EQ(result.tests, asked.load());
  EXPECT_EQ(distinct.size(), asked.load());
  EXPECT_GT(result.tests, 100u);
  EXPECT_EQ(result.program.source, start);
}

TEST(ReduceIr, TheFirstKeptEditInOrderWinsWhateverTheJobs) {
  // Keeps a candidate while the batch's first test is there and most of the text: the same
  // edits are kept, in the same order, with one job or four.
  std::vector<std::string> logs[2];
  for (int run = 0; run < 2; ++run) {
    generator::ProgramReduction reduction = small_batch();
    const std::size_t floor = reduction.current().source.size() * 3 / 4;
    IrOptions options;
    options.jobs = run == 0 ? 1 : 4;
    std::ostringstream err;
    const IrReduction result = reduce_ir(
        reduction,
        [floor](const generator::TestCase& candidate, std::stop_token) {
          return candidate.source.find("namespace cudiff_s2 {") != std::string::npos && candidate.source.size() > floor;
        },
        options, err);
    logs[run] = result.log;
  }
  EXPECT_FALSE(logs[0].empty());
  EXPECT_EQ(logs[0], logs[1]);
}

TEST(ReduceIr, TheConfirmStepRunsOnlyForTheEditAboutToBeKeptAndKeepsTheSameEdits) {
  // A test and a confirm step that rejects every program whose size is odd: with four jobs the
  // confirm step runs once per edit it decides, and the edits kept are those of one test doing
  // both with one job.
  const auto keeps = [](std::size_t floor) {
    return [floor](const generator::TestCase& candidate) {
      return candidate.source.find("namespace cudiff_s2 {") != std::string::npos && candidate.source.size() > floor;
    };
  };
  const auto even = [](const generator::TestCase& candidate) { return candidate.source.size() % 2 == 0; };
  std::vector<std::string> logs[2];
  std::atomic<std::size_t> confirms = 0, confirmed = 0;
  std::size_t tests = 0;
  for (int run = 0; run < 2; ++run) {
    generator::ProgramReduction reduction = small_batch();
    const auto test = keeps(reduction.current().source.size() * 3 / 4);
    IrOptions options;
    options.jobs = run == 0 ? 1 : 4;
    if (run == 1)
      options.confirm = [&](const generator::TestCase& candidate) {
        ++confirms;
        confirmed += even(candidate) ? 1 : 0;
        return even(candidate);
      };
    std::ostringstream err;
    const IrReduction result = reduce_ir(
        reduction,
        [&](const generator::TestCase& candidate, std::stop_token) {
          return run == 0 ? test(candidate) && even(candidate) : test(candidate);
        },
        options, err);
    logs[run] = result.log;
    if (run == 1) {
      EXPECT_EQ(confirmed.load(), result.accepted);
      // Each no came after its edit was kept at once: the reduction went back from each.
      EXPECT_EQ(result.refused, confirms.load() - confirmed.load());
      tests = result.tests;
    }
  }
  EXPECT_FALSE(logs[0].empty());
  EXPECT_EQ(logs[0], logs[1]);
  EXPECT_GT(confirms.load(), confirmed.load());  // some edit was refused by the confirm step
  EXPECT_LT(confirms.load(), tests);             // and it did not run for every test
}

TEST(ReduceIr, TheNextEditsAreTestedWhileTheConfirmStepOfTheLastKeptOneRuns) {
  // A confirm step of 20 ms that says yes: the tests of the edits after the kept one start
  // while it runs (the slots no longer stand idle), and the edits kept are the same.
  const auto keeps = [](std::size_t floor) {
    return [floor](const generator::TestCase& candidate) {
      return candidate.source.find("namespace cudiff_s2 {") != std::string::npos && candidate.source.size() > floor;
    };
  };
  std::vector<std::string> logs[2];
  std::atomic<bool> confirming = false;
  std::atomic<std::size_t> started_meanwhile = 0;
  for (int run = 0; run < 2; ++run) {
    generator::ProgramReduction reduction = small_batch();
    const auto test = keeps(reduction.current().source.size() * 3 / 4);
    IrOptions options;
    options.jobs = 4;
    if (run == 1)
      options.confirm = [&](const generator::TestCase&) {
        confirming = true;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        confirming = false;
        return true;
      };
    std::ostringstream err;
    logs[run] = reduce_ir(
                    reduction,
                    [&](const generator::TestCase& candidate, std::stop_token) {
                      if (confirming) ++started_meanwhile;
                      return test(candidate);
                    },
                    options, err)
                    .log;
  }
  EXPECT_FALSE(logs[0].empty());
  EXPECT_EQ(logs[0], logs[1]);
  EXPECT_GT(started_meanwhile.load(), 0u);
}

TEST(ReduceIr, TestsLeftBehindByAKeptEditAreToldToStop) {
  // Four slots: the first edit is kept after 100 ms; the three tests started beside it wait for
  // their stop (at most 5 s each), which the kept edit must send at once.
  generator::ProgramReduction reduction = small_batch();
  std::optional<generator::TestCase> first;
  for (std::size_t edit = 0; edit < reduction.edits() && !first; ++edit) first = reduction.candidate(edit);
  ASSERT_TRUE(first);
  std::atomic<int> waiting = 0, stopped = 0;
  IrOptions options;
  options.jobs = 4;
  std::ostringstream err;
  const IrReduction result = reduce_ir(
      reduction,
      [&](const generator::TestCase& candidate, std::stop_token unused) {
        if (candidate.source == first->source) {
          std::this_thread::sleep_for(std::chrono::milliseconds(100));
          return true;
        }
        if (waiting++ >= 3) return false;
        const auto asked = std::chrono::steady_clock::now();
        for (int i = 0; i < 500 && !unused.stop_requested(); ++i)
          std::this_thread::sleep_for(std::chrono::milliseconds(10));
        // Told within about the kept test's 100 ms, not at the end of the 5 s wait.
        if (unused.stop_requested() && std::chrono::steady_clock::now() - asked < std::chrono::seconds(2)) ++stopped;
        return false;
      },
      options, err);
  EXPECT_EQ(result.accepted, 1u);
  EXPECT_EQ(stopped.load(), 3);
}

} // namespace
} // namespace cudiff::pipeline
