// Unit tests for run_subprocess: capture, limits, process groups, fake compilers' faults.
#include "runners/process_group.h"
#include "runners/runners.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <fstream>
#include <sstream>
#include <stop_token>
#include <thread>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

namespace cudiff::runners {
namespace {

using Clock = std::chrono::steady_clock;

Command make(std::vector<std::string> argv, double wall_seconds = 10) {
  Command command;
  command.argv = std::move(argv);
  command.limits.wall_seconds = wall_seconds;
  return command;
}

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

/// True when no process (not even a zombie) is `target` (a pid, or -pgid for a whole group).
/// Checked at once, not retried: run_subprocess reaps the group itself before it returns, which
/// matters where init reaps orphans late (here it takes up to ~2 s) or never.
bool gone(pid_t target) { return ::kill(target, 0) == -1 && errno == ESRCH; }

/// This process's resident memory, from /proc/self/status.
std::uint64_t own_rss_bytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.starts_with("VmRSS:")) return std::stoull(line.substr(6)) * 1024;
  return 0;
}

std::vector<std::string> lines_of(const std::string& text) { return split_lines(text); }

TEST(Subprocess, CapturesStdoutStderrAndExitCode) {
  auto result = run_subprocess(make({"bash", "-c", "echo out-text; echo err-text >&2"}));
  ASSERT_TRUE(result.started) << result.start_error;
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.signal, 0);
  EXPECT_TRUE(result.exited_zero());
  EXPECT_EQ(result.out.text, "out-text\n");
  EXPECT_EQ(result.out.total_bytes, 9u);
  EXPECT_FALSE(result.out.truncated);
  EXPECT_EQ(result.err.text, "err-text\n");
  EXPECT_GT(result.process_group, 1);
  EXPECT_GT(result.wall_seconds, 0);
  EXPECT_EQ(result.status_text(), "exit 0");
}

TEST(Subprocess, AbsolutePathAndArgumentsPassedVerbatim) {
  auto result = run_subprocess(make({"/bin/echo", "two words", "it's", "$HOME", ""}));
  ASSERT_TRUE(result.started) << result.start_error;
  EXPECT_EQ(result.out.text, "two words it's $HOME \n");
}

TEST(Subprocess, Argv0IsKeptAsWritten) {
  // The child sees "bash", not the resolved /usr/bin/bash (clang reads its mode from argv[0]).
  auto result = run_subprocess(make({"bash", "-c", "tr '\\0' ' ' < /proc/$$/cmdline"}));
  ASSERT_TRUE(result.started) << result.start_error;
  EXPECT_TRUE(result.out.text.starts_with("bash -c ")) << result.out.text;
}

TEST(Subprocess, NonZeroExitCode) {
  auto result = run_subprocess(make({"bash", "-c", "exit 3"}));
  ASSERT_TRUE(result.started);
  EXPECT_EQ(result.exit_code, 3);
  EXPECT_EQ(result.signal, 0);
  EXPECT_FALSE(result.exited_zero());
  EXPECT_EQ(result.status_text(), "exit 3");
}

TEST(Subprocess, MissingProgramDoesNotStart) {
  SubprocessResult result;
  EXPECT_NO_THROW(result = run_subprocess(make({"cudiff-no-such-program-4711", "x"})));
  EXPECT_FALSE(result.started);
  EXPECT_NE(result.start_error.find("cudiff-no-such-program-4711"), std::string::npos) << result.start_error;
  EXPECT_TRUE(result.status_text().starts_with("did not start: ")) << result.status_text();
  EXPECT_FALSE(result.exited_zero());

  result = run_subprocess(make({"/nonexistent-dir/prog"}));
  EXPECT_FALSE(result.started);
  EXPECT_NE(result.start_error.find("No such file or directory"), std::string::npos) << result.start_error;

  result = run_subprocess(make({}));
  EXPECT_FALSE(result.started);
  EXPECT_FALSE(result.start_error.empty());
}

