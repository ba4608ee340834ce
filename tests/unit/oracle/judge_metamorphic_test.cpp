// Unit tests for the metamorphic oracle: a batch's variant kernels against their originals, and
// how it shares causes with the expected-output oracle (one cause, one finding).
#include "oracle/oracle.h"

#include <gtest/gtest.h>

namespace cudiff::oracle {
namespace {

using runners::CompilerKind;

constexpr const char* kGood = "00000000deadbeef";
constexpr const char* kBad = "00000000feedface";
constexpr const char* kOther = "0123456789abcdef";
const char* const kConfigs[] = {"nvcc-O3", "clang-O3", "nvcc-O3-ptxas0", "clang-O0"};

CompileObservation accepted(std::string config) {
  CompileObservation observation;
  observation.config = std::move(config);
  observation.compiler = observation.config.starts_with("nvcc") ? CompilerKind::nvcc : CompilerKind::clang;
  observation.outcome = CompileOutcome::accepted;
  return observation;
}

/// What one config printed for s7/kernel_0 (the original) and s7v1/kernel_0 (its variant).
struct Printed {
  std::string original = kGood;
  std::string variant = kGood;
  int exit_code = 0;
};

/// The four configs' runs of a batch with seed 7 and its variant 1; the prediction is kGood
/// for both kernels (a variant keeps its original's expected checksums).
Observations batch(const std::map<std::string, Printed>& printed) {
  Observations observations;
  for (const char* config : kConfigs) {
    observations.compiles.push_back(accepted(config));
    const auto found = printed.find(config);
    const Printed p = found == printed.end() ? Printed{} : found->second;
    RunObservation run;
    run.config = config;
    run.exit_code = p.exit_code;
    run.status_text = "exit " + std::to_string(p.exit_code);
    run.output_lines = {"checksum s7/kernel_0 " + p.original, "checksum s7v1/kernel_0 " + p.variant};
    observations.runs.push_back(std::move(run));
  }
  observations.expected_checksums = {{"s7/kernel_0", kGood}, {"s7v1/kernel_0", kGood}};
  observations.variant_kernels = {{"s7v1/kernel_0", "s7/kernel_0", {"dead_code", "loop_peel"}}};
  return observations;
}

std::vector<std::string> strings_of(const boost::json::value& value) {
  std::vector<std::string> strings;
  for (const auto& item : value.as_array()) strings.emplace_back(item.as_string());
  return strings;
}

std::vector<FindingKind> kinds(const Verdict& verdict) {
  std::vector<FindingKind> found;
  for (const Finding& finding : verdict.findings) found.push_back(finding.kind);
  return found;
}

TEST(JudgeMetamorphic, VariantsPrintingTheirOriginalsAgree) {
  const Verdict verdict = judge(batch({}), JudgeOptions{});
  EXPECT_TRUE(verdict.agree()) << verdict.headline();
  EXPECT_NE(verdict.agreement.find("1 variant kernels print their originals' checksums"), std::string::npos)
      << verdict.agreement;
}

TEST(JudgeMetamorphic, OneConfigsVariantDepartingIsOneMetamorphicFindingAlone) {
  const Verdict verdict = judge(batch({{"nvcc-O3", Printed{kGood, kBad}}}), JudgeOptions{});
  ASSERT_EQ(kinds(verdict), std::vector<FindingKind>{FindingKind::metamorphic}) << verdict.headline();
  const Finding& finding = verdict.findings.front();
  EXPECT_EQ(finding.configs.front(), "nvcc-O3");
  EXPECT_EQ(strings_of(finding.details.at("differing")), std::vector<std::string>{"nvcc-O3"});
  EXPECT_EQ(strings_of(finding.details.at("matching")),
            (std::vector<std::string>{"clang-O3", "nvcc-O3-ptxas0", "clang-O0"}));
  EXPECT_EQ(strings_of(finding.details.at("differing_kernels")), std::vector<std::string>{"s7v1/kernel_0"});
  const auto& variant = finding.details.at("variants").as_array().front().as_object();
  EXPECT_EQ(variant.at("original").as_string(), "s7/kernel_0");
  EXPECT_EQ(strings_of(variant.at("transforms")), (std::vector<std::string>{"dead_code", "loop_peel"}));
  EXPECT_EQ(variant.at("values").at("nvcc-O3").at("variant").as_string(), kBad);
  EXPECT_FALSE(finding.details.at("every_config").as_bool());
  EXPECT_NE(finding.summary.find("s7v1/kernel_0 prints 0x00000000feedface"), std::string::npos) << finding.summary;
  EXPECT_EQ(to_string(FindingKind::metamorphic), "metamorphic");
  EXPECT_EQ(parse_finding_kind("metamorphic"), FindingKind::metamorphic);
}

TEST(JudgeMetamorphic, EveryConfigAgreeingOnTheWrongVariantValueIsStillAFinding) {
  std::map<std::string, Printed> printed;
  for (const char* config : kConfigs) printed[config] = Printed{kGood, kOther};
  const Verdict verdict = judge(batch(printed), JudgeOptions{});
  ASSERT_EQ(kinds(verdict), std::vector<FindingKind>{FindingKind::metamorphic}) << verdict.headline();
  EXPECT_TRUE(verdict.findings.front().details.at("every_config").as_bool());
  EXPECT_NE(verdict.findings.front().summary.find("every config"), std::string::npos);
}

TEST(JudgeMetamorphic, AnOriginalOffItsPredictionIsWrongCodeOnly) {
  // The variant prints what the original printed: one miscompilation, filed once, as wrong code.
  const Verdict same = judge(batch({{"clang-O3", Printed{kBad, kBad}}}), JudgeOptions{});
  ASSERT_EQ(kinds(same), std::vector<FindingKind>{FindingKind::wrong_code}) << same.headline();
  EXPECT_EQ(strings_of(same.findings.front().details.at("differing_kernels")), std::vector<std::string>{"s7/kernel_0"});
  // The variant escapes it (prints the prediction): still the original's wrong code alone.
  const Verdict escaped = judge(batch({{"clang-O3", Printed{kBad, kGood}}}), JudgeOptions{});
  EXPECT_EQ(kinds(escaped), std::vector<FindingKind>{FindingKind::wrong_code}) << escaped.headline();
}

TEST(JudgeMetamorphic, TwoCausesInTwoConfigsAreTwoFindings) {
  const Verdict verdict = judge(batch({{"nvcc-O3", Printed{kGood, kBad}}, {"clang-O0", Printed{kOther, kOther}}}),
                                JudgeOptions{});
  EXPECT_EQ(kinds(verdict), (std::vector<FindingKind>{FindingKind::wrong_code, FindingKind::metamorphic}))
      << verdict.headline();
}

TEST(JudgeMetamorphic, AFailedRunIsNotComparedAndStaysARunMismatch) {
  const Verdict verdict = judge(batch({{"nvcc-O3", Printed{kGood, kBad, 1}}}), JudgeOptions{});
  EXPECT_EQ(kinds(verdict), std::vector<FindingKind>{FindingKind::run_mismatch}) << verdict.headline();
}

TEST(JudgeMetamorphic, WithoutPairsAVariantKernelIsHeldToThePrediction) {
  // A lone variant (no original beside it) is compared with the prediction like any program.
  Observations observations = batch({{"nvcc-O3", Printed{kGood, kBad}}});
  observations.variant_kernels.clear();
  const Verdict verdict = judge(observations, JudgeOptions{});
  EXPECT_EQ(kinds(verdict), std::vector<FindingKind>{FindingKind::wrong_code}) << verdict.headline();
}

} // namespace
} // namespace cudiff::oracle
