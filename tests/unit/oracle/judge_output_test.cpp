// Unit tests for the expected-output oracle: runs against the generator's predicted checksums
// (wrong_code, common_wrong_code) and how it replaces the run mismatch it explains.
#include "oracle/oracle.h"

#include <gtest/gtest.h>

namespace cudiff::oracle {
namespace {

using runners::CompilerKind;

constexpr const char* kGood = "00000000deadbeef";
constexpr const char* kBad = "00000000feedface";
constexpr const char* kOther = "0123456789abcdef";

CompileObservation accepted(std::string config, CompilerKind compiler) {
  CompileObservation observation;
  observation.config = std::move(config);
  observation.compiler = compiler;
  observation.outcome = CompileOutcome::accepted;
  return observation;
}

RunObservation run(std::string config, std::vector<std::string> lines, int exit_code = 0) {
  RunObservation observation;
  observation.config = std::move(config);
  observation.exit_code = exit_code;
  observation.output_lines = std::move(lines);
  observation.status_text = "exit " + std::to_string(exit_code);
  return observation;
}

std::string checksum(const std::string& kernel, const std::string& value) { return "checksum " + kernel + " " + value; }

/// Four configs; the prediction is kGood for kernel_0 and kOther for kernel_1.
Observations four_configs(std::vector<RunObservation> runs) {
  Observations observations;
  observations.compiles = {accepted("nvcc-O0", CompilerKind::nvcc), accepted("nvcc-O3", CompilerKind::nvcc),
                           accepted("clang-O0", CompilerKind::clang), accepted("clang-O3", CompilerKind::clang)};
  observations.runs = std::move(runs);
  observations.expected_checksums = {{"kernel_0", kGood}, {"kernel_1", kOther}};
  return observations;
}

std::vector<std::string> strings_of(const boost::json::value& value) {
  std::vector<std::string> strings;
  for (const auto& item : value.as_array()) strings.emplace_back(item.as_string());
  return strings;
}

TEST(JudgeExpectedOutput, EveryConfigPrintingThePredictionAgrees) {
  const std::vector<std::string> lines = {checksum("kernel_0", kGood), checksum("kernel_1", kOther)};
  const Verdict verdict = judge(four_configs({run("nvcc-O0", lines), run("nvcc-O3", lines), run("clang-O0", lines),
                                              run("clang-O3", lines)}),
                                JudgeOptions{});
  EXPECT_TRUE(verdict.agree()) << verdict.headline();
  EXPECT_NE(verdict.agreement.find("as the generator predicts"), std::string::npos) << verdict.agreement;
}

TEST(JudgeExpectedOutput, OneConfigOffThePredictionIsWrongCodeAndNoRunMismatch) {
  const std::vector<std::string> good = {checksum("kernel_0", kGood), checksum("kernel_1", kOther)};
  const std::vector<std::string> bad = {checksum("kernel_0", kBad), checksum("kernel_1", kOther)};
  const Verdict verdict = judge(four_configs({run("nvcc-O0", good), run("nvcc-O3", bad), run("clang-O0", good),
                                              run("clang-O3", good)}),
                                JudgeOptions{});
  ASSERT_EQ(verdict.findings.size(), 1u) << verdict.headline();
  const Finding& finding = verdict.findings[0];
  EXPECT_EQ(finding.kind, FindingKind::wrong_code);
  EXPECT_EQ(finding.summary, std::string("wrong code: kernel_0 expected 0x") + kGood + " (generator), nvcc-O0 0x" +
                                 kGood + ", nvcc-O3 0x" + kBad + ", clang-O0 0x" + kGood + ", clang-O3 0x" + kGood);
  EXPECT_EQ(strings_of(finding.details.at("differing")), std::vector<std::string>{"nvcc-O3"});
  EXPECT_EQ(strings_of(finding.details.at("matching")), (std::vector<std::string>{"nvcc-O0", "clang-O0", "clang-O3"}));
  EXPECT_EQ(strings_of(finding.details.at("differing_kernels")), std::vector<std::string>{"kernel_0"});
  EXPECT_EQ(finding.details.at("expected").at("kernel_0").as_string(), kGood);
  EXPECT_EQ(finding.details.at("values").at("nvcc-O3").at("kernel_0").as_string(), kBad);
  EXPECT_EQ(finding.configs.front(), "nvcc-O3");
}

TEST(JudgeExpectedOutput, EveryOddKernelAndConfigIsListedInOneFinding) {
  const std::vector<std::string> good = {checksum("kernel_0", kGood), checksum("kernel_1", kOther)};
  const Verdict verdict = judge(
      four_configs({run("nvcc-O0", good), run("nvcc-O3", {checksum("kernel_0", kBad), checksum("kernel_1", kOther)}),
                    run("clang-O0", good), run("clang-O3", {checksum("kernel_0", kGood), checksum("kernel_1", kBad)})}),
      JudgeOptions{});
  ASSERT_EQ(verdict.findings.size(), 1u) << verdict.headline();
  const Finding& finding = verdict.findings[0];
  EXPECT_EQ(finding.kind, FindingKind::wrong_code);
  EXPECT_EQ(strings_of(finding.details.at("differing")), (std::vector<std::string>{"nvcc-O3", "clang-O3"}));
  EXPECT_EQ(strings_of(finding.details.at("differing_kernels")), (std::vector<std::string>{"kernel_0", "kernel_1"}));
  // nvcc-O3 and clang-O3 are wrong in different ways: two groups.
  EXPECT_EQ(finding.details.at("differing_groups").as_array().size(), 2u);
  EXPECT_NE(finding.summary.find("(+1 more kernel)"), std::string::npos) << finding.summary;
}

TEST(JudgeExpectedOutput, EveryConfigPrintingTheSameOtherValueIsCommonWrongCode) {
  const std::vector<std::string> lines = {checksum("kernel_0", kBad), checksum("kernel_1", kOther)};
  const Verdict verdict = judge(four_configs({run("nvcc-O0", lines), run("nvcc-O3", lines), run("clang-O0", lines),
                                              run("clang-O3", lines)}),
                                JudgeOptions{});
  ASSERT_EQ(verdict.findings.size(), 1u) << verdict.headline();
  EXPECT_EQ(verdict.findings[0].kind, FindingKind::common_wrong_code);
  EXPECT_NE(verdict.findings[0].summary.find("every config"), std::string::npos) << verdict.findings[0].summary;
  EXPECT_NE(verdict.findings[0].summary.find("interpreter"), std::string::npos) << verdict.findings[0].summary;
  EXPECT_EQ(verdict.findings[0].details.at("matching").as_array().size(), 0u);
}

TEST(JudgeExpectedOutput, EveryConfigWrongInDifferentWaysIsWrongCodeNotCommon) {
  const Verdict verdict = judge(
      four_configs({run("nvcc-O0", {checksum("kernel_0", kBad)}), run("nvcc-O3", {checksum("kernel_0", kBad)}),
                    run("clang-O0", {checksum("kernel_0", kOther)}), run("clang-O3", {checksum("kernel_0", kOther)})}),
      JudgeOptions{});
  ASSERT_EQ(verdict.findings.size(), 1u) << verdict.headline();
  EXPECT_EQ(verdict.findings[0].kind, FindingKind::wrong_code);
}

TEST(JudgeExpectedOutput, ACrashedRunStaysARunMismatchAndIsNotHeldToThePrediction) {
  RunObservation crashed = run("nvcc-O3", {checksum("kernel_0", kBad)}, -1);
  crashed.signal = 11;
  crashed.status_text = "signal 11 (SIGSEGV)";
  const std::vector<std::string> good = {checksum("kernel_0", kGood), checksum("kernel_1", kOther)};
  const Verdict verdict = judge(four_configs(
                                    {run("nvcc-O0", good), crashed, run("clang-O0", good), run("clang-O3", good)}),
                                JudgeOptions{});
  ASSERT_EQ(verdict.findings.size(), 1u) << verdict.headline();
  EXPECT_EQ(verdict.findings[0].kind, FindingKind::run_mismatch);
  EXPECT_EQ(verdict.findings[0].details.at("first_difference").as_string(), "status");
}

TEST(JudgeExpectedOutput, AMissingChecksumLineStaysARunMismatch) {
  const std::vector<std::string> good = {checksum("kernel_0", kGood), checksum("kernel_1", kOther)};
  const Verdict verdict = judge(four_configs({run("nvcc-O0", good), run("nvcc-O3", {checksum("kernel_0", kGood)}),
                                              run("clang-O0", good), run("clang-O3", good)}),
                                JudgeOptions{});
  ASSERT_EQ(verdict.findings.size(), 1u) << verdict.headline();
  EXPECT_EQ(verdict.findings[0].kind, FindingKind::run_mismatch);
}

TEST(JudgeExpectedOutput, AnotherDifferingLineKeepsTheRunMismatchBesideWrongCode) {
  const std::vector<std::string> good = {checksum("kernel_0", kGood), "done 1"};
  const std::vector<std::string> bad = {checksum("kernel_0", kBad), "done 2"};
  const Verdict verdict = judge(four_configs({run("nvcc-O0", good), run("nvcc-O3", bad), run("clang-O0", good),
                                              run("clang-O3", good)}),
                                JudgeOptions{});
  ASSERT_EQ(verdict.findings.size(), 2u) << verdict.headline();
  EXPECT_EQ(verdict.findings[0].kind, FindingKind::wrong_code);
  EXPECT_EQ(verdict.findings[1].kind, FindingKind::run_mismatch);
}

TEST(JudgeExpectedOutput, AChecksumOfAnUnpredictedKernelIsOnlyComparedBetweenRuns) {
  Observations observations = four_configs(
      {run("nvcc-O0", {checksum("s7/kernel_0", kGood)}), run("nvcc-O3", {checksum("s7/kernel_0", kBad)}),
       run("clang-O0", {checksum("s7/kernel_0", kGood)}), run("clang-O3", {checksum("s7/kernel_0", kGood)})});
  const Verdict verdict = judge(observations, JudgeOptions{});
  ASSERT_EQ(verdict.findings.size(), 1u) << verdict.headline();
  EXPECT_EQ(verdict.findings[0].kind, FindingKind::run_mismatch);
  // In a batch, the prediction names the kernels as "s<seed>/kernel_N".
  observations.expected_checksums = {{"s7/kernel_0", kGood}};
  const Verdict batch = judge(observations, JudgeOptions{});
  ASSERT_EQ(batch.findings.size(), 1u) << batch.headline();
  EXPECT_EQ(batch.findings[0].kind, FindingKind::wrong_code);
  EXPECT_EQ(strings_of(batch.findings[0].details.at("differing_kernels")), std::vector<std::string>{"s7/kernel_0"});
}

TEST(JudgeExpectedOutput, WithoutAPredictionRunsAreJudgedAsBefore) {
  Observations observations = four_configs(
      {run("nvcc-O0", {checksum("kernel_0", kBad)}), run("nvcc-O3", {checksum("kernel_0", kBad)}),
       run("clang-O0", {checksum("kernel_0", kBad)}), run("clang-O3", {checksum("kernel_0", kBad)})});
  observations.expected_checksums.clear();
  EXPECT_TRUE(judge(observations, JudgeOptions{}).agree());
}

} // namespace
} // namespace cudiff::oracle