TEST(Subprocess, NonExecutableFileDoesNotStart) {
  TempDir dir("cudiff-subprocess-test");
  auto file = dir.path() / "not_executable.sh";
  write_file(file, "#!/bin/bash\necho hi\n");
  auto result = run_subprocess(make({file.string()}));
  EXPECT_FALSE(result.started);
  EXPECT_NE(result.start_error.find("Permission denied"), std::string::npos) << result.start_error;
}

TEST(Subprocess, EnvOverridesReplaceInheritedVariables) {
  auto command = make({"/usr/bin/env"});
  command.env_overrides = {{"CUDIFF_TEST_VARIABLE", "two words"}, {"HOME", "/override"}};
  auto result = run_subprocess(command);
  ASSERT_TRUE(result.started) << result.start_error;
  auto lines = lines_of(result.out.text);
  auto count = [&](const std::string& prefix) {
    return std::count_if(lines.begin(), lines.end(), [&](auto& l) { return l.starts_with(prefix); });
  };
  EXPECT_EQ(std::count(lines.begin(), lines.end(), "CUDIFF_TEST_VARIABLE=two words"), 1);
  EXPECT_EQ(count("HOME="), 1);
  EXPECT_EQ(std::count(lines.begin(), lines.end(), "HOME=/override"), 1);
  EXPECT_EQ(count("PATH="), 1);  // inherited from this process
}

TEST(Subprocess, OverriddenPathIsUsedToFindTheProgram) {
  TempDir dir("cudiff-subprocess-test");
  auto script = dir.path() / "cudiff-path-probe";
  write_file(script, "#!/bin/bash\necho found-on-overridden-path\n");
  std::filesystem::permissions(script, std::filesystem::perms::owner_all);
  auto command = make({"cudiff-path-probe"});
  command.env_overrides = {{"PATH", dir.path().string() + ":/usr/bin:/bin"}};
  auto result = run_subprocess(command);
  ASSERT_TRUE(result.started) << result.start_error;
  EXPECT_EQ(result.out.text, "found-on-overridden-path\n");
}

TEST(Subprocess, WorkingDirectoryIsHonoured) {
  TempDir dir("cudiff-subprocess-test");
  auto command = make({"/bin/pwd"});
  command.cwd = dir.path();
  auto result = run_subprocess(command);
  ASSERT_TRUE(result.started) << result.start_error;
  EXPECT_EQ(result.out.text, std::filesystem::canonical(dir.path()).string() + "\n");

  command.cwd = dir.path() / "missing";
  result = run_subprocess(command);
  EXPECT_FALSE(result.started);
  EXPECT_NE(result.start_error.find("missing"), std::string::npos) << result.start_error;
}

TEST(Subprocess, StdinIsDevNull) {
  auto start = Clock::now();
  auto result = run_subprocess(make({"/bin/cat"}, 5));
  ASSERT_TRUE(result.started);
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_FALSE(result.timed_out);
  EXPECT_EQ(result.out.text, "");
  EXPECT_LT(seconds_since(start), 2.0);
}

TEST(Subprocess, ChildLeadsItsOwnProcessGroup) {
  // cut reads its own stat line: field 5 is its process group.
  auto result = run_subprocess(make({"/usr/bin/cut", "-d", " ", "-f5", "/proc/self/stat"}));
  ASSERT_TRUE(result.started) << result.start_error;
  EXPECT_EQ(result.out.text, std::to_string(result.process_group) + "\n");
  EXPECT_NE(result.process_group, ::getpgrp());
}

TEST(Subprocess, ChildGetsNoCoreDumpsAndTheCpuLimit) {
  auto command = make({"bash", "-c", "ulimit -c; ulimit -t"});
  command.limits.cpu_seconds = 3;
  auto result = run_subprocess(command);
  ASSERT_TRUE(result.started) << result.start_error;
  EXPECT_EQ(result.out.text, "0\n3\n");
}

