// gpu-labeled: `cudiff reduce` on a run mismatch, which only a GPU shows: the built-in
// signature test with its gates (clang's undefined-behaviour warnings, then compute-sanitizer
// on both binaries). Skipped, with a visible reason, where there is no GPU (CI).
#include "support/test_support.h"

#include "common/common.h"

#include <gtest/gtest.h>

using cudiff::read_file;
using cudiff::TempDir;
using cudiff::write_file;
using cudiff::test::contains;
using cudiff::test::count_lines;
using cudiff::test::run_cudiff;
using cudiff::test::source_dir;

namespace {

const std::filesystem::path original = source_dir() / "tests" / "gpu" / "data" / "run_mismatch_predefined_macro.cu";

} // namespace

TEST(GpuReduce, ARunMismatchShrinksAndStillShowsTheSameSignature) {
  CUDIFF_SKIP_WITHOUT_GPU();
  TempDir dir("cudiff-reduce-gpu");
  const auto file = dir.path() / "mismatch.cu";
  write_file(file, read_file(original));
  const auto out = dir.path() / "small.cu";
  // The coarse passes, and a time limit: every candidate here builds, runs and (when it still
  // shows the mismatch) goes through compute-sanitizer on both binaries.
  const auto schedule = dir.path() / "quick.json";
  write_file(schedule, R"({"first": ["comments", "whitespace", "includes"], "main": ["uses", "hdd", "unused", "lines"],
                          "last": ["whitespace"]})");
  auto result = run_cudiff({"reduce", file.string(), "--out", out.string(), "--schedule", schedule.string(),
                            "--time-limit", "200", "--no-format", "--json"});
  ASSERT_EQ(result.exit_code, 0) << result.out.text << result.err.text;
  const auto report = boost::json::parse(result.out.text);
  EXPECT_EQ(report.at("test_mode").as_string(), "run");
  EXPECT_TRUE(report.at("confirmed").as_bool());
  const std::string reduced = read_file(out);
  EXPECT_LT(reduced.size(), read_file(original).size() * 3 / 4) << reduced;
  // The gate at work: without `fill`'s launch (and the copy of its input) tag would read,
  // and main would copy back, uninitialized device memory, which initcheck refuses. A
  // memcheck-only gate lets the reducer drop both.
  EXPECT_TRUE(contains(reduced, "fill<<<")) << reduced;
  EXPECT_TRUE(contains(reduced, "cudaMemcpy(in, host")) << reduced;
  EXPECT_TRUE(contains(reduced, "__clang__")) << reduced;
  // `cudiff check` on the result: the same run mismatch, in the same bucket.
  auto check = run_cudiff({"check", out.string(), "--mode", "run", "--json", "--db", (dir.path() / "keys.db").string(),
                           "--config", "nvcc-O3,clang-O3", "--no-attribution"});
  ASSERT_EQ(check.exit_code, 1) << check.out.text << check.err.text;
  const auto verdict = boost::json::parse(check.out.text).at("verdict");
  const auto& finding = verdict.at("findings").at(0);
  EXPECT_EQ(finding.at("kind").as_string(), "run_mismatch") << check.out.text;
  EXPECT_EQ(finding.at("details").at("triage").at("key"), report.at("signature").at("key")) << check.out.text;
  std::printf("reduced to %zu lines:\n%s", count_lines(reduced), reduced.c_str());
}

// With three configs the candidates are prefiltered by a pair the finding's partition separates
// (built and run first; the third only for a candidate that still differs): the same result.
TEST(GpuReduce, AThreeConfigRunMismatchIsPrefilteredByAPairAndKeepsItsSignature) {
  CUDIFF_SKIP_WITHOUT_GPU();
  TempDir dir("cudiff-reduce-gpu-pair");
  const auto file = dir.path() / "mismatch.cu";
  write_file(file, read_file(original));
  const auto out = dir.path() / "small.cu";
  const auto schedule = dir.path() / "quick.json";
  write_file(schedule, R"({"first": ["comments", "whitespace", "includes"], "main": ["uses", "hdd", "unused"],
                          "last": ["whitespace"]})");
  auto result = run_cudiff({"reduce", file.string(), "--out", out.string(), "--schedule", schedule.string(), "--config",
                            "nvcc-O3,clang-O3,nvcc-O3-ptxas0", "--time-limit", "200", "--no-format", "--json"});
  ASSERT_EQ(result.exit_code, 0) << result.out.text << result.err.text;
  const auto report = boost::json::parse(result.out.text);
  EXPECT_TRUE(report.at("confirmed").as_bool());
  const std::string reduced = read_file(out);
  EXPECT_LT(reduced.size(), read_file(original).size() * 3 / 4) << reduced;
  EXPECT_TRUE(contains(reduced, "fill<<<")) << reduced;  // the sanitizer gate still decides
  auto check = run_cudiff({"check", out.string(), "--mode", "run", "--json", "--db", (dir.path() / "keys.db").string(),
                           "--config", "nvcc-O3,clang-O3,nvcc-O3-ptxas0", "--no-attribution"});
  ASSERT_EQ(check.exit_code, 1) << check.out.text << check.err.text;
  const auto& finding = boost::json::parse(check.out.text).at("verdict").at("findings").at(0);
  EXPECT_EQ(finding.at("details").at("triage").at("key"), report.at("signature").at("key")) << check.out.text;
}

TEST(GpuReduce, AnOriginalWithUndefinedBehaviourWarningsIsRefused) {
  CUDIFF_SKIP_WITHOUT_GPU();
  TempDir dir("cudiff-reduce-gpu");
  std::string text = read_file(original);
  const std::string clean = "__device__ int twice(int x) { return x + x; }";
  ASSERT_NE(text.find(clean), std::string::npos);
  text.replace(text.find(clean), clean.size(), "__device__ int twice(int x) { if (x >= 0) return x + x; }");
  const auto file = dir.path() / "mismatch.cu";
  write_file(file, text);
  auto result = run_cudiff({"reduce", file.string(), "--out", (dir.path() / "small.cu").string()});
  EXPECT_EQ(result.exit_code, 2) << result.out.text << result.err.text;
  EXPECT_EQ(count_lines(result.err.text), 1u) << result.err.text;
  EXPECT_TRUE(contains(result.err.text, "undefined behaviour")) << result.err.text;
  EXPECT_TRUE(contains(result.err.text, "does not return a value")) << result.err.text;
}
