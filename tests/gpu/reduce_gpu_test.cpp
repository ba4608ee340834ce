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

/// `cudiff reduce` of the original with `configs` (none: reduce's default) and the coarse passes
/// `main` (and a time limit: every candidate builds, runs and, when it still shows the mismatch,
/// goes through compute-sanitizer on both binaries); then `cudiff check` of the result with
/// `check_configs`.
struct Reduced {
  boost::json::value report;  ///< reduce --json
  std::string text;
  boost::json::value finding;  ///< the check's first finding of the result
};

Reduced reduce_original(const TempDir& dir, const std::string& configs, const std::string& check_configs,
                        const std::string& main) {
  const auto file = dir.path() / "mismatch.cu";
  write_file(file, read_file(original));
  const auto out = dir.path() / "small.cu";
  const auto schedule = dir.path() / "quick.json";
  write_file(schedule,
             R"({"first": ["comments", "whitespace", "includes"], "main": [)" + main + R"(], "last": ["whitespace"]})");
  std::vector<std::string> args = {"reduce",          file.string(),  "--out", out.string(),  "--schedule",
                                   schedule.string(), "--time-limit", "200",   "--no-format", "--json"};
  if (!configs.empty()) args.insert(args.end(), {"--config", configs});
  auto result = run_cudiff(args);
  EXPECT_EQ(result.exit_code, 0) << result.out.text << result.err.text;
  if (result.exit_code != 0) return {};
  Reduced reduced{boost::json::parse(result.out.text), read_file(out), nullptr};
  auto check = run_cudiff({"check", out.string(), "--mode", "run", "--json", "--db", (dir.path() / "keys.db").string(),
                           "--config", check_configs, "--no-attribution"});
  EXPECT_EQ(check.exit_code, 1) << check.out.text << check.err.text;
  if (check.exit_code == 1) reduced.finding = boost::json::parse(check.out.text).at("verdict").at("findings").at(0);
  return reduced;
}

} // namespace

TEST(GpuReduce, ARunMismatchShrinksAndStillShowsTheSameSignature) {
  CUDIFF_SKIP_WITHOUT_GPU();
  TempDir dir("cudiff-reduce-gpu");
  const Reduced reduced = reduce_original(dir, "", "nvcc-O3,clang-O3", R"("uses", "hdd", "unused", "lines")");
  ASSERT_TRUE(reduced.report.is_object());
  EXPECT_EQ(reduced.report.at("test_mode").as_string(), "run");
  EXPECT_TRUE(reduced.report.at("confirmed").as_bool());
  EXPECT_LT(reduced.text.size(), read_file(original).size() * 3 / 4) << reduced.text;
  // The gate at work: without `fill`'s launch (and the copy of its input) tag would read,
  // and main would copy back, uninitialized device memory, which initcheck refuses. A
  // memcheck-only gate lets the reducer drop both.
  EXPECT_TRUE(contains(reduced.text, "fill<<<")) << reduced.text;
  EXPECT_TRUE(contains(reduced.text, "cudaMemcpy(in, host")) << reduced.text;
  EXPECT_TRUE(contains(reduced.text, "__clang__")) << reduced.text;
  // `cudiff check` on the result: the same run mismatch, in the same bucket.
  ASSERT_TRUE(reduced.finding.is_object());
  EXPECT_EQ(reduced.finding.at("kind").as_string(), "run_mismatch");
  EXPECT_EQ(reduced.finding.at("details").at("triage").at("key"), reduced.report.at("signature").at("key"));
  std::printf("reduced to %zu lines:\n%s", count_lines(reduced.text), reduced.text.c_str());
}

// With three configs the candidates are prefiltered by a pair the finding's partition separates
// (built and run first; the third only for a candidate that still differs): the same result.
TEST(GpuReduce, AThreeConfigRunMismatchIsPrefilteredByAPairAndKeepsItsSignature) {
  CUDIFF_SKIP_WITHOUT_GPU();
  TempDir dir("cudiff-reduce-gpu-pair");
  const Reduced reduced = reduce_original(dir, "nvcc-O3,clang-O3,nvcc-O3-ptxas0", "nvcc-O3,clang-O3,nvcc-O3-ptxas0",
                                          R"("uses", "hdd", "unused")");
  ASSERT_TRUE(reduced.report.is_object());
  EXPECT_TRUE(reduced.report.at("confirmed").as_bool());
  EXPECT_LT(reduced.text.size(), read_file(original).size() * 3 / 4) << reduced.text;
  EXPECT_TRUE(contains(reduced.text, "fill<<<")) << reduced.text;  // the sanitizer gate still decides
  ASSERT_TRUE(reduced.finding.is_object());
  EXPECT_EQ(reduced.finding.at("details").at("triage").at("key"), reduced.report.at("signature").at("key"));
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
