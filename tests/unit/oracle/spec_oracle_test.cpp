// The spec oracle: compile outcomes judged against what the rules say a program must do
// (oracle/judge_expected.cpp), their triage signatures, and known differences by rule.
#include "support/test_support.h"

#include "oracle/oracle.h"
#include "triage/triage.h"

#include <gtest/gtest.h>

namespace {

using namespace cudiff::oracle;
using cudiff::runners::CompilerKind;
using cudiff::test::contains;

CompileObservation accepted(const std::string& config, CompilerKind compiler) {
  CompileObservation observation;
  observation.config = config;
  observation.compiler = compiler;
  observation.outcome = CompileOutcome::accepted;
  return observation;
}

CompileObservation rejected(const std::string& config, CompilerKind compiler, int line, const std::string& message) {
  CompileObservation observation = accepted(config, compiler);
  observation.outcome = CompileOutcome::rejected;
  Diagnostic error;
  error.severity = Severity::error;
  error.id = message_template(message);
  error.file = "/tmp/x/edge.cu";
  error.line = line;
  error.message = message;
  observation.diagnostics.push_back(error);
  return observation;
}

Verdict judge_with(std::vector<CompileObservation> compiles, std::optional<Expectation> expected) {
  Observations observations;
  observations.compiles = std::move(compiles);
  observations.expected = std::move(expected);
  return judge(observations, JudgeOptions{});
}

const Expectation must_reject{true, "R-MANAGED-DECLTYPE", 184};

TEST(SpecOracle, AcceptingAMustRejectProgramIsAMissedDiagnosticNamingTheRule) {
  const Verdict verdict = judge_with({rejected("nvcc-O3", CompilerKind::nvcc, 184,
                                               "a __managed__ variable cannot be used"),
                                      accepted("clang-O3", CompilerKind::clang)},
                                     must_reject);
  ASSERT_EQ(verdict.findings.size(), 1u);
  const Finding& finding = verdict.findings.front();
  EXPECT_EQ(finding.kind, FindingKind::missed_diagnostic);
  EXPECT_TRUE(contains(finding.summary, "clang-O3")) << finding.summary;
  EXPECT_TRUE(contains(finding.summary, "R-MANAGED-DECLTYPE")) << finding.summary;
  EXPECT_EQ(finding.details.at("rule").as_string(), "R-MANAGED-DECLTYPE");
  EXPECT_EQ(finding.details.at("diagnosed_at_line").as_array().size(), 1u) << "nvcc's error is on the planted line";

  const cudiff::triage::Signature signature = cudiff::triage::signature_of(finding, "");
  EXPECT_EQ(signature.kind, "missed_diagnostic");
  EXPECT_EQ(signature.side, "clang");
  EXPECT_TRUE(contains(signature.symptom, "rule R-MANAGED-DECLTYPE")) << signature.symptom;
  EXPECT_TRUE(contains(signature.title, "R-MANAGED-DECLTYPE")) << signature.title;
}

TEST(SpecOracle, MissedDiagnosticsOfDifferentRulesAreDifferentBuckets) {
  auto key = [](const std::string& rule) {
    const Verdict verdict = judge_with({accepted("nvcc-O3", CompilerKind::nvcc),
                                        accepted("clang-O3", CompilerKind::clang)},
                                       Expectation{true, rule, 10});
    EXPECT_EQ(verdict.findings.size(), 1u);
    return cudiff::triage::signature_of(verdict.findings.front(), "");
  };
  EXPECT_NE(key("R-A").key, key("R-B").key);
  EXPECT_EQ(key("R-A").key, key("R-A").key);
  EXPECT_EQ(key("R-A").side, "clang+nvcc");
  // The line is where the plant landed in one program, not part of the bug.
  const Verdict elsewhere = judge_with({accepted("nvcc-O3", CompilerKind::nvcc),
                                        accepted("clang-O3", CompilerKind::clang)},
                                       Expectation{true, "R-A", 99});
  EXPECT_EQ(cudiff::triage::signature_of(elsewhere.findings.front(), "").key, key("R-A").key);
}

TEST(SpecOracle, RejectingAMustRejectProgramEverywhereIsAgreementThatNamesTheRule) {
  const Verdict verdict = judge_with({rejected("nvcc-O3", CompilerKind::nvcc, 184, "bad"),
                                      rejected("clang-O3", CompilerKind::clang, 12, "other")},
                                     must_reject);
  EXPECT_TRUE(verdict.agree());
  EXPECT_TRUE(contains(verdict.agreement, "as R-MANAGED-DECLTYPE requires")) << verdict.agreement;
}

TEST(SpecOracle, RejectingAValidProgramIsAFalseRejectionEvenWhenEveryoneDoes) {
  const Verdict one = judge_with({accepted("nvcc-O3", CompilerKind::nvcc),
                                  rejected("clang-O3", CompilerKind::clang, 5, "no 'x'")},
                                 Expectation{});
  ASSERT_EQ(one.findings.size(), 1u);
  EXPECT_EQ(one.findings.front().kind, FindingKind::false_rejection);
  EXPECT_EQ(cudiff::triage::signature_of(one.findings.front(), "").side, "clang");
  const Verdict both = judge_with({rejected("nvcc-O3", CompilerKind::nvcc, 5, "a"),
                                   rejected("clang-O3", CompilerKind::clang, 5, "b")},
                                  Expectation{});
  ASSERT_EQ(both.findings.size(), 1u) << "without an expectation this would be agreement";
  EXPECT_EQ(both.findings.front().kind, FindingKind::false_rejection);
  const Verdict plain = judge_with({rejected("nvcc-O3", CompilerKind::nvcc, 5, "a"),
                                    rejected("clang-O3", CompilerKind::clang, 5, "b")},
                                   std::nullopt);
  EXPECT_TRUE(plain.agree());
}

TEST(SpecOracle, ACrashIsACrashWhateverWasExpected) {
  CompileObservation crashed = accepted("clang-O3", CompilerKind::clang);
  crashed.outcome = CompileOutcome::crashed;
  crashed.crash = Crash{"clang", "backend error", "fatal error: error in backend"};
  const Verdict verdict = judge_with({rejected("nvcc-O3", CompilerKind::nvcc, 3, "x"), crashed}, must_reject);
  ASSERT_EQ(verdict.findings.size(), 1u);
  EXPECT_EQ(verdict.findings.front().kind, FindingKind::crash);
}

// Expectations from sidecars: tests/unit/pipeline/sidecar_expectation_test.cpp.
TEST(SpecOracle, ExpectationsComeFromExpectedErrorComments) {
  const auto marked = expectation_from_source("int a;\n\nint b[0]; // expected-error: R-ZERO-ARRAY\n");
  ASSERT_TRUE(marked);
  EXPECT_EQ(*marked, (Expectation{true, "R-ZERO-ARRAY", 3}));
  EXPECT_FALSE(expectation_from_source("int a; // expected error\n"));
}

TEST(SpecOracle, KnownDifferencesMatchMissedDiagnosticsByRuleAndByRulePrefix) {
  const auto known = cudiff::triage::KnownDifferences::parse(R"({"known": [
      {"kind": "missed_diagnostic", "side": "clang", "id": "R-EXTLAM-*", "reason": "no extended-lambda mode"},
      {"kind": "missed_diagnostic", "side": "clang", "id": "R-ONE", "reason": "one rule"}]})",
                                                             "test");
  auto signature = [](const std::string& rule) {
    const Verdict verdict = judge_with({rejected("nvcc-O3", CompilerKind::nvcc, 1, "x"),
                                        accepted("clang-O3", CompilerKind::clang)},
                                       Expectation{true, rule, 1});
    return cudiff::triage::signature_of(verdict.findings.front(), "");
  };
  ASSERT_NE(known.match(signature("R-EXTLAM-03-OUTER-IN-FN")), nullptr);
  EXPECT_EQ(known.match(signature("R-EXTLAM-03-OUTER-IN-FN"))->reason, "no extended-lambda mode");
  ASSERT_NE(known.match(signature("R-ONE")), nullptr);
  EXPECT_EQ(known.match(signature("R-ONE-MORE")), nullptr) << "only ids ending in * are prefixes";
  EXPECT_EQ(known.match(signature("R-OTHER")), nullptr);
}

} // namespace
