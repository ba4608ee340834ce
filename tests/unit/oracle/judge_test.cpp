// Unit tests for judge(), Verdict::headline() and the oracle's JSON, on hand-built observations.
#include "oracle/oracle.h"

#include <gtest/gtest.h>

namespace cudiff::oracle {
namespace {

using runners::CompilerKind;

Diagnostic diagnostic(Severity severity, std::string id, std::string message, int line,
                      std::string file = "/tmp/cudiff-abc/prog.cu") {
  Diagnostic d;
  d.severity = severity;
  d.id = std::move(id);
  d.message = std::move(message);
  d.file = std::move(file);
  d.line = line;
  return d;
}

Diagnostic error(std::string id, std::string message, int line = 3) {
  return diagnostic(Severity::error, std::move(id), std::move(message), line);
}

Diagnostic warning(std::string id, std::string message, int line) {
  return diagnostic(Severity::warning, std::move(id), std::move(message), line);
}

CompileObservation compile(std::string config, CompilerKind compiler, CompileOutcome outcome,
                           std::vector<Diagnostic> diagnostics = {}) {
  CompileObservation observation;
  observation.config = std::move(config);
  observation.compiler = compiler;
  observation.outcome = outcome;
  observation.diagnostics = std::move(diagnostics);
  return observation;
}

CompileObservation accepted(std::string config, CompilerKind compiler, std::vector<Diagnostic> diagnostics = {}) {
  return compile(std::move(config), compiler, CompileOutcome::accepted, std::move(diagnostics));
}

CompileObservation rejected(std::string config, CompilerKind compiler, std::vector<Diagnostic> diagnostics) {
  return compile(std::move(config), compiler, CompileOutcome::rejected, std::move(diagnostics));
}

CompileObservation crashed(std::string config, CompilerKind compiler, Crash crash) {
  CompileObservation observation = compile(std::move(config), compiler, CompileOutcome::crashed);
  observation.crash = std::move(crash);
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

RunObservation timed_out_run(std::string config) {
  RunObservation observation = run(std::move(config), {"partial"}, -1);
  observation.timed_out = true;
  observation.signal = 9;
  observation.seconds = 10;
  observation.status_text = "timed out after 10 s";
  return observation;
}

Verdict judge_compiles(std::vector<CompileObservation> compiles, bool warnings = false) {
  return judge(Observations{std::move(compiles), {}, {}, {}, {}}, JudgeOptions{warnings});
}

Observations accepted_pair(std::vector<RunObservation> runs) {
  return Observations{{accepted("nvcc-O3", CompilerKind::nvcc), accepted("clang-O3", CompilerKind::clang)},
                      std::move(runs),
                      {},
                      {},
                      {}};
}

std::vector<std::string> strings(const boost::json::value& value) {
  std::vector<std::string> result;
  for (const auto& item : value.as_array()) result.emplace_back(item.as_string());
  return result;
}

// ---- compile status ---------------------------------------------------------------------

TEST(JudgeCompile, AgreesWhenAllAccept) {
  const Verdict verdict = judge_compiles(
      {accepted("nvcc-O3", CompilerKind::nvcc), accepted("clang-O3", CompilerKind::clang)});
  EXPECT_TRUE(verdict.agree());
  EXPECT_EQ(verdict.agreement, "all accept");
  EXPECT_EQ(verdict.headline(), "agree: all accept");
}

TEST(JudgeCompile, AgreesWhenAllRejectWithDifferentMessages) {
  const Verdict verdict = judge_compiles(
      {rejected("nvcc-O3", CompilerKind::nvcc, {error("identifier _ is undefined", "identifier \"x\" is undefined")}),
       rejected("clang-O3", CompilerKind::clang,
                {error("use of undeclared identifier _", "use of undeclared identifier 'x'", 4)})});
  EXPECT_TRUE(verdict.agree());
  EXPECT_EQ(verdict.agreement, "none accepts (all reject)");
}

TEST(JudgeCompile, MismatchWhenOneAcceptsAndOneRejects) {
  const Verdict verdict = judge_compiles(
      {accepted("nvcc-O3", CompilerKind::nvcc),
       rejected("clang-O3", CompilerKind::clang,
                {error("zeta _", "zeta 'q'", 7), warning("-Wunused", "unused", 2), error("alpha _", "alpha 'q'", 9),
                 error("zeta _", "zeta 'r'", 8)})});
  ASSERT_EQ(verdict.findings.size(), 1u);
  const Finding& finding = verdict.findings[0];
  EXPECT_EQ(finding.kind, FindingKind::compile_status_mismatch);
  EXPECT_EQ(finding.configs, (std::vector<std::string>{"nvcc-O3", "clang-O3"}));
  EXPECT_EQ(finding.summary, "accepted by nvcc-O3, rejected by clang-O3: error: zeta 'q' (prog.cu:7)");
  const auto& details = finding.details;
  ASSERT_EQ(details.at("accepted").as_array().size(), 1u);
  EXPECT_EQ(details.at("accepted").as_array()[0].at("config").as_string(), "nvcc-O3");
  ASSERT_EQ(details.at("rejected").as_array().size(), 1u);
  const auto& rejecting = details.at("rejected").as_array()[0];
  EXPECT_EQ(rejecting.at("config").as_string(), "clang-O3");
  EXPECT_EQ(rejecting.at("first_error").at("message").as_string(), "zeta 'q'");
  EXPECT_EQ(strings(details.at("rejected_error_ids")), (std::vector<std::string>{"alpha _", "zeta _"}));
  EXPECT_FALSE(verdict.agree());
}

TEST(JudgeCompile, CrashIsAFindingEvenWhenTheOtherRejects) {
  const Verdict verdict = judge_compiles(
      {rejected("nvcc-O3", CompilerKind::nvcc, {error("e", "bad")}),
       crashed("clang-O3", CompilerKind::clang,
               {"clang", "signal 11", "PLEASE submit a bug report to https://github.com/llvm\nStack dump:"})});
  ASSERT_EQ(verdict.findings.size(), 1u);
  const Finding& finding = verdict.findings[0];
  EXPECT_EQ(finding.kind, FindingKind::crash);
  EXPECT_EQ(finding.configs, std::vector<std::string>{"clang-O3"});
  EXPECT_EQ(finding.summary,
            "clang-O3: clang crashed (signal 11): PLEASE submit a bug report to https://github.com/llvm");
  EXPECT_EQ(finding.details.at("stage").as_string(), "clang");
  EXPECT_EQ(finding.details.at("reason").as_string(), "signal 11");
  EXPECT_EQ(finding.details.at("compiler").as_string(), runners::to_string(CompilerKind::clang));
  EXPECT_NE(finding.details.at("excerpt").as_string().find("Stack dump:"), boost::json::string::npos);
}

TEST(JudgeCompile, CrashAndMismatchOfTheOthersWithThreeConfigs) {
  const Verdict verdict = judge_compiles(
      {accepted("nvcc-O3", CompilerKind::nvcc),
       crashed("clang-O0", CompilerKind::clang, {"clang", "assertion", "Assertion `x' failed."}),
       rejected("clang-O3", CompilerKind::clang, {error("e _", "e 'x'")})});
  ASSERT_EQ(verdict.findings.size(), 2u);
  EXPECT_EQ(verdict.findings[0].kind, FindingKind::compile_status_mismatch);
  EXPECT_EQ(verdict.findings[0].configs, (std::vector<std::string>{"nvcc-O3", "clang-O3"}));
  EXPECT_EQ(verdict.findings[1].kind, FindingKind::crash);
  EXPECT_EQ(verdict.findings[1].configs, std::vector<std::string>{"clang-O0"});
  EXPECT_EQ(verdict.headline(), "DISCREPANCY: accepted by nvcc-O3, rejected by clang-O3: error: e "
                                "'x' (prog.cu:3) (and 1 more finding)");
}

TEST(JudgeCompile, CrashesOfBothAreTwoFindingsNotAgreement) {
  const Verdict verdict = judge_compiles(
      {crashed("nvcc-O3", CompilerKind::nvcc, {"cicc", "signal 6", "Aborted"}),
       crashed("clang-O3", CompilerKind::clang, {"clang", "signal 11", "Segfault"})});
  ASSERT_EQ(verdict.findings.size(), 2u);
  EXPECT_EQ(verdict.findings[0].summary, "nvcc-O3: cicc crashed (signal 6): Aborted");
  EXPECT_EQ(verdict.findings[1].configs, std::vector<std::string>{"clang-O3"});
}

TEST(JudgeCompile, SummaryIsOneShortLine) {
  const Verdict verdict = judge_compiles(
      {crashed("clang-O3", CompilerKind::clang, {"clang", "signal\n11", std::string(500, 'x')})});
  ASSERT_EQ(verdict.findings.size(), 1u);
  const std::string& summary = verdict.findings[0].summary;
  EXPECT_EQ(summary.find('\n'), std::string::npos);
  EXPECT_LE(summary.size(), 200u);
  EXPECT_GT(summary.size(), 100u);
}

// ---- hangs ------------------------------------------------------------------------------

TEST(JudgeHang, CompileTimeoutIsAHang) {
  CompileObservation hung = compile("nvcc-O3", CompilerKind::nvcc, CompileOutcome::hung);
  hung.seconds = 120;
  // clang took long too: not a compile-time anomaly of nvcc's (that is a slow_compile,
  // judge_time_test.cpp), a hang.
  CompileObservation slow = accepted("clang-O3", CompilerKind::clang);
  slow.seconds = 100;
  const Verdict verdict = judge_compiles({hung, slow});
  ASSERT_EQ(verdict.findings.size(), 1u);
  EXPECT_EQ(verdict.findings[0].kind, FindingKind::hang);
  EXPECT_EQ(verdict.findings[0].configs, std::vector<std::string>{"nvcc-O3"});
  EXPECT_NE(verdict.findings[0].summary.find("nvcc-O3"), std::string::npos);
  EXPECT_EQ(verdict.findings[0].details.at("stage").as_string(), "compile");
}

TEST(JudgeHang, AllRunsTimedOutIsAHang) {
  const Verdict verdict = judge(accepted_pair({timed_out_run("nvcc-O3"), timed_out_run("clang-O3")}), JudgeOptions{});
  ASSERT_EQ(verdict.findings.size(), 1u);
  EXPECT_EQ(verdict.findings[0].kind, FindingKind::hang);
  EXPECT_EQ(verdict.findings[0].configs, (std::vector<std::string>{"nvcc-O3", "clang-O3"}));
  EXPECT_TRUE(verdict.findings[0].summary.starts_with("all runs timed out"));
}

TEST(JudgeHang, OneRunTimedOutIsARunMismatch) {
  const Verdict verdict = judge(accepted_pair({run("nvcc-O3", {"checksum 1"}), timed_out_run("clang-O3")}),
                                JudgeOptions{});
  ASSERT_EQ(verdict.findings.size(), 1u);
  EXPECT_EQ(verdict.findings[0].kind, FindingKind::run_mismatch);
  EXPECT_EQ(verdict.findings[0].summary, "status: nvcc-O3 exit 0, clang-O3 timed out after 10 s");
}

// ---- runs -------------------------------------------------------------------------------

TEST(JudgeRun, EqualRunsAgree) {
  const Verdict verdict = judge(accepted_pair({run("nvcc-O3", {"checksum k0 0x1", "checksum k1 0x2"}),
                                               run("clang-O3", {"checksum k0 0x1", "checksum k1 0x2"})}),
                                JudgeOptions{});
  EXPECT_TRUE(verdict.agree());
  EXPECT_EQ(verdict.agreement, "all accept; all runs equal (2 output lines)");
}

TEST(JudgeRun, MismatchOnExitCode) {
  const Verdict verdict = judge(accepted_pair({run("nvcc-O3", {"a"}, 0), run("clang-O3", {"a"}, 1)}), JudgeOptions{});
  ASSERT_EQ(verdict.findings.size(), 1u);
  EXPECT_EQ(verdict.findings[0].kind, FindingKind::run_mismatch);
  EXPECT_EQ(verdict.findings[0].summary, "exit code: nvcc-O3 0, clang-O3 1");
  EXPECT_EQ(verdict.findings[0].details.at("first_difference").as_string(), "exit_code");
}

TEST(JudgeRun, MismatchOnOutputLineNamesTheFirstDifferingLine) {
  const Verdict verdict = judge(accepted_pair(
                                    {run("nvcc-O3", {"checksum k0 0x1", "checksum k1 0x1234", "checksum k2 0x9"}),
                                     run("clang-O3", {"checksum k0 0x1", "checksum k1 0x1235", "checksum k2 0x8"})}),
                                JudgeOptions{});
  ASSERT_EQ(verdict.findings.size(), 1u);
  const Finding& finding = verdict.findings[0];
  EXPECT_EQ(finding.summary, "output line 2: nvcc-O3 'checksum k1 0x1234', clang-O3 'checksum k1 0x1235'");
  const auto& groups = finding.details.at("groups").as_array();
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(strings(groups[0].at("configs")), std::vector<std::string>{"nvcc-O3"});
  EXPECT_EQ(groups[1].at("first_differing_line").as_int64(), 2);
  EXPECT_EQ(groups[1].at("line").as_string(), "checksum k1 0x1235");
  EXPECT_EQ(groups[1].at("reference_line").as_string(), "checksum k1 0x1234");
  EXPECT_EQ(groups[1].at("output_line_count").as_int64(), 3);
  EXPECT_FALSE(finding.details.contains("output_truncated"));
}

TEST(JudgeRun, MismatchNamesTheKernelsOfTheFirstDifferingChecksumLines) {
  // Three groups departing at different lines: each group's first differing line counts.
  const Verdict verdict = judge(
      accepted_pair({run("nvcc-O3", {"checksum s1/k0 0x1", "checksum s2/k0 0x2", "checksum s3/k0 0x3"}),
                     run("clang-O3", {"checksum s1/k0 0x1", "checksum s2/k0 0x7", "checksum s3/k0 0x3"}),
                     run("nvcc-O0", {"checksum s1/k0 0x1", "checksum s2/k0 0x2", "CUDA error cudaMemcpy: x"})}),
      JudgeOptions{});
  ASSERT_EQ(verdict.findings.size(), 1u);
  EXPECT_EQ(strings(verdict.findings[0].details.at("differing_kernels")), (std::vector<std::string>{"s2/k0", "s3/k0"}));
  // An exit-code-only difference names no kernel.
  const Verdict exit_only = judge(accepted_pair(
                                      {run("nvcc-O3", {"checksum k 0x1"}, 0), run("clang-O3", {"checksum k 0x1"}, 3)}),
                                  JudgeOptions{});
  ASSERT_EQ(exit_only.findings.size(), 1u);
  EXPECT_TRUE(exit_only.findings[0].details.at("differing_kernels").as_array().empty());
}

TEST(JudgeRun, MissingLineAndTruncationAreReported) {
  RunObservation shorter = run("clang-O3", {"a"});
  shorter.output_truncated = true;
  const Verdict verdict = judge(accepted_pair({run("nvcc-O3", {"a", "b"}), shorter}), JudgeOptions{});
  ASSERT_EQ(verdict.findings.size(), 1u);
  EXPECT_EQ(verdict.findings[0].summary, "output line 2: nvcc-O3 'b', clang-O3 (no line)");
  EXPECT_EQ(strings(verdict.findings[0].details.at("output_truncated")), std::vector<std::string>{"clang-O3"});
  EXPECT_TRUE(verdict.findings[0].details.at("groups").as_array()[1].at("line").is_null());
}

TEST(JudgeRun, MismatchOnCudaError) {
  RunObservation failing = run("clang-O3", {"checksum k0 0x1"}, 1);
  failing.cuda_errors = {"CUDA error: an illegal memory access was encountered"};
  const Verdict verdict = judge(accepted_pair({run("nvcc-O3", {"checksum k0 0x1"}), failing}), JudgeOptions{});
  ASSERT_EQ(verdict.findings.size(), 1u);
  EXPECT_EQ(verdict.findings[0].summary,
            "CUDA error only in clang-O3: CUDA error: an illegal memory access was encountered");
  EXPECT_EQ(verdict.findings[0].details.at("first_difference").as_string(), "cuda_errors");
}

TEST(JudgeRun, ConfigsWithTheSameResultShareAGroup) {
  Observations observations = accepted_pair(
      {run("nvcc-O3", {"x 1"}), run("clang-O3", {"x 2"}), run("clang-O0", {"x 2"})});
  observations.compiles.push_back(accepted("clang-O0", CompilerKind::clang));
  const Verdict verdict = judge(observations, JudgeOptions{});
  ASSERT_EQ(verdict.findings.size(), 1u);
  EXPECT_EQ(verdict.findings[0].summary, "output line 1: nvcc-O3 'x 1', clang-O3/clang-O0 'x 2'");
  const auto& groups = verdict.findings[0].details.at("groups").as_array();
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(strings(groups[1].at("configs")), (std::vector<std::string>{"clang-O3", "clang-O0"}));
}

// ---- warnings ---------------------------------------------------------------------------

std::vector<CompileObservation> one_sided_warning() {
  return {accepted("nvcc-O3", CompilerKind::nvcc,
                   {warning("177-D", "variable \"x\" was declared but never referenced", 5),
                    warning("550-D", "variable \"y\" was set but never used", 6)}),
          accepted("clang-O3", CompilerKind::clang,
                   {warning("-Wunused-but-set-variable", "variable 'y' set but not used", 6)})};
}

TEST(JudgeWarnings, NotAFindingUnlessAskedFor) {
  const Verdict verdict = judge_compiles(one_sided_warning(), false);
  EXPECT_TRUE(verdict.agree());
}

TEST(JudgeWarnings, OneSidedWarningIsAFindingWhenAskedFor) {
  const Verdict verdict = judge_compiles(one_sided_warning(), true);
  ASSERT_EQ(verdict.findings.size(), 1u);
  const Finding& finding = verdict.findings[0];
  EXPECT_EQ(finding.kind, FindingKind::warning_mismatch);
  EXPECT_EQ(finding.configs, (std::vector<std::string>{"nvcc-O3", "clang-O3"}));
  // The warnings at line 6 differ in wording only: across compilers, locations compare.
  EXPECT_EQ(finding.summary, "warning only from nvcc-O3 at prog.cu:5: #177-D: variable \"x\" was "
                             "declared but never referenced");
  const auto& sides = finding.details.at("only_in").as_array();
  EXPECT_EQ(sides[0].at("warnings").as_array().size(), 1u);
  EXPECT_EQ(sides[1].at("warnings").as_array().size(), 0u);
}

TEST(JudgeWarnings, SameCompilerComparesIdsPerLocation) {
  const Diagnostic unused = warning("177-D", "variable \"x\" was declared but never referenced", 5);
  const Diagnostic other = warning("550-D", "variable \"x\" was set but never used", 5);
  EXPECT_TRUE(judge_compiles({accepted("nvcc-O0", CompilerKind::nvcc, {unused}),
                              accepted("nvcc-O3", CompilerKind::nvcc, {unused})},
                             true)
                  .agree());
  const Verdict verdict = judge_compiles({accepted("nvcc-O0", CompilerKind::nvcc, {unused}),
                                          accepted("nvcc-O3", CompilerKind::nvcc, {other})},
                                         true);
  ASSERT_EQ(verdict.findings.size(), 1u);
  EXPECT_EQ(verdict.findings[0].summary, "warning only from nvcc-O0 at prog.cu:5: #177-D: variable "
                                         "\"x\" was declared but never referenced");
}

TEST(JudgeWarnings, ComparesOnlyConfigsWithTheSameOutcome) {
  std::vector<CompileObservation> compiles = one_sided_warning();
  compiles[1] = rejected("clang-O3", CompilerKind::clang, {error("e", "bad")});
  const Verdict verdict = judge_compiles(compiles, true);
  ASSERT_EQ(verdict.findings.size(), 1u);
  EXPECT_EQ(verdict.findings[0].kind, FindingKind::compile_status_mismatch);
}

// ---- verdict, headline, determinism, JSON -----------------------------------------------

Observations busy_observations() {
  Observations observations{{accepted("nvcc-O3", CompilerKind::nvcc, {warning("177-D", "unused \"x\"", 5)}),
                             crashed("clang-O0", CompilerKind::clang, {"clang", "signal 11", "boom"}),
                             accepted("clang-O3", CompilerKind::clang)},
                            {run("nvcc-O3", {"a", "b"}), run("clang-O3", {"a", "c"})},
                            {},
                            {},
                            {}};
  return observations;
}

TEST(JudgeVerdict, FindingsInKindThenConfigOrder) {
  const Verdict verdict = judge(busy_observations(), JudgeOptions{true});
  ASSERT_EQ(verdict.findings.size(), 3u);
  EXPECT_EQ(verdict.findings[0].kind, FindingKind::crash);
  EXPECT_EQ(verdict.findings[1].kind, FindingKind::run_mismatch);
  EXPECT_EQ(verdict.findings[2].kind, FindingKind::warning_mismatch);
  EXPECT_EQ(verdict.headline(), "DISCREPANCY: clang-O0: clang crashed (signal 11): boom (and 2 more findings)");
  EXPECT_TRUE(verdict.agreement.empty());
}

TEST(JudgeVerdict, Deterministic) {
  const auto first = boost::json::serialize(to_json(judge(busy_observations(), JudgeOptions{true})));
  const auto second = boost::json::serialize(to_json(judge(busy_observations(), JudgeOptions{true})));
  EXPECT_EQ(first, second);
}

TEST(JudgeVerdict, HeadlineFormats) {
  Verdict verdict;
  verdict.agreement = "all accept";
  EXPECT_EQ(verdict.headline(), "agree: all accept");
  verdict.findings.push_back(Finding{FindingKind::crash, {"a"}, "first", {}});
  EXPECT_EQ(verdict.headline(), "DISCREPANCY: first");
  verdict.findings.push_back(Finding{FindingKind::hang, {"b"}, "second", {}});
  EXPECT_EQ(verdict.headline(), "DISCREPANCY: first (and 1 more finding)");
}

TEST(JudgeVerdict, FindingKindNames) {
  EXPECT_EQ(to_string(FindingKind::compile_status_mismatch), "compile_status_mismatch");
  EXPECT_EQ(to_string(FindingKind::crash), "crash");
  EXPECT_EQ(to_string(FindingKind::hang), "hang");
  EXPECT_EQ(to_string(FindingKind::run_mismatch), "run_mismatch");
  EXPECT_EQ(to_string(FindingKind::warning_mismatch), "warning_mismatch");
}

TEST(JudgeJson, DiagnosticHasEveryField) {
  Diagnostic d = error("e _", "e 'x'", 12);
  d.column = 4;
  d.tool = Tool::ptxas;
  const auto json = to_json(d).as_object();
  EXPECT_EQ(json.at("severity").as_string(), to_string(Severity::error));
  EXPECT_EQ(json.at("id").as_string(), "e _");
  EXPECT_EQ(json.at("file").as_string(), "/tmp/cudiff-abc/prog.cu");
  EXPECT_EQ(json.at("line").as_int64(), 12);
  EXPECT_EQ(json.at("column").as_int64(), 4);
  EXPECT_EQ(json.at("message").as_string(), "e 'x'");
  EXPECT_EQ(json.at("tool").as_string(), to_string(Tool::ptxas));
}

TEST(JudgeJson, CompileObservationHasEveryField) {
  const auto plain = to_json(rejected("clang-O3", CompilerKind::clang, {error("e", "bad")})).as_object();
  EXPECT_EQ(plain.at("config").as_string(), "clang-O3");
  EXPECT_EQ(plain.at("compiler").as_string(), runners::to_string(CompilerKind::clang));
  EXPECT_EQ(plain.at("outcome").as_string(), to_string(CompileOutcome::rejected));
  EXPECT_EQ(plain.at("diagnostics").as_array().size(), 1u);
  EXPECT_TRUE(plain.at("crash").is_null());
  EXPECT_TRUE(plain.contains("seconds"));
  const auto crash = to_json(crashed("c", CompilerKind::clang, {"ptxas", "signal 6", "x"})).as_object();
  EXPECT_EQ(crash.at("crash").at("stage").as_string(), "ptxas");
  EXPECT_EQ(crash.at("crash").at("reason").as_string(), "signal 6");
  EXPECT_EQ(crash.at("crash").at("excerpt").as_string(), "x");
}

TEST(JudgeJson, RunObservationHasEveryField) {
  RunObservation observation = run("nvcc-O3", {"a", "b"}, 3);
  observation.cuda_errors = {"cudaErrorLaunchFailure"};
  const auto json = to_json(observation).as_object();
  for (const char* key : {"config", "exit_code", "signal", "timed_out", "output_lines", "cuda_errors",
                          "output_truncated", "seconds", "status_text"}) {
    EXPECT_TRUE(json.contains(key)) << key;
  }
  EXPECT_EQ(json.at("exit_code").as_int64(), 3);
  EXPECT_EQ(strings(json.at("output_lines")), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(strings(json.at("cuda_errors")), std::vector<std::string>{"cudaErrorLaunchFailure"});
}

TEST(JudgeJson, VerdictHasEveryField) {
  const auto json = to_json(judge(busy_observations(), JudgeOptions{})).as_object();
  EXPECT_FALSE(json.at("agree").as_bool());
  EXPECT_TRUE(json.contains("agreement"));
  EXPECT_TRUE(json.at("headline").as_string().starts_with("DISCREPANCY: "));
  const auto& findings = json.at("findings").as_array();
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].at("kind").as_string(), "crash");
  EXPECT_EQ(strings(findings[0].at("configs")), std::vector<std::string>{"clang-O0"});
  EXPECT_TRUE(findings[0].at("summary").is_string());
  EXPECT_EQ(findings[0].at("details").at("stage").as_string(), "clang");
}

} // namespace
} // namespace cudiff::oracle