TEST(Subprocess, ChildSignalStateIsReset) {
  // What this thread blocks or ignores must not leak into a compiler (ignored signals and the
  // mask survive exec).
  sigset_t block, old_mask;
  sigemptyset(&block);
  sigaddset(&block, SIGTERM);
  ASSERT_EQ(pthread_sigmask(SIG_BLOCK, &block, &old_mask), 0);
  struct sigaction ignore = {}, old_action = {};
  ignore.sa_handler = SIG_IGN;
  ASSERT_EQ(sigaction(SIGUSR1, &ignore, &old_action), 0);

  auto result = run_subprocess(make({"/bin/grep", "-E", "^Sig(Blk|Ign)", "/proc/self/status"}));

  pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
  sigaction(SIGUSR1, &old_action, nullptr);
  ASSERT_TRUE(result.started) << result.start_error;
  EXPECT_EQ(result.out.text, "SigBlk:\t0000000000000000\nSigIgn:\t0000000000000000\n");
}

TEST(Subprocess, NoDescriptorLeaksIntoTheChild) {
  int leaked = ::open("/dev/null", O_RDONLY);  // deliberately without O_CLOEXEC
  ASSERT_GE(leaked, 0);
  auto result = run_subprocess(make({"/bin/ls", "/proc/self/fd"}));
  ::close(leaked);
  ASSERT_TRUE(result.started) << result.start_error;
  // 0-2, and the one ls opens to read the directory.
  EXPECT_EQ(result.out.text, "0\n1\n2\n3\n");
}

TEST(Subprocess, SmallCapKeepsHeadAndTail) {
  auto command = make({"bash", "-c", "for c in {0..9} {a..z}; do printf %s $c; done"});
  command.limits.output_cap_bytes = 16;  // head 12, tail 4
  auto result = run_subprocess(command);
  ASSERT_TRUE(result.started);
  EXPECT_TRUE(result.out.truncated);
  EXPECT_EQ(result.out.total_bytes, 36u);
  EXPECT_EQ(result.out.text, "0123456789ab\n[cudiff: 20 bytes omitted]\nwxyz");

  command.limits.output_cap_bytes = 36;  // exactly fits
  result = run_subprocess(command);
  EXPECT_FALSE(result.out.truncated);
  EXPECT_EQ(result.out.text, "0123456789abcdefghijklmnopqrstuvwxyz");

  command.limits.output_cap_bytes = 0;  // no cap
  command.argv = {"bash", "-c", "head -c 300000 /dev/zero"};
  result = run_subprocess(command);
  EXPECT_FALSE(result.out.truncated);
  EXPECT_EQ(result.out.text, std::string(300000, '\0'));
}

TEST(BoundedCapture, MatchesTheDefinitionForAnyChunking) {
  std::string data;
  for (int i = 0; i < 5000; ++i) data += static_cast<char>('a' + (i * 7) % 26);
  for (std::size_t cap : {1u, 2u, 4u, 5u, 100u, 1000u, 4999u, 5000u, 5001u}) {
    for (std::size_t chunk : {1u, 3u, 64u, 1000u, 5000u}) {
      detail::BoundedCapture capture(cap);
      for (std::size_t at = 0; at < data.size(); at += chunk)
        capture.append(data.data() + at, std::min(chunk, data.size() - at));
      auto stream = capture.finish();
      std::size_t head = cap - cap / 4, tail = cap / 4;
      std::string expected = data.size() <= cap
                                 ? data
                                 : data.substr(0, head) + "\n[cudiff: " + std::to_string(data.size() - cap) +
                                       " bytes omitted]\n" + data.substr(data.size() - tail);
      EXPECT_EQ(stream.text, expected) << "cap " << cap << " chunk " << chunk;
      EXPECT_EQ(stream.total_bytes, data.size());
      EXPECT_EQ(stream.truncated, data.size() > cap);
    }
  }
}

