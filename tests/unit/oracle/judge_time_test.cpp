// Unit tests for compile-time anomalies (slow_compile) and for reading nvcc's `--time` file.
// Every time here is written into the observations: nothing depends on this machine's speed.
#include "oracle/oracle.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace cudiff::oracle {
namespace {

using runners::CompilerKind;

CompileObservation compile(std::string config, CompilerKind compiler, double seconds,
                           CompileOutcome outcome = CompileOutcome::accepted) {
  CompileObservation observation;
  observation.config = std::move(config);
  observation.compiler = compiler;
  observation.outcome = outcome;
  observation.seconds = seconds;
  return observation;
}

/// nvcc-O3 at `slow` seconds (cicc most of it), the three others at 3, 4 and 5 seconds.
std::vector<CompileObservation> four(double slow, CompileOutcome outcome = CompileOutcome::accepted) {
  CompileObservation nvcc = compile("nvcc-O3", CompilerKind::nvcc, slow, outcome);
  nvcc.stage_seconds = {{"gcc", 2}, {"cudafe++", 1}, {"cicc", slow - 4}, {"ptxas", 1}};
  return {compile("nvcc-O0", CompilerKind::nvcc, 4), nvcc, compile("clang-O0", CompilerKind::clang, 3),
          compile("clang-O3", CompilerKind::clang, 5)};
}

/// Observations of compiles alone: the fields are set by name, so new ones need no change here.
Observations compiles_only(std::vector<CompileObservation> compiles) {
  Observations observations;
  observations.compiles = std::move(compiles);
  return observations;
}

const JudgeOptions options{.warnings = false, .slow_compile_ratio = 8, .slow_compile_floor_seconds = 20};

TEST(JudgeSlowCompile, FarAboveTheOthersMedianIsAFindingNamedByItsSlowestStage) {
  const Verdict verdict = judge(compiles_only(four(60)), options);
  ASSERT_EQ(verdict.findings.size(), 1u) << verdict.headline();
  const Finding& finding = verdict.findings[0];
  EXPECT_EQ(finding.kind, FindingKind::slow_compile);
  EXPECT_EQ(finding.configs, std::vector<std::string>{"nvcc-O3"});
  EXPECT_EQ(finding.details.at("stage").as_string(), "device-codegen");
  EXPECT_EQ(finding.details.at("tool").as_string(), "cicc");
  EXPECT_EQ(finding.details.at("others_median_seconds").as_double(), 4.0);
  EXPECT_NE(finding.summary.find("56.0 s of it in cicc"), std::string::npos) << finding.summary;
  EXPECT_NE(finding.summary.find("15.0x"), std::string::npos) << finding.summary;
}

TEST(JudgeSlowCompile, UnderTheRatioOrUnderTheFloorIsNoFinding) {
  EXPECT_TRUE(judge(compiles_only(four(31)), options).agree());  // 7.75x the median
  // 15x the others, but only 1.5 s: small programs vary that much.
  std::vector<CompileObservation> quick = {compile("nvcc-O3", CompilerKind::nvcc, 1.5),
                                           compile("clang-O3", CompilerKind::clang, 0.1)};
  EXPECT_TRUE(judge(compiles_only(quick), options).agree());
}

TEST(JudgeSlowCompile, TheRatioAndFloorComeFromTheOptions) {
  JudgeOptions strict = options;
  strict.slow_compile_ratio = 5;
  EXPECT_FALSE(judge(compiles_only(four(31)), strict).agree());
  strict.slow_compile_floor_seconds = 40;
  EXPECT_TRUE(judge(compiles_only(four(31)), strict).agree());
}

// A rejection stops early: it is no yardstick for how long the program takes to compile.
TEST(JudgeSlowCompile, OnlyAcceptedCompilesAreTheYardstick) {
  std::vector<CompileObservation> compiles = {compile("nvcc-O3", CompilerKind::nvcc, 30),
                                              compile("clang-O3", CompilerKind::clang, 0.5, CompileOutcome::rejected)};
  const Verdict verdict = judge(compiles_only(compiles), options);
  for (const Finding& finding : verdict.findings) EXPECT_NE(finding.kind, FindingKind::slow_compile);
}

TEST(JudgeSlowCompile, AHangWhileTheOthersFinishQuicklyIsASlowCompileNotAHang) {
  const Verdict verdict = judge(compiles_only(four(360, CompileOutcome::hung)), options);
  ASSERT_EQ(verdict.findings.size(), 1u) << verdict.headline();
  const Finding& finding = verdict.findings[0];
  EXPECT_EQ(finding.kind, FindingKind::slow_compile);
  EXPECT_TRUE(finding.details.at("hung").as_bool());
  // Which sub-command hung is not known: its times stop at the last one that finished.
  EXPECT_EQ(finding.details.at("stage").as_string(), "compile");
  EXPECT_NE(finding.summary.find("hung"), std::string::npos) << finding.summary;
}

TEST(JudgeSlowCompile, EveryCompileHangingStaysAHang) {
  std::vector<CompileObservation> compiles = {compile("nvcc-O3", CompilerKind::nvcc, 360, CompileOutcome::hung),
                                              compile("clang-O3", CompilerKind::clang, 360, CompileOutcome::hung)};
  const Verdict verdict = judge(compiles_only(compiles), options);
  ASSERT_EQ(verdict.findings.size(), 2u) << verdict.headline();
  EXPECT_EQ(verdict.findings[0].kind, FindingKind::hang);
  EXPECT_EQ(verdict.findings[1].kind, FindingKind::hang);
}

TEST(JudgeSlowCompile, ClangWithoutStageTimesIsNamedCompile) {
  std::vector<CompileObservation> compiles = {compile("nvcc-O3", CompilerKind::nvcc, 5),
                                              compile("clang-O3", CompilerKind::clang, 100)};
  const Verdict verdict = judge(compiles_only(compiles), options);
  ASSERT_EQ(verdict.findings.size(), 1u) << verdict.headline();
  EXPECT_EQ(verdict.findings[0].details.at("stage").as_string(), "compile");
  EXPECT_EQ(verdict.findings[0].details.at("compiler").as_string(), "clang");
}

// The file nvcc 13.0 wrote for `nvcc --time FILE -o a.out prog.cu` (tests/golden/oracle).
TEST(ReadNvccTimes, ReadsEveryPhaseOfARealFileSummedPerTool) {
  const std::string csv = read_file(test::data("golden/oracle/nvcc_time.csv"));
  const auto times = read_nvcc_times(csv);
  std::vector<std::string> tools;
  for (const auto& [tool, seconds] : times) tools.push_back(tool);
  EXPECT_EQ(tools, (std::vector<std::string>{"gcc", "cudafe++", "cicc", "ptxas", "fatbinary", "nvlink"}));
  ASSERT_EQ(times.size(), 6u);
  EXPECT_NEAR(times[2].second, 5.0811138, 1e-6);                                       // cicc
  EXPECT_NEAR(times[0].second, (969.1930 + 1029.8030 + 4495.8960 + 432.0830 + 1208.7729) / 1000, 1e-6);  // gcc
  EXPECT_NEAR(times[4].second, (110.9690 + 74.8610) / 1000, 1e-6);                    // fatbinary, twice
}

TEST(ReadNvccTimes, AnythingElseGivesNothing) {
  EXPECT_TRUE(read_nvcc_times("").empty());
  EXPECT_TRUE(read_nvcc_times("not, a, time, file\n").empty());
  EXPECT_TRUE(read_nvcc_times("a , cicc , b , c , d , nvcc , notanumber , ms\n").empty());
  EXPECT_TRUE(read_nvcc_times("a , cicc , b , c , d , nvcc , 12 , furlongs\n").empty());
  EXPECT_EQ(read_nvcc_times("a , cicc , b , c , d , nvcc , 1500 , ms").size(), 1u);  // no newline at the end
}

TEST(StageOfTool, NvccsSubCommandsMapToStages) {
  EXPECT_EQ(stage_of_tool("cudafe++"), Stage::frontend);
  EXPECT_EQ(stage_of_tool("cicc"), Stage::device_codegen);
  EXPECT_EQ(stage_of_tool("ptxas"), Stage::ptxas);
  EXPECT_EQ(stage_of_tool("fatbinary"), Stage::linker);
  EXPECT_EQ(stage_of_tool("nvlink"), Stage::linker);
  EXPECT_EQ(stage_of_tool("gcc"), Stage::host_compiler);
  EXPECT_EQ(stage_of_tool("something"), Stage::unknown);
}

} // namespace
} // namespace cudiff::oracle
