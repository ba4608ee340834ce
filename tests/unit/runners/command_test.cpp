// Unit tests for Command::display, SubprocessResult::status_text and their JSON forms.
#include "runners/runners.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <csignal>

namespace cudiff::runners {
namespace {

Command weird_command() {
  Command command;
  command.argv = {"/usr/bin/printf", "[%s]\\n", "plain-word_1.cu", "two words", "it's",        "",      "$HOME",
                  "a;b|c&d",         "*.cu",    "tab\there",       "new\nline", "back\\slash", "\"dq\""};
  return command;
}

TEST(Command, DisplayQuotesOnlyWhatTheShellWouldChange) {
  Command command;
  command.argv = {"nvcc", "-O3", "--std=c++17", "a b.cu", "it's", "", "$HOME", "-o/tmp/x,y:z@%+"};
  EXPECT_EQ(command.display(), "nvcc -O3 --std=c++17 'a b.cu' 'it'\\''s' '' '$HOME' -o/tmp/x,y:z@%+");
}

TEST(Command, DisplayShowsEnvOverridesAsAssignments) {
  Command command;
  command.argv = {"clang++-22", "-x", "cuda"};
  command.env_overrides = {{"TMPDIR", "/tmp/scratch dir"}, {"CUDA_VISIBLE_DEVICES", "0"}};
  command.cwd = "/somewhere";
  EXPECT_EQ(command.display(), "TMPDIR='/tmp/scratch dir' CUDA_VISIBLE_DEVICES=0 clang++-22 -x cuda");
}

TEST(Command, DisplayIsWhatAShellRunsBack) {
  // The displayed line, run by bash, must pass exactly the same argv and environment.
  Command command = weird_command();
  command.env_overrides = {{"CUDIFF_DISPLAY_TEST", "x 'y' $z"}};
  command.argv.insert(command.argv.begin() + 2, "$CUDIFF_DISPLAY_TEST");  // stays literal
  auto direct = run_subprocess(command);
  Command through_shell;
  through_shell.argv = {"bash", "-c", command.display()};
  auto shell = run_subprocess(through_shell);
  ASSERT_TRUE(direct.exited_zero()) << direct.status_text() << direct.err.text;
  ASSERT_TRUE(shell.exited_zero()) << shell.status_text() << shell.err.text;
  EXPECT_EQ(shell.out.text, direct.out.text);
  EXPECT_NE(direct.out.text.find("[it's]\n[]\n[$HOME]\n"), std::string::npos) << direct.out.text;

  Command env_probe;
  env_probe.argv = {"/usr/bin/printenv", "CUDIFF_DISPLAY_TEST"};
  env_probe.env_overrides = command.env_overrides;
  through_shell.argv = {"bash", "-c", env_probe.display()};
  EXPECT_EQ(run_subprocess(through_shell).out.text, "x 'y' $z\n");
}

TEST(Command, EqualityComparesEveryField) {
  Command a = weird_command(), b = weird_command();
  EXPECT_EQ(a, b);
  b.limits.cpu_seconds = 5;
  EXPECT_NE(a, b);
}

TEST(Command, StatusTextForEveryEnding) {
  SubprocessResult result;
  result.started = false;
  result.start_error = "program not found on PATH: nvcc";
  EXPECT_EQ(result.status_text(), "did not start: program not found on PATH: nvcc");

  result = {};
  result.started = true;
  result.exit_code = 0;
  EXPECT_EQ(result.status_text(), "exit 0");
  result.exit_code = 1;
  EXPECT_EQ(result.status_text(), "exit 1");

  result.exit_code = -1;
  result.signal = SIGSEGV;
  EXPECT_EQ(result.status_text(), "signal 11 (SIGSEGV)");
  result.signal = SIGXCPU;
  EXPECT_EQ(result.status_text(), "signal 24 (SIGXCPU)");
  result.signal = SIGABRT;
  EXPECT_EQ(result.status_text(), "signal 6 (SIGABRT)");

  result.signal = SIGKILL;
  result.timed_out = true;
  result.wall_seconds = 10.02;
  EXPECT_EQ(result.status_text(), "timed out after 10 s");
  result.wall_seconds = 1.5;
  EXPECT_EQ(result.status_text(), "timed out after 1.5 s");

  result.timed_out = false;
  result.memory_limit_hit = true;
  result.peak_memory_bytes = 2ull << 30;
  EXPECT_EQ(result.status_text(), "killed at memory limit (peak 2.0 GiB)");
}

TEST(Command, CommandJsonHasEveryField) {
  Command command;
  command.argv = {"nvcc", "a b.cu"};
  command.env_overrides = {{"TMPDIR", "/t"}};
  command.cwd = "/work";
  command.limits.wall_seconds = 30;
  command.limits.cpu_seconds = 20;
  command.limits.memory_bytes = 1 << 30;
  command.limits.output_cap_bytes = 1000;
  auto json = to_json(command).as_object();
  EXPECT_EQ(json.at("argv"), (boost::json::array{"nvcc", "a b.cu"}));
  EXPECT_EQ(json.at("env_overrides"), (boost::json::object{{"TMPDIR", "/t"}}));
  EXPECT_EQ(json.at("cwd"), "/work");
  const auto& limits = json.at("limits").as_object();
  EXPECT_EQ(limits.at("wall_seconds").as_double(), 30.0);
  EXPECT_EQ(limits.at("cpu_seconds").as_double(), 20.0);
  EXPECT_EQ(limits.at("memory_bytes").to_number<std::uint64_t>(), 1u << 30);
  EXPECT_EQ(limits.at("output_cap_bytes").to_number<std::uint64_t>(), 1000u);
  EXPECT_EQ(json.at("display"), "TMPDIR=/t nvcc 'a b.cu'");
}

TEST(Command, ResultJsonHasEveryFieldAndIsValidUtf8) {
  SubprocessResult result;
  result.started = true;
  result.exit_code = -1;
  result.signal = SIGSEGV;
  result.wall_seconds = 0.5;
  result.cpu_seconds = 0.25;
  result.peak_memory_bytes = 12345;
  result.process_group = 4242;
  result.out.text = "caf\xC3\xA9 \xFF\xFE end";  // valid é, then two invalid bytes
  result.out.total_bytes = 99;
  result.out.truncated = true;
  result.err.text = "warning\n";
  result.err.total_bytes = 8;
  auto value = to_json(result);
  // Boost.JSON's parser rejects invalid UTF-8: the serialized result must parse back.
  auto parsed = boost::json::parse(boost::json::serialize(value)).as_object();
  EXPECT_EQ(parsed.at("status"), "signal 11 (SIGSEGV)");
  EXPECT_EQ(parsed.at("started"), true);
  EXPECT_EQ(parsed.at("start_error"), "");
  EXPECT_EQ(parsed.at("exit_code"), -1);
  EXPECT_EQ(parsed.at("signal"), 11);
  EXPECT_EQ(parsed.at("signal_name"), "SIGSEGV");
  EXPECT_EQ(parsed.at("timed_out"), false);
  EXPECT_EQ(parsed.at("memory_limit_hit"), false);
  EXPECT_EQ(parsed.at("wall_seconds").as_double(), 0.5);
  EXPECT_EQ(parsed.at("cpu_seconds").as_double(), 0.25);
  EXPECT_EQ(parsed.at("peak_memory_bytes").to_number<std::uint64_t>(), 12345u);
  EXPECT_EQ(parsed.at("process_group"), 4242);
  const auto& out = parsed.at("out").as_object();
  EXPECT_EQ(out.at("text"), "caf\xC3\xA9 \xEF\xBF\xBD\xEF\xBF\xBD end");
  EXPECT_EQ(out.at("total_bytes").to_number<std::uint64_t>(), 99u);
  EXPECT_EQ(out.at("truncated"), true);
  EXPECT_EQ(parsed.at("err").as_object().at("text"), "warning\n");
  EXPECT_EQ(parsed.at("err").as_object().at("truncated"), false);
}

} // namespace
} // namespace cudiff::runners
