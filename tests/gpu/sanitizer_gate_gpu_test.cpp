// gpu-labeled: the sanitizer gate on programs that fault. `cudiff check --db` on a program
// with an out-of-bounds read, and on one whose device recursion overflows the default stack,
// must list each as an invalid test (cause from compute-sanitizer) and file no finding; with
// --no-sanitizer-gate the same run mismatch is filed. Skipped, with a visible reason, where
// there is no GPU (CI).
#include "support/test_support.h"

#include <gtest/gtest.h>

using cudiff::test::contains;
using cudiff::test::run_cudiff;

namespace {

std::string data(const std::string& name) { return cudiff::test::data("gpu/data/" + name).string(); }

/// Checks `file` into a fresh database and returns `triage invalid --json` of it; `list` gets
/// `triage list --json`.
boost::json::value check_and_list_invalid(const std::string& file, const std::vector<std::string>& extra,
                                          const std::filesystem::path& db, int expected_exit, std::string& list) {
  std::vector<std::string> args = {"check", file, "--mode", "run", "--db", db.string()};
  args.insert(args.end(), extra.begin(), extra.end());
  const auto check = run_cudiff(args, 900);
  EXPECT_EQ(check.exit_code, expected_exit) << check.out.text << check.err.text;
  if (expected_exit == 3) {
    EXPECT_TRUE(contains(check.out.text, "INVALID program")) << check.out.text;
    EXPECT_TRUE(contains(check.out.text, "recorded as an invalid test")) << check.out.text;
  }
  list = run_cudiff({"triage", "list", "--json", "--db", db.string()}).out.text;
  const auto invalid = run_cudiff({"triage", "invalid", "--json", "--full", "--db", db.string()});
  EXPECT_EQ(invalid.exit_code, 0) << invalid.err.text;
  return boost::json::parse(invalid.out.text);
}

} // namespace

TEST(GpuSanitizerGate, OutOfBoundsReadIsAnInvalidTestNotAFinding) {
  CUDIFF_SKIP_WITHOUT_GPU();
  cudiff::TempDir dir("cudiff-gate-oob");
  std::string buckets;
  const boost::json::value invalid = check_and_list_invalid(data("sanitizer_out_of_bounds.cu"), {}, dir.path() / "t.db",
                                                            3, buckets);
  EXPECT_EQ(invalid.at("count").as_int64(), 1) << boost::json::serialize(invalid);
  const auto& test = invalid.at("tests").as_array().at(0);
  EXPECT_EQ(test.at("tool").as_string(), "memcheck");
  EXPECT_EQ(test.at("cause").as_string(), "out-of-bounds") << test.at("report").as_string();
  EXPECT_TRUE(contains(std::string(test.at("report").as_string()), "ERROR SUMMARY"));
  EXPECT_EQ(boost::json::parse(buckets).as_array().size(), 0u) << buckets;
}

TEST(GpuSanitizerGate, StackOverflowOfDeepRecursionIsAnInvalidTestNotAFinding) {
  CUDIFF_SKIP_WITHOUT_GPU();
  cudiff::TempDir dir("cudiff-gate-stack");
  std::string buckets;
  const boost::json::value invalid = check_and_list_invalid(data("sanitizer_deep_recursion.cu"),
                                                            {"--config", "nvcc-O0,clang-O0"}, dir.path() / "t.db", 3,
                                                            buckets);
  EXPECT_EQ(invalid.at("count").as_int64(), 1) << boost::json::serialize(invalid);
  const auto& test = invalid.at("tests").as_array().at(0);
  EXPECT_EQ(test.at("cause").as_string(), "stack overflow") << test.at("report").as_string();
  EXPECT_EQ(invalid.at("by_cause").at("stack overflow").as_int64(), 1);
  EXPECT_EQ(boost::json::parse(buckets).as_array().size(), 0u) << buckets;
}

