// Unit tests for stage-aware rejection (late_rejection): when every config rejects, a front
// end's diagnostic against a later stage's failure in another compiler.
#include "oracle/oracle.h"

#include <gtest/gtest.h>

namespace cudiff::oracle {
namespace {

using runners::CompilerKind;

Diagnostic error(Tool tool, std::string id, std::string message, int line = 0) {
  Diagnostic d;
  d.severity = Severity::error;
  d.id = std::move(id);
  d.message = std::move(message);
  d.tool = tool;
  if (line > 0) {
    d.file = "/tmp/x/prog.cu";
    d.line = line;
  }
  return d;
}

CompileObservation rejected(std::string config, CompilerKind compiler, std::vector<Diagnostic> diagnostics) {
  CompileObservation observation;
  observation.config = std::move(config);
  observation.compiler = compiler;
  observation.outcome = CompileOutcome::rejected;
  observation.diagnostics = std::move(diagnostics);
  return observation;
}

/// The compiles and the expectation, set by name: new Observations fields need no change here.
Observations observed(std::vector<CompileObservation> compiles, std::optional<Expectation> expected = std::nullopt) {
  Observations observations;
  observations.compiles = std::move(compiles);
  observations.expected = std::move(expected);
  return observations;
}

CompileObservation front_end_rejection() {
  return rejected("clang-O3", CompilerKind::clang,
                  {error(Tool::frontend, "cannot store to a constant variable", "cannot store to 'c'", 4)});
}

// clang's driver adds its own line after ptxas' errors; the ptxas error is what counts.
CompileObservation ptxas_rejection(std::string config = "nvcc-O3", CompilerKind compiler = CompilerKind::nvcc) {
  return rejected(std::move(config), compiler,
                  {error(Tool::ptxas, "State space mismatch", "State space mismatch between instruction and address"),
                   error(Tool::driver, "ptxas command failed with exit code N", "ptxas command failed")});
}

TEST(JudgeLateRejection, FrontEndAgainstPtxasIsALateRejection) {
  const Verdict verdict = judge(observed({ptxas_rejection(), front_end_rejection()}), {});
  ASSERT_EQ(verdict.findings.size(), 1u) << verdict.headline();
  const Finding& finding = verdict.findings[0];
  EXPECT_EQ(finding.kind, FindingKind::late_rejection);
  EXPECT_EQ(finding.details.at("frontend_error_id").as_string(), "cannot store to a constant variable");
  EXPECT_EQ(finding.details.at("late").at(0).at("stage").as_string(), "ptxas");
  EXPECT_EQ(finding.details.at("late").at(0).at("first_error").at("tool").as_string(), "ptxas");
  EXPECT_EQ(finding.details.at("stage").as_string(), "frontend");
  EXPECT_EQ(finding.configs, (std::vector<std::string>{"clang-O3", "nvcc-O3"}));
  EXPECT_NE(finding.summary.find("nvcc-O3 in ptxas"), std::string::npos) << finding.summary;
}

TEST(JudgeLateRejection, BothFrontEndsRejectingIsAgreement) {
  CompileObservation nvcc = rejected("nvcc-O3", CompilerKind::nvcc, {error(Tool::frontend, "x", "x", 4)});
  const Verdict verdict = judge(observed({nvcc, front_end_rejection()}), {});
  EXPECT_TRUE(verdict.agree()) << verdict.headline();
}

TEST(JudgeLateRejection, EveryCompilerFailingLateIsAgreementWithoutAnExpectation) {
  const Verdict verdict = judge(observed({ptxas_rejection(), ptxas_rejection("clang-O3", CompilerKind::clang)}), {});
  EXPECT_TRUE(verdict.agree()) << verdict.headline();
  EXPECT_NE(verdict.agreement.find("in ptxas"), std::string::npos) << verdict.agreement;
}

TEST(JudgeLateRejection, AnEdgeProgramIsAgreementOnlyWhenEveryFrontEndRejectsIt) {
  const Expectation edge{true, "R-CONST-WRITE", 4};
  Observations both_front{{rejected("nvcc-O3", CompilerKind::nvcc, {error(Tool::frontend, "x", "x", 4)}),
                           front_end_rejection()},
                          {},
                          {},
                          {},
                          edge,
                          {}};
  EXPECT_TRUE(judge(both_front, {}).agree());

  const Verdict one_late = judge(observed({ptxas_rejection(), front_end_rejection()}, edge), {});
  ASSERT_EQ(one_late.findings.size(), 1u) << one_late.headline();
  EXPECT_EQ(one_late.findings[0].kind, FindingKind::late_rejection);
  EXPECT_EQ(one_late.findings[0].details.at("rule").as_string(), "R-CONST-WRITE");

  const Verdict all_late = judge(observed({ptxas_rejection(), ptxas_rejection("clang-O3", CompilerKind::clang)}, edge),
                                 {});
  ASSERT_EQ(all_late.findings.size(), 1u) << all_late.headline();
  EXPECT_EQ(all_late.findings[0].kind, FindingKind::late_rejection);
  EXPECT_NE(all_late.findings[0].summary.find("no front end diagnoses R-CONST-WRITE"), std::string::npos)
      << all_late.findings[0].summary;
}

// R-EXTERN-CALL-SAME-UNIT's evidence: both compilers reject it after their front ends, by
// design (ptxas finds no definition in whole-program mode). Every config failing late is then
// the rule's diagnostic; a front end rejecting it while the other fails late is still a finding.
TEST(JudgeLateRejection, EveryCompilerFailingLateIsTheDiagnosticWhereTheEvidenceSaysSo) {
  const Expectation edge{true, "R-EXTERN-CALL-SAME-UNIT", 6};
  const Verdict all_late = judge(observed({ptxas_rejection(), ptxas_rejection("clang-O3", CompilerKind::clang)}, edge),
                                 {});
  EXPECT_TRUE(all_late.agree()) << all_late.headline();
  const Verdict one_late = judge(observed({ptxas_rejection(), front_end_rejection()}, edge), {});
  ASSERT_EQ(one_late.findings.size(), 1u) << one_late.headline();
  EXPECT_EQ(one_late.findings[0].kind, FindingKind::late_rejection);
}

// R-KPARAM-4KB's evidence: nvcc rejects it at the kernel's line, from cicc (code generation,
// not its front end), clang in ptxas. Both as the evidence says is the rule's diagnostic; cicc
// erring elsewhere, or clang's front end silent while nvcc's rejects, stays a finding.
TEST(JudgeLateRejection, ACodeGeneratorErrorAtTheMarkerLineIsTheDiagnosticWhereTheEvidenceSaysSo) {
  const Expectation edge{true, "R-KPARAM-4KB", 4};
  const auto cicc = [](int line) {
    return rejected("nvcc-O3", CompilerKind::nvcc,
                    {error(Tool::device_codegen, "Formal parameter space overflowed",
                           "Formal parameter space overflowed", line)});
  };
  const CompileObservation clang = ptxas_rejection("clang-O3", CompilerKind::clang);
  const Verdict as_measured = judge(observed({cicc(4), clang}, edge), {});
  EXPECT_TRUE(as_measured.agree()) << as_measured.headline();
  const Verdict elsewhere = judge(observed({cicc(9), clang}, edge), {});
  ASSERT_EQ(elsewhere.findings.size(), 1u) << elsewhere.headline();
  EXPECT_EQ(elsewhere.findings[0].kind, FindingKind::late_rejection);
  const Verdict front_end = judge(
      observed({rejected("nvcc-O3", CompilerKind::nvcc, {error(Tool::frontend, "x", "x", 4)}), clang}, edge), {});
  ASSERT_EQ(front_end.findings.size(), 1u) << front_end.headline();
  EXPECT_EQ(front_end.findings[0].kind, FindingKind::late_rejection);
}

// R-RTTI-DYNCAST: clang 22 leaves dynamic_cast in device code to ptxas while nvcc's front end
// rejects it; the rule's evidence links the later clang that rejects it in Sema, so the late
// rejection carries that link and is filed as reported.
TEST(JudgeLateRejection, ALateRejectionReportedUpstreamCarriesTheLink) {
  const Expectation edge{true, "R-RTTI-DYNCAST", 6};
  const CompileObservation nvcc = rejected("nvcc-O3", CompilerKind::nvcc,
                                           {error(Tool::frontend, "The operator '_' is not allowed in device code",
                                                  "The operator 'dynamic_cast' ...", 6)});
  const Verdict verdict = judge(observed({nvcc, ptxas_rejection("clang-O3", CompilerKind::clang)}, edge), {});
  ASSERT_EQ(verdict.findings.size(), 1u) << verdict.headline();
  EXPECT_EQ(verdict.findings[0].kind, FindingKind::late_rejection);
  const auto* upstream = verdict.findings[0].details.if_contains("upstream");
  ASSERT_NE(upstream, nullptr) << boost::json::serialize(verdict.findings[0].details);
  EXPECT_EQ(upstream->at("compiler").as_string(), "clang");
  EXPECT_NE(std::string(upstream->at("url").as_string()).find("device-rtti.cu"), std::string::npos);
  // A rule without such evidence: no link.
  const Verdict other = judge(observed({nvcc, ptxas_rejection("clang-O3", CompilerKind::clang)},
                                       Expectation{true, "R-EXTERN-CALL-SAME-UNIT", 6}),
                              {});
  ASSERT_EQ(other.findings.size(), 1u) << other.headline();
  EXPECT_EQ(other.findings[0].details.if_contains("upstream"), nullptr);
}

TEST(JudgeLateRejection, AMustAcceptProgramIsAFalseRejectionOnly) {
  const Verdict verdict = judge(observed({ptxas_rejection(), front_end_rejection()}, Expectation{}), {});
  ASSERT_EQ(verdict.findings.size(), 1u) << verdict.headline();
  EXPECT_EQ(verdict.findings[0].kind, FindingKind::false_rejection);
}

TEST(JudgeLateRejection, ACrashIsNotALateRejection) {
  CompileObservation crashed;
  crashed.config = "clang-O3";
  crashed.compiler = CompilerKind::clang;
  crashed.outcome = CompileOutcome::crashed;
  crashed.crash = Crash{"clang", "backend error", "LLVM ERROR: Cannot select: ..."};
  const Verdict verdict = judge(observed({rejected("nvcc-O3", CompilerKind::nvcc, {error(Tool::frontend, "x", "x", 4)}),
                                          crashed}),
                                {});
  ASSERT_EQ(verdict.findings.size(), 1u) << verdict.headline();
  EXPECT_EQ(verdict.findings[0].kind, FindingKind::crash);
}

// A front end's error anywhere in the output decides (a driver line may come first); else the
// first error's tool: here nvcc's host compiler.
TEST(JudgeLateRejection, TheStageIsAFrontEndErrorAnywhereElseTheFirstErrorsTool) {
  CompileObservation clang = rejected("clang-O3", CompilerKind::clang,
                                      {error(Tool::driver, "some driver complaint", "some driver complaint"),
                                       error(Tool::frontend, "no matching function", "no matching function", 7)});
  CompileObservation nvcc = rejected("nvcc-O3", CompilerKind::nvcc,
                                     {error(Tool::host_compiler, "expected ';'", "expected ';' before '}'", 9)});
  const Verdict verdict = judge(observed({nvcc, clang}), {});
  ASSERT_EQ(verdict.findings.size(), 1u) << verdict.headline();
  EXPECT_EQ(verdict.findings[0].details.at("frontend_error_id").as_string(), "no matching function");
  EXPECT_EQ(verdict.findings[0].details.at("late").at(0).at("stage").as_string(), "host_compiler");
}

} // namespace
} // namespace cudiff::oracle