TEST(Subprocess, HangingCompilerIsKilledWithItsWholeGroup) {
  TempDir dir("cudiff-subprocess-test");
  auto pidfile = dir.path() / "pids";
  auto command = make({test::data("fake_compilers/hanging_compiler_fake.sh").string(), pidfile.string()}, 1.0);
  auto start = Clock::now();
  auto result = run_subprocess(command);
  double elapsed = seconds_since(start);
  ASSERT_TRUE(result.started) << result.start_error;
  EXPECT_TRUE(result.timed_out);
  EXPECT_EQ(result.signal, SIGKILL);
  EXPECT_FALSE(result.exited_zero());
  EXPECT_GE(result.wall_seconds, 1.0);
  EXPECT_LT(result.wall_seconds, 3.0);
  EXPECT_LT(elapsed, 3.0);
  EXPECT_EQ(result.status_text(), "timed out after 1 s");
  EXPECT_EQ(result.out.text, "fake compiler: compiling forever\n");

  EXPECT_TRUE(gone(-result.process_group)) << "process group still has members";
  auto pids = lines_of(read_file(pidfile));
  ASSERT_EQ(pids.size(), 5u) << read_file(pidfile);
  EXPECT_EQ(pids.back(), "ready");
  pids.pop_back();
  for (const auto& pid : pids) EXPECT_TRUE(gone(std::stoi(pid))) << "pid " << pid;
}

TEST(Subprocess, BackgroundGrandchildDoesNotOutliveOrDelayTheLeader) {
  auto start = Clock::now();
  auto result = run_subprocess(make({"bash", "-c", "sleep 1000 & echo $!"}));
  EXPECT_LT(seconds_since(start), 3.0);
  ASSERT_TRUE(result.started);
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_FALSE(result.timed_out);
  ASSERT_FALSE(result.out.text.empty());
  EXPECT_TRUE(gone(std::stoi(result.out.text)));
  EXPECT_TRUE(gone(-result.process_group));
}

TEST(Subprocess, DescendantThatLeftTheGroupDelaysTheResultByAtMostASecond) {
  // setsid takes sleep out of the group (nothing can kill what it cannot name), and sleep
  // keeps the pipes open: run_subprocess gives up on them after about a second.
  auto start = Clock::now();
  // bash waits until sleep leads a session of its own (field 6 of stat: the session id).
  auto result = run_subprocess(
      make({"bash", "-c",
            "setsid sleep 1000 & p=$!; "
            "until [ \"$(cut -d' ' -f6 /proc/$p/stat)\" = \"$p\" ]; do sleep 0.01; done; echo $p"}));
  double elapsed = seconds_since(start);
  ASSERT_TRUE(result.started);
  ASSERT_FALSE(result.out.text.empty());
  pid_t escaped = std::stoi(result.out.text);
  bool was_alive = ::kill(escaped, SIGKILL) == 0;
  ::waitpid(escaped, nullptr, 0);  // re-parented to us (subreaper) once bash died
  EXPECT_TRUE(was_alive);
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_GE(elapsed, 0.9);
  EXPECT_LT(elapsed, 3.0);
  EXPECT_TRUE(gone(-result.process_group));
}

TEST(Subprocess, FloodingCompilerKeepsMemoryBounded) {
  auto command = make({test::data("fake_compilers/flooding_compiler_fake.sh").string()}, 60);
  command.limits.output_cap_bytes = 1 << 20;
  std::uint64_t rss_before = own_rss_bytes();
  auto result = run_subprocess(command);
  std::uint64_t rss_after = own_rss_bytes();
  ASSERT_TRUE(result.started) << result.start_error;
  EXPECT_FALSE(result.timed_out);
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_TRUE(result.out.truncated);
  EXPECT_EQ(result.out.total_bytes, 1073741824u);
  std::string marker = "\n[cudiff: " + std::to_string(1073741824u - (1u << 20)) + " bytes omitted]\n";
  EXPECT_EQ(result.out.text.size(), (1u << 20) + marker.size());
  EXPECT_NE(result.out.text.find(marker), std::string::npos);
  EXPECT_TRUE(result.out.text.starts_with("fake.cu(1): warning #1234-D"));
  EXPECT_FALSE(result.err.truncated);
  EXPECT_EQ(result.err.text, "fake compiler: error: first diagnostic\nfake compiler: error: last diagnostic\n");
  EXPECT_LT(rss_after, rss_before + (64u << 20)) << "before " << rss_before << " after " << rss_after;
}