TEST(GpuSanitizerGate, WithTheGateOffTheRunMismatchIsFiled) {
  CUDIFF_SKIP_WITHOUT_GPU();
  cudiff::TempDir dir("cudiff-gate-off");
  std::string buckets;
  const boost::json::value invalid = check_and_list_invalid(data("sanitizer_out_of_bounds.cu"), {"--no-sanitizer-gate"},
                                                            dir.path() / "t.db", 1, buckets);
  EXPECT_EQ(invalid.at("count").as_int64(), 0);
  const auto list = boost::json::parse(buckets).as_array();
  ASSERT_EQ(list.size(), 1u) << buckets;
  EXPECT_EQ(list.at(0).at("kind").as_string(), "run_mismatch");
}

TEST(GpuSanitizerGate, GeneratedProgramsAskForTheirStackAndRunCleanAtO0) {
  CUDIFF_SKIP_WITHOUT_GPU();
  cudiff::TempDir dir("cudiff-gate-generated");
  // Deep recursion and long call chains, built unoptimized on both sides: no stack overflow,
  // no invalid test, no finding. No edge programs: their (dialect) findings are not about runs;
  // nor what one compiler rejects on purpose (test::accepted_by_both).
  cudiff::write_file(
      dir.path() / "policy.json",
      R"({"edge.share": 0, "construct.managed_memory": 0, "probe.clang_rejects": 0, "construct.device_functions": 1, "construct.device_recursion": 1, "function.recursive": 1,
                         "function.call_depth.max": 6, "function.recursion.depth.max": 4})");
  const auto fuzz = run_cudiff({"fuzz", "--tests", "16", "--batch", "4", "--seed", "100", "--size", "medium",
                                "--config", "nvcc-O0,clang-O0,nvcc-G", "--policy",
                                (dir.path() / "policy.json").string(), "--db", (dir.path() / "f.db").string(),
                                "--no-reduce", "--json", "--quiet"},
                               1800);
  ASSERT_EQ(fuzz.exit_code, 0) << fuzz.out.text << fuzz.err.text;
  const auto json_start = fuzz.out.text.find('{');
  ASSERT_NE(json_start, std::string::npos) << fuzz.out.text;
  const auto summary = boost::json::parse(fuzz.out.text.substr(json_start));
  EXPECT_EQ(summary.at("invalid_tests").as_int64(), 0) << fuzz.out.text;
  EXPECT_EQ(summary.at("findings").as_int64(), 0) << fuzz.out.text;
}

// A generated program with __managed__ arrays: clang-22 ignores the attribute (a warning), so
// its binary writes through the host address and faults. That is the known difference, not a
// fault of the program nor a compiler bug: the gate says so rather than calling it invalid.
TEST(GpuSanitizerGate, AFaultOfTheCompilerThatLacksAConstructIsTheKnownDifference) {
  CUDIFF_SKIP_WITHOUT_GPU();
  cudiff::TempDir dir("cudiff-gate-managed");
  cudiff::write_file(dir.path() / "policy.json", R"({"construct.managed_memory": 1})");
  const auto generated = run_cudiff(
      {"generate", "--seed", "7", "--policy", (dir.path() / "policy.json").string(), "--out", dir.path().string()});
  ASSERT_EQ(generated.exit_code, 0) << generated.err.text;
  const std::string program = (dir.path() / "cudiff_000000000007.cu").string();
  ASSERT_TRUE(contains(cudiff::read_file(program), "__managed__"));
  const auto check = run_cudiff({"check", program, "--mode", "run", "--config", "nvcc-O3,clang-O3", "--db",
                                 (dir.path() / "t.db").string()},
                                900);
  EXPECT_TRUE(contains(check.out.text, "not a test of clang, which lacks a construct of the program by design"))
      << check.out.text << check.err.text;
  EXPECT_FALSE(contains(check.out.text, "INVALID program")) << check.out.text;
}
