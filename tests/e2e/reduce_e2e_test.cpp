// End-to-end: `cudiff reduce` on real discrepancies with the real nvcc and clang-22 — the
// built-in signature test, a C-Reduce-style script, and bad input.
#include "support/test_support.h"

#include "common/common.h"
#include "pipeline/pipeline.h"
#include "pipeline/reduce_parts.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

using cudiff::read_file;
using cudiff::TempDir;
using cudiff::write_file;
using cudiff::test::contains;
using cudiff::test::count_lines;
using cudiff::test::data;
using cudiff::test::run_cudiff;
using cudiff::test::source_dir;

namespace {

/// The coarse passes only: what the e2e budget (tens of seconds on two cores) allows. The
/// fine passes (tokens, blocks...) are the unit tests' business.
constexpr std::string_view quick_schedule =
    R"({"first": ["comments", "whitespace"], "main": ["hdd", "unused", "lines"], "last": ["whitespace"]})";

std::filesystem::path copy_into(const TempDir& dir, const std::filesystem::path& file) {
  const auto target = dir.path() / file.filename();
  write_file(target, read_file(file));
  return target;
}

std::filesystem::path script(const TempDir& dir, const std::string& name, const std::string& body) {
  const auto path = dir.path() / name;
  write_file(path, "#!/bin/sh\n" + body);
  ::chmod(path.c_str(), 0755);
  return path;
}

/// The triage key of the first finding of `file`, as `cudiff check --db` files it.
std::string key_of(const std::filesystem::path& file, const TempDir& dir) {
  auto result = run_cudiff({"check", file.string(), "--json", "--db", (dir.path() / "keys.db").string()});
  EXPECT_EQ(result.exit_code, 1) << result.out.text << result.err.text;
  const auto json = boost::json::parse(result.out.text);
  return std::string(json.at("verdict").at("findings").at(0).at("details").at("triage").at("key").as_string());
}

} // namespace

TEST(ReduceE2E, BuiltInTestReducesAPaddedManagedFileToAFewLinesWithTheSameSignature) {
  TempDir dir("cudiff-reduce-e2e");
  const auto file = copy_into(dir, data("e2e/data/reduce_managed_padded.cu"));
  const auto schedule = dir.path() / "quick.json";
  write_file(schedule, quick_schedule);
  const auto out = dir.path() / "small.cu";
  auto result = run_cudiff({"reduce", file.string(), "--out", out.string(), "--jobs", "2", "--schedule",
                            schedule.string(), "--no-format", "--json"});
  ASSERT_EQ(result.exit_code, 0) << result.out.text << result.err.text;
  const auto report = boost::json::parse(result.out.text);
  const std::string reduced = read_file(out);
  EXPECT_LT(count_lines(reduced), 15u) << reduced;
  EXPECT_EQ(report.at("reduced").at("bytes").as_int64(), static_cast<std::int64_t>(reduced.size()));
  EXPECT_EQ(report.at("original").at("lines").as_int64(), 109);
  // A compile-time mode cheaper than the full one, chosen by timing the original in each (on a
  // loaded machine ptx can time clearly faster than syntax: cheapest_mode, pipeline/reduce.cpp).
  const std::string test_mode(report.at("test_mode").as_string());
  EXPECT_TRUE(test_mode == "syntax" || test_mode == "ptx" || test_mode == "cubin") << test_mode;
  EXPECT_EQ(report.at("full_mode").as_string(), "binary");
  EXPECT_TRUE(report.at("confirmed").as_bool());
  EXPECT_GT(report.at("tests").as_int64(), 0);
  // Re-checked by `cudiff check`, the result lands in the original's bucket.
  const std::string key(report.at("signature").at("key").as_string());
  EXPECT_EQ(key_of(out, dir), key);
  EXPECT_EQ(key_of(file, dir), key);
  // Progress went to stderr, the pass log to stdout.
  EXPECT_TRUE(contains(result.err.text, "reduce: ")) << result.err.text;
  EXPECT_TRUE(contains(result.err.text, "tests/s")) << result.err.text;
  EXPECT_EQ(report.at("passes").as_array().at(0).at("pass").as_string(), "comments");
}

TEST(ReduceE2E, ATestScriptDecidesAsInCReduce) {
  TempDir dir("cudiff-reduce-e2e");
  const auto file = copy_into(dir, source_dir() / "examples" / "managed_counter.cu");
  // C-Reduce's contract: the script runs in a directory holding the candidate under the
  // original's name, and exit 0 means interesting. Only clang runs here: it is the one that
  // rejects.
  const auto test = script(
      dir, "interesting.sh",
      "clang++-22 -x cuda --cuda-gpu-arch=sm_90 --cuda-path=${CUDA_HOME:-/usr/local/cuda} -nocudalib "
      "-Wno-unknown-cuda-version -fsyntax-only managed_counter.cu 2>&1 |\n"
      "  grep -q \"reference to __host__ variable 'counter' in __global__ function\"\n");
  auto result = run_cudiff({"reduce", file.string(), "--test", test.string(), "--jobs", "2"});
  ASSERT_EQ(result.exit_code, 0) << result.out.text << result.err.text;
  const auto out = dir.path() / "managed_counter.reduced.cu";
  const std::string reduced = read_file(out);
  EXPECT_LT(reduced.size(), read_file(file).size() / 3) << reduced;
  EXPECT_TRUE(contains(reduced, "counter")) << reduced;
  EXPECT_TRUE(contains(result.out.text, "test: " + test.string())) << result.out.text;
  EXPECT_TRUE(contains(result.out.text, "tokens")) << result.out.text;
  // The script still says yes to the result, run the way the reducer runs it.
  TempDir check_dir("cudiff-reduce-e2e");
  write_file(check_dir.path() / "managed_counter.cu", reduced);
  cudiff::runners::Command again;
  again.argv = {test.string()};
  again.cwd = check_dir.path();
  EXPECT_TRUE(cudiff::runners::run_subprocess(again).exited_zero());
}

