// The executor's protocol and fault handling on real shared objects built by clang-22 (host
// code only, so no GPU is needed: the pool runs without a CUDA runtime). What a GPU adds (the
// context, device faults, device memory shares) is tested under tests/gpu/.
#include "runners/runners.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include <signal.h>

namespace cudiff::runners {
namespace {

std::filesystem::path shared_object(const TempDir& dir, const std::string& name, const std::string& source) {
  return test::host_shared_object(dir.path(), name, source);
}

class ExecutorTest : public ::testing::Test {
protected:
  void SetUp() override {
    if (!std::filesystem::exists(test::executor_binary())) GTEST_SKIP() << "no cudiff-executor built";
    ExecutorSetup setup;
    setup.program = test::executor_binary();
    setup.workdir = dir_.path() / "executors";
    setup.slots = 1;  // one executor: restarts are visible in the stats
    pool_ = std::make_unique<ExecutorPool>(setup);
  }
  ExecutorPool::RunAttempt run(const std::filesystem::path& program, std::vector<std::string> args = {},
                               double seconds = 20) {
    Limits limits;
    limits.wall_seconds = seconds;
    return pool_->run(program, args, limits, dir_.path());
  }
  TempDir dir_{"cudiff-executor-test"};
  std::unique_ptr<ExecutorPool> pool_;
};

TEST_F(ExecutorTest, ACleanRunGivesWhatAProcessWouldPrint) {
  const auto program = shared_object(dir_, "clean", R"(#include <cstdio>
#include <cstring>
int main(int argc, char** argv) {
  std::printf("out %d %s\n", argc, argc > 1 ? argv[1] : "-");
  std::fprintf(stderr, "err line\n");
  char buffer[8];
  std::printf("stdin %s\n", std::fgets(buffer, sizeof buffer, stdin) == nullptr ? "empty" : "read");
  return 0;
})");
  const auto outcome = run(program, {"--layout"});
  ASSERT_TRUE(outcome.result) << outcome.fallback;
  EXPECT_TRUE(outcome.result->exited_zero());
  EXPECT_EQ(outcome.result->out.text, "out 2 --layout\nstdin empty\n");
  EXPECT_EQ(outcome.result->err.text, "err line\n");
  // The same program again, in the same executor: its output alone, not the last run's.
  const auto again = run(program);
  ASSERT_TRUE(again.result) << again.fallback;
  EXPECT_EQ(again.result->out.text, "out 1 -\nstdin empty\n");
  EXPECT_EQ(pool_->stats().starts, 1u);
  EXPECT_EQ(pool_->stats().runs, 2u);
}

TEST_F(ExecutorTest, EachLoadStartsWithFreshStaticState) {
  const auto program = shared_object(dir_, "state", R"(#include <cstdio>
static int calls = 0;
int main() { std::printf("call %d\n", ++calls); return 0; })");
  for (int i = 0; i < 3; ++i) {
    const auto outcome = run(program);
    ASSERT_TRUE(outcome.result) << outcome.fallback;
    EXPECT_EQ(outcome.result->out.text, "call 1\n");
  }
}

TEST_F(ExecutorTest, ANonZeroMainFallsBackAndTheExecutorStays) {
  const auto program = shared_object(dir_, "three", "int main() { return 3; }");
  const auto outcome = run(program);
  EXPECT_FALSE(outcome.result);
  EXPECT_EQ(outcome.fallback, "main returned 3");
  const auto clean = run(shared_object(dir_, "zero", "int main() { return 0; }"));
  EXPECT_TRUE(clean.result) << clean.fallback;
  EXPECT_EQ(pool_->stats().starts, 1u);
}

TEST_F(ExecutorTest, ExitAndSignalsEndTheExecutorAndANewOneTakesOver) {
  const auto exits = shared_object(dir_, "exits", "#include <cstdlib>\nint main() { std::exit(4); }");
  const auto crashes = shared_object(dir_, "crashes",
                                     "#include <csignal>\nint main() { std::raise(SIGSEGV); return 0; }");
  const auto clean = shared_object(dir_, "clean2", "#include <cstdio>\nint main() { std::puts(\"ok\"); return 0; }");
  const auto exited = run(exits);
  EXPECT_FALSE(exited.result);
  EXPECT_TRUE(test::contains(exited.fallback, "the executor ended during the run (exit 4)")) << exited.fallback;
  const auto crashed = run(crashes);
  EXPECT_FALSE(crashed.result);
  EXPECT_TRUE(test::contains(crashed.fallback, "the executor ended during the run (signal 11)")) << crashed.fallback;
  const auto after = run(clean);
  ASSERT_TRUE(after.result) << after.fallback;
  EXPECT_EQ(after.result->out.text, "ok\n");
  EXPECT_EQ(pool_->stats().starts, 3u);
  EXPECT_EQ(pool_->stats().fallbacks, 2u);
}

TEST_F(ExecutorTest, AHangIsStoppedAtTheWallClockLimit) {
  const auto hangs = shared_object(dir_, "hangs", "int main() { for (volatile int i = 0;; i = i) {} }");
  const double seconds = test::seconds_of([&] {
    const auto outcome = run(hangs, {}, 1.0);
    EXPECT_FALSE(outcome.result);
    EXPECT_EQ(outcome.fallback, "time limit");
  });
  EXPECT_LT(seconds, 5);
  EXPECT_TRUE(run(shared_object(dir_, "zero2", "int main() { return 0; }")).result);
}

TEST_F(ExecutorTest, ADeadlineStopsARunAndNoneStartsAfterIt) {
  const auto hangs = shared_object(dir_, "hangs2", "int main() { for (volatile int i = 0;; i = i) {} }");
  Limits limits;
  limits.wall_seconds = 60;
  limits.deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(500);
  const auto stopped = pool_->run(hangs, {}, limits, dir_.path());
  EXPECT_EQ(stopped.fallback, "stopped at the deadline");
  const auto late = pool_->run(hangs, {}, limits, dir_.path());
  EXPECT_EQ(late.fallback, "stopped at the deadline");
}

TEST_F(ExecutorTest, WhatCannotBeLoadedFallsBack) {
  const auto no_main = shared_object(dir_, "nomain", "int helper() { return 1; }");
  const auto outcome = run(no_main);
  EXPECT_FALSE(outcome.result);
  EXPECT_TRUE(test::contains(outcome.fallback, "not loadable")) << outcome.fallback;
  const auto missing = run(dir_.path() / "missing.so");
  EXPECT_TRUE(test::contains(missing.fallback, "not loadable")) << missing.fallback;
}

TEST_F(ExecutorTest, OutputPastTheRunsCapIsReadBackAsAProcesssWouldBe) {
  const auto prints = shared_object(dir_, "prints", R"(#include <cstdio>
int main() { for (int i = 0; i < 20000; ++i) std::printf("line %d of a flood of output\n", i); return 0; })");
  Limits limits;
  limits.wall_seconds = 30;
  limits.output_cap_bytes = 64 << 10;
  const auto outcome = pool_->run(prints, {}, limits, dir_.path());
  ASSERT_TRUE(outcome.result) << outcome.fallback;
  EXPECT_TRUE(outcome.result->out.truncated);
  EXPECT_GT(outcome.result->out.total_bytes, 500'000u);
  EXPECT_LT(outcome.result->out.text.size(), 70'000u);
}

// A flood is stopped while it runs, at the executor's cap (RLIMIT_FSIZE): the executor ends and
// the run falls back to a process, whose pipes keep head and tail; the next run gets a new one.
TEST_F(ExecutorTest, AFloodIsStoppedAtTheCapWhileItRunsAndFallsBack) {
  const auto floods = shared_object(dir_, "floods", R"(#include <cstdio>
int main() { for (int i = 0; i < 200000; ++i) std::printf("line %d of a flood of output\n", i); return 0; })");
  const auto outcome = run(floods);  // about 5.8 MB: past the 4 MiB cap
  EXPECT_FALSE(outcome.result);
  EXPECT_TRUE(test::contains(outcome.fallback, "output past the cap")) << outcome.fallback;
  std::error_code ec;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir_.path(), ec))
    if (entry.is_regular_file(ec)) EXPECT_LE(entry.file_size(ec), Limits{}.output_cap_bytes) << entry.path();
  const auto clean = shared_object(dir_, "after_flood", "int main() { return 0; }");
  EXPECT_TRUE(run(clean).result);
}

// No core files from the executor or the programs it runs, as from every other child.
TEST_F(ExecutorTest, ProgramsRunWithoutCoreFiles) {
  const auto limit = shared_object(dir_, "core_limit", R"(#include <cstdio>
#include <sys/resource.h>
int main() { rlimit core{}; getrlimit(RLIMIT_CORE, &core); std::printf("core %llu %llu\n",
  (unsigned long long)core.rlim_cur, (unsigned long long)core.rlim_max); return 0; })");
  const auto outcome = run(limit);
  ASSERT_TRUE(outcome.result) << outcome.fallback;
  EXPECT_EQ(outcome.result->out.text, "core 0 0\n");
}

/// The live executors started in `workdir`, found as a person would find them to kill them:
/// through /proc.
std::vector<pid_t> executors_in(const std::filesystem::path& workdir) {
  std::vector<pid_t> found;
  std::error_code ec;
  const auto where = std::filesystem::weakly_canonical(workdir, ec);
  for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::error_code link_ec;
    // Its stderr is its log, in the pool's workdir (its cwd is each run's own directory).
    const auto log = std::filesystem::read_symlink(entry.path() / "fd" / "2", link_ec);
    const auto exe = std::filesystem::read_symlink(entry.path() / "exe", link_ec);
    if (!link_ec && log.parent_path() == where && exe.filename() == "cudiff-executor") found.push_back(std::stoi(name));
  }
  return found;
}

/// Kills the executors of `workdir` from outside and waits until none is alive (a killed one
/// stays a zombie, with no cwd, until the pool reaps it).
void kill_executors(const std::filesystem::path& workdir) {
  const auto pids = executors_in(workdir);
  ASSERT_FALSE(pids.empty()) << "no executor runs in " << workdir;
  for (pid_t pid : pids) ::kill(pid, SIGKILL);
  for (int i = 0; i < 200 && !executors_in(workdir).empty(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
}

TEST_F(ExecutorTest, AnExecutorKilledWhileIdleIsReplacedAndNoRunFallsBack) {
  const auto program = shared_object(dir_, "idle", "#include <cstdio>\nint main() { std::puts(\"ok\"); return 0; }");
  ASSERT_TRUE(run(program).result);
  kill_executors(dir_.path() / "executors");
  const auto outcome = run(program);
  ASSERT_TRUE(outcome.result) << outcome.fallback;
  EXPECT_EQ(outcome.result->out.text, "ok\n");
  const ExecutorStats stats = pool_->stats();
  EXPECT_EQ(stats.lost, 1u);
  EXPECT_EQ(stats.starts, 2u);
  EXPECT_EQ(stats.fallbacks, 0u);
}

TEST_F(ExecutorTest, AnExecutorKilledDuringARunFallsBackAndTheNextRunGetsANewOne) {
  const auto sleeps = shared_object(dir_, "sleeps", "#include <unistd.h>\nint main() { sleep(30); return 0; }");
  const auto clean = shared_object(dir_, "after", "#include <cstdio>\nint main() { std::puts(\"ok\"); return 0; }");
  ASSERT_TRUE(run(clean).result);  // started, so the kill below finds it
  std::thread killer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    kill_executors(dir_.path() / "executors");
  });
  const double seconds = test::seconds_of([&] {
    const auto killed = run(sleeps, {}, 60);
    EXPECT_FALSE(killed.result);
    EXPECT_EQ(killed.fallback, "the executor ended during the run (signal 9)");
  });
  killer.join();
  EXPECT_LT(seconds, 10);
  const auto after = run(clean);
  ASSERT_TRUE(after.result) << after.fallback;
  EXPECT_EQ(pool_->stats().starts, 2u);
  EXPECT_EQ(pool_->stats().fallbacks, 1u);
}

// Three slots, six runs from six threads: each run gets its own program's output (no slot
// hands one run another's), at most three executors start, and runs overlap in time (each
// program prints the monotonic clock at its start and end, in microseconds).
TEST(ExecutorPoolSlots, RunsGoToSeveralExecutorsAtOnceAndEachGetsItsOwnOutput) {
  if (!std::filesystem::exists(test::executor_binary())) GTEST_SKIP() << "no cudiff-executor built";
  TempDir dir("cudiff-executor-slots");
  ExecutorSetup setup;
  setup.program = test::executor_binary();
  setup.workdir = dir.path() / "executors";
  setup.slots = 3;
  ExecutorPool pool(setup);
  constexpr int kRuns = 6;
  std::vector<std::filesystem::path> programs;
  for (int i = 0; i < kRuns; ++i)
    programs.push_back(shared_object(dir, "slot" + std::to_string(i),
                                     R"(#include <cstdio>
#include <ctime>
#include <unistd.h>
static long long now() { timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1000000LL + t.tv_nsec / 1000; }
int main() { const long long start = now(); usleep(400000); std::printf("program )" +
                                         std::to_string(i) + R"( %lld %lld\n", start, now()); return 0; })"));
  std::vector<ExecutorPool::RunAttempt> outcomes(kRuns);
  std::vector<std::thread> threads;
  for (int i = 0; i < kRuns; ++i)
    threads.emplace_back([&, i] {
      Limits limits;
      limits.wall_seconds = 30;
      outcomes[i] = pool.run(programs[i], {}, limits, dir.path());
    });
  for (std::thread& thread : threads) thread.join();
  std::vector<std::pair<long long, long long>> spans;
  for (int i = 0; i < kRuns; ++i) {
    ASSERT_TRUE(outcomes[i].result) << i << ": " << outcomes[i].fallback;
    const std::string out = outcomes[i].result->out.text;
    const std::string prefix = "program " + std::to_string(i) + " ";
    ASSERT_TRUE(out.starts_with(prefix)) << "run " << i << " got: " << out;
    long long start = 0, end = 0;
    ASSERT_EQ(std::sscanf(out.c_str() + prefix.size(), "%lld %lld", &start, &end), 2) << out;
    spans.emplace_back(start, end);
  }
  const ExecutorStats stats = pool.stats();
  EXPECT_EQ(stats.runs, static_cast<std::size_t>(kRuns));
  EXPECT_LE(stats.starts, 3u);
  EXPECT_GE(stats.starts, 2u) << "six runs at once on three slots started one executor";
  EXPECT_EQ(stats.fallbacks, 0u);
  bool overlapped = false;
  for (std::size_t a = 0; a < spans.size(); ++a)
    for (std::size_t b = a + 1; b < spans.size(); ++b)
      overlapped = overlapped || (spans[a].first < spans[b].second && spans[b].first < spans[a].second);
  EXPECT_TRUE(overlapped) << "no two runs ran at the same time";
}

TEST(ExecutorPoolWithoutProgram, EveryRunFallsBackWithTheReason) {
  TempDir dir("cudiff-executor-missing");
  ExecutorSetup setup;
  setup.program = dir.path() / "no-such-executor";
  setup.workdir = dir.path();
  ExecutorPool pool(setup);
  Limits limits;
  for (int i = 0; i < 4; ++i) {
    const auto outcome = pool.run(dir.path() / "x.so", {}, limits, dir.path());
    EXPECT_FALSE(outcome.result);
    EXPECT_TRUE(test::contains(outcome.fallback, "executor")) << outcome.fallback;
  }
}

} // namespace
// A launch request where there is no GPU (or no driver): a result with the failing step, not a
// fallback, and the executor stays up for the next request (nothing touched a context).
TEST_F(ExecutorTest, ALaunchWithoutAGpuFailsAtTheDriverStepAndTheExecutorStays) {
  if (!test::no_gpu()) GTEST_SKIP() << "a GPU is here: tests/gpu/launch_gpu_test.cpp launches for real";
  const auto module = dir_.path() / "module.ptx";
  write_file(module, ".version 8.8\n.target sm_90\n.address_size 64\n.visible .entry k() { ret; }\n");
  Limits limits;
  limits.wall_seconds = 20;
  const auto launch = parse_launch(R"({"kernel": "k"})");
  const auto outcome = pool_->launch(module, launch, limits);
  ASSERT_TRUE(outcome.result) << outcome.fallback;
  EXPECT_EQ(outcome.result->exit_code, 1);
  EXPECT_TRUE(outcome.failure.starts_with("driver: ")) << outcome.failure;
  EXPECT_TRUE(test::contains(outcome.result->err.text, "cudiff-executor: driver failed")) << outcome.result->err.text;
  const auto again = pool_->launch(module, launch, limits);
  ASSERT_TRUE(again.result) << again.fallback;
  EXPECT_EQ(pool_->stats().starts, 1u);
  EXPECT_EQ(pool_->stats().fallbacks, 0u);
}

} // namespace cudiff::runners