TEST(Subprocess, SignalIsReported) {
  auto result = run_subprocess(make({test::data("fake_compilers/signal_compiler_fake.sh").string()}));
  ASSERT_TRUE(result.started) << result.start_error;
  EXPECT_EQ(result.signal, SIGSEGV);
  EXPECT_FALSE(result.timed_out);
  EXPECT_EQ(result.status_text(), "signal 11 (SIGSEGV)");
  EXPECT_EQ(result.out.text, "fake compiler: about to crash\n");
  EXPECT_EQ(result.err.text, "fake compiler: internal error\n");
}

TEST(Subprocess, CpuLimitEndsABusyLoop) {
  auto command = make({"bash", "-c", "while :; do :; done"}, 10);
  command.limits.cpu_seconds = 1;
  auto start = Clock::now();
  auto result = run_subprocess(command);
  ASSERT_TRUE(result.started);
  EXPECT_FALSE(result.timed_out);
  EXPECT_TRUE(result.signal == SIGXCPU || result.signal == SIGKILL) << result.status_text();
  // Near 1 s; on a busy VM the reported user+sys time leaves out stolen time that the kernel's
  // CPU limit still counted, so only "a good part of it" is certain.
  EXPECT_GT(result.cpu_seconds, 0.3);
  EXPECT_LT(seconds_since(start), 6.0);
}

TEST(Subprocess, MemoryLimitKillsTheGroup) {
  if (!find_on_path("python3")) GTEST_SKIP() << "python3 not on PATH";
  // bytearray zero-fills its memory, so all 512 MiB become resident. Under bash, so that the
  // limit applies to the group's sum and both members are killed.
  auto command = make({"bash", "-c", "python3 -c 'b = bytearray(512 << 20); import time; time.sleep(20)'; echo no"},
                      30);
  command.limits.memory_bytes = 128u << 20;
  auto start = Clock::now();
  auto result = run_subprocess(command);
  ASSERT_TRUE(result.started) << result.start_error;
  EXPECT_TRUE(result.memory_limit_hit) << result.status_text();
  EXPECT_FALSE(result.timed_out);
  EXPECT_EQ(result.signal, SIGKILL);
  EXPECT_GT(result.peak_memory_bytes, 128u << 20);
  EXPECT_TRUE(result.status_text().starts_with("killed at memory limit")) << result.status_text();
  EXPECT_EQ(result.out.text, "");  // bash was killed too: it never printed "no"
  EXPECT_LT(seconds_since(start), 10.0);
  EXPECT_TRUE(gone(-result.process_group));
}

TEST(Subprocess, PeakMemoryIsMeasuredWithoutALimit) {
  auto result = run_subprocess(make({"bash", "-c", "head -c 100000000 /dev/zero | tail -c 50000000 | wc -c"}));
  ASSERT_TRUE(result.started) << result.start_error;
  EXPECT_EQ(result.out.text, "50000000\n");
  EXPECT_FALSE(result.memory_limit_hit);
  // tail keeps its last 50 MB in memory; whether sampled or from ru_maxrss, the peak shows it.
  EXPECT_GT(result.peak_memory_bytes, 40'000'000u);
}