TEST(ReduceE2E, AFileWithoutADiscrepancyIsRefusedWithOneLine) {
  auto result = run_cudiff(
      {"reduce", (source_dir() / "examples" / "vector_add.cu").string(), "--mode", "syntax", "--out", "/dev/null"});
  EXPECT_EQ(result.exit_code, 2) << result.out.text;
  EXPECT_EQ(count_lines(result.err.text), 1u) << result.err.text;
  EXPECT_TRUE(contains(result.err.text, "vector_add.cu shows no discrepancy (mode syntax, configs nvcc-O3,clang-O3)"))
      << result.err.text;
  EXPECT_TRUE(result.out.text.empty());
}

TEST(ReduceE2E, BadInputIsRefusedWithOneLine) {
  TempDir dir("cudiff-reduce-e2e");
  auto one_line_error = [](const cudiff::runners::SubprocessResult& result, const std::string& expected) {
    EXPECT_EQ(result.exit_code, 2) << result.out.text << result.err.text;
    EXPECT_EQ(count_lines(result.err.text), 1u) << result.err.text;
    EXPECT_TRUE(contains(result.err.text, expected)) << result.err.text;
  };
  one_line_error(run_cudiff({"reduce", "/nonexistent/kernel.cu"}), "no such file: /nonexistent/kernel.cu");
  one_line_error(run_cudiff({"reduce"}), "reduce needs a CUDA file");
  const auto file = copy_into(dir, source_dir() / "examples" / "managed_counter.cu");
  one_line_error(run_cudiff({"reduce", file.string(), "--jobs", "0"}), "--jobs needs a whole number from 1 to 256");
  one_line_error(run_cudiff({"reduce", file.string(), "--test", "/nonexistent/test.sh"}),
                 "no such test script: /nonexistent/test.sh");
  const auto no = script(dir, "never.sh", "exit 1\n");
  one_line_error(run_cudiff({"reduce", file.string(), "--test", no.string()}),
                 "says the original managed_counter.cu is not interesting");
  const auto not_executable = dir.path() / "plain.sh";
  write_file(not_executable, "exit 0\n");
  one_line_error(run_cudiff({"reduce", file.string(), "--test", not_executable.string()}), "is not executable");
  const auto schedule = dir.path() / "bad.json";
  write_file(schedule, R"({"main": ["lines", "tokenz"]})");
  one_line_error(run_cudiff({"reduce", file.string(), "--schedule", schedule.string()}),
                 "unknown reducer pass 'tokenz'");
  if (cudiff::test::no_gpu())
    one_line_error(run_cudiff({"reduce", file.string(), "--mode", "run"}), "--mode run needs a GPU");
}

TEST(ReduceE2E, TheDefaultScheduleCanBeDumpedAndLoadedBack) {
  auto dump = run_cudiff({"reduce", "--dump-schedule"});
  ASSERT_EQ(dump.exit_code, 0) << dump.err.text;
  const auto json = boost::json::parse(dump.out.text);
  EXPECT_FALSE(json.at("main").as_array().empty());
  EXPECT_TRUE(contains(dump.out.text, "\"tokens\""));
}

TEST(ReduceE2E, TheUndefinedBehaviourGateFlagsWhatMemcheckCannotSee) {
  // The run-mismatch gate's cheap half, on the real clang-22 (the GPU half is tests/gpu).
  const auto toolchain = cudiff::runners::Toolchain::from(cudiff::runners::discover_toolchain({}));
  const cudiff::runners::Limits limits;
  auto gate = [&](const std::string& text) {
    return cudiff::pipeline::undefined_behaviour_warning(toolchain, text, "k.cu", "sm_90", limits);
  };
  const std::string clean = "__device__ int pick(int x) { return x > 0 ? 1 : 2; }\n"
                            "__global__ void k(int* out) { int v = pick(out[0]); out[1] = v << 3; }\n";
  EXPECT_EQ(gate(clean), std::nullopt);
  // What a reducer makes of it by deleting one token or statement.
  const auto missing_return = gate("__device__ int pick(int x) { if (x > 0) return 1; }\n"
                                   "__global__ void k(int* out) { out[1] = pick(out[0]); }\n");
  ASSERT_TRUE(missing_return.has_value());
  EXPECT_TRUE(contains(*missing_return, "does not return a value")) << *missing_return;
  const auto uninitialized = gate("__global__ void k(int* out) { int v; out[1] = v << 3; }\n");
  ASSERT_TRUE(uninitialized.has_value());
  EXPECT_TRUE(contains(*uninitialized, "uninitialized")) << *uninitialized;
  const auto shift = gate("__global__ void k(int* out) { out[1] = out[0] << 40; }\n");
  ASSERT_TRUE(shift.has_value());
  EXPECT_TRUE(contains(*shift, "shift count")) << *shift;
  const auto bounds = gate("__global__ void k(int* out) { int a[4] = {}; out[1] = a[4]; }\n");
  ASSERT_TRUE(bounds.has_value());
  EXPECT_TRUE(contains(*bounds, "past the end")) << *bounds;
}