TEST(Subprocess, ConcurrentCallsFromManyThreads) {
  constexpr int kThreads = 8, kRuns = 8;
  std::vector<std::vector<SubprocessResult>> results(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t, &results] {
      for (int r = 0; r < kRuns; ++r) {
        std::string id = std::to_string(t) + "-" + std::to_string(r);
        results[t].push_back(run_subprocess(make(
            {"bash", "-c", "echo \"out $1\"; echo \"err $1\" >&2; exit $2", "x", id, std::to_string((t + r) % 5)})));
      }
    });
  }
  for (auto& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) {
    for (int r = 0; r < kRuns; ++r) {
      const auto& result = results[t][r];
      std::string id = std::to_string(t) + "-" + std::to_string(r);
      ASSERT_TRUE(result.started) << result.start_error;
      EXPECT_EQ(result.out.text, "out " + id + "\n");
      EXPECT_EQ(result.err.text, "err " + id + "\n");
      EXPECT_EQ(result.exit_code, (t + r) % 5);
      EXPECT_LT(result.wall_seconds, 5.0);  // no thread waited on another's leaked pipe
    }
  }
}

} // namespace
} // namespace cudiff::runners

namespace cudiff::runners {
namespace {

// A campaign's --time end (Limits::deadline) stops a child without calling it a hang, and
// starts none after it.
TEST(SubprocessDeadline, StopsTheChildAndSaysSoNotTimedOut) {
  Command command = make({"sleep", "30"}, 60);
  command.limits.deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(300);
  const auto start = std::chrono::steady_clock::now();
  const SubprocessResult result = run_subprocess(command);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 5);
  EXPECT_TRUE(result.started);
  EXPECT_TRUE(result.stopped);
  EXPECT_FALSE(result.timed_out);
  EXPECT_EQ(result.status_text().rfind("stopped at the deadline", 0), 0u) << result.status_text();
}

TEST(SubprocessDeadline, NothingStartsPastIt) {
  Command command = make({"true"});
  command.limits.deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);
  const SubprocessResult result = run_subprocess(command);
  EXPECT_FALSE(result.started);
  EXPECT_TRUE(result.stopped);
}

TEST(SubprocessDeadline, TheWallClockLimitStillTimesOutFirst) {
  Command command = make({"sleep", "30"}, 0.3);
  command.limits.deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  const SubprocessResult result = run_subprocess(command);
  EXPECT_TRUE(result.timed_out);
  EXPECT_FALSE(result.stopped);
}

TEST(SubprocessDeadline, AStopFlagSetLaterStopsTheChildLikeTheDeadline) {
  // A campaign's reduction started before its window was known: stopped when it ends.
  std::atomic<bool> stop{false};
  std::thread setter([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    stop = true;
  });
  const auto start = std::chrono::steady_clock::now();
  const SubprocessResult result = run_subprocess(make({"sleep", "30"}, 60), stop);
  setter.join();
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 5);
  EXPECT_TRUE(result.started);
  EXPECT_TRUE(result.stopped);
  EXPECT_FALSE(result.timed_out);
  // Set already: nothing starts; unset: the child runs to its end.
  EXPECT_FALSE(run_subprocess(make({"true"}), stop).started);
  std::atomic<bool> never{false};
  EXPECT_TRUE(run_subprocess(make({"true"}), never).exited_zero());
}

TEST(SubprocessDeadline, AStopRequestedInTheLimitsStopsTheChildLikeTheDeadline) {
  // A reduction's test whose answer will not be read: its compile in flight is killed.
  std::stop_source stop;
  Command command = make({"sleep", "30"}, 60);
  command.limits.stop = stop.get_token();
  std::thread requester([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    stop.request_stop();
  });
  const auto start = std::chrono::steady_clock::now();
  const SubprocessResult result = run_subprocess(command);
  requester.join();
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 5);
  EXPECT_TRUE(result.started);
  EXPECT_TRUE(result.stopped);
  EXPECT_FALSE(result.timed_out);
  // Requested already: nothing starts; a token nobody can request: the child runs to its end.
  command = make({"true"});
  command.limits.stop = stop.get_token();
  EXPECT_FALSE(run_subprocess(command).started);
  EXPECT_TRUE(run_subprocess(make({"true"})).exited_zero());
}

} // namespace
} // namespace cudiff::runners
