// Unit tests for observe_compile: outcomes and crash signs, from real captures and synthetic results.
//
// The golden part reads tests/golden/diagnostics: NAME.stderr.txt (what the compiler printed),
// NAME.exit (its real exit status) and the '@' lines of NAME.expected:
//   @outcome accepted|rejected|crashed|hung
//   @crash STAGE|REASON            (only for crashed)
// (the diagnostic lines of .expected are diagnostics_test.cpp's; its header says the format).
#include "oracle/oracle.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>

namespace cudiff::oracle {
namespace {

using runners::CompilerKind;

runners::CompileResult result_of(CompilerKind compiler, int exit_code, std::string stderr_text) {
  runners::CompileResult result;
  result.config.name = compiler == CompilerKind::nvcc ? "nvcc-O3" : "clang-O3";
  result.config.compiler = compiler;
  result.process.started = true;
  result.process.exit_code = exit_code;
  result.process.wall_seconds = 1.25;
  result.process.err.text = std::move(stderr_text);
  return result;
}

std::string golden(const std::string& file) { return read_file(test::data("golden/diagnostics/" + file)); }

runners::CompileResult golden_result(const std::string& name) {
  CompilerKind compiler = name.starts_with("clang_") || name.starts_with("crash_like_clang_") ? CompilerKind::clang
                                                                                              : CompilerKind::nvcc;
  int exit_code = std::stoi(golden(name + ".exit"));
  return result_of(compiler, exit_code, golden(name + ".stderr.txt"));
}

std::string crash_text(const CompileObservation& observation) {
  return observation.crash ? observation.crash->stage + "|" + observation.crash->reason : "";
}

TEST(ClassifyGolden, EveryCaptureHasTheExpectedOutcome) {
  std::size_t checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(test::data("golden/diagnostics"))) {
    std::string file = entry.path().filename().string();
    if (!file.ends_with(".expected")) continue;
    std::string name = file.substr(0, file.size() - std::string_view(".expected").size());
    SCOPED_TRACE(name);
    std::string outcome, crash;
    for (const std::string& line : split_lines(golden(file))) {
      if (line.starts_with("@outcome ")) outcome = line.substr(9);
      if (line.starts_with("@crash ")) crash = line.substr(7);
    }
    ASSERT_FALSE(outcome.empty()) << file << " has no @outcome line";
    CompileObservation observation = observe_compile(golden_result(name));
    EXPECT_EQ(to_string(observation.outcome), outcome) << name;
    EXPECT_EQ(crash_text(observation), crash) << name << " excerpt:\n"
                                              << (observation.crash ? observation.crash->excerpt : "");
    EXPECT_EQ(observation.outcome == CompileOutcome::crashed, observation.crash.has_value());
    ++checked;
  }
  EXPECT_GE(checked, 30u);
}

TEST(Classify, FillsConfigCompilerAndSeconds) {
  CompileObservation observation = observe_compile(result_of(CompilerKind::clang, 0, ""));
  EXPECT_EQ(observation.config, "clang-O3");
  EXPECT_EQ(observation.compiler, CompilerKind::clang);
  EXPECT_DOUBLE_EQ(observation.seconds, 1.25);
  EXPECT_EQ(observation.outcome, CompileOutcome::accepted);
  EXPECT_FALSE(observation.crash);
}

TEST(Classify, WarningsOnlyIsAccepted) {
  CompileObservation observation = observe_compile(golden_result("clang_unused_variable"));
  EXPECT_EQ(observation.outcome, CompileOutcome::accepted);
  EXPECT_EQ(observation.diagnostics.size(), 6u);  // once for sm_90, once for the host
  EXPECT_EQ(observation.first_error(), nullptr);
}

TEST(Classify, FirstErrorSkipsWarningsAndNotes) {
  CompileObservation observation = observe_compile(golden_result("clang_managed_in_kernel"));
  ASSERT_NE(observation.first_error(), nullptr);
  EXPECT_EQ(observation.first_error()->message, "reference to __host__ variable 'x' in __global__ function");
  EXPECT_EQ(observation.diagnostics.front().severity, Severity::warning);
}

TEST(Classify, NvccExitStatusesOfOrdinaryRejections) {
  // 1: cicc, 2: cudafe++, 4: cudafe++ error limit, 255: ptxas / nvlink.
  for (int status : {1, 2, 4, 255}) {
    CompileObservation observation = observe_compile(result_of(CompilerKind::nvcc, status, "a.cu(1): error: x\n"));
    EXPECT_EQ(observation.outcome, CompileOutcome::rejected) << status;
  }
}

TEST(Classify, UnusualExitStatusWithErrorsIsACrash) {
  CompileObservation nvcc = observe_compile(result_of(CompilerKind::nvcc, 3, "a.cu(1): error: x\n"));
  EXPECT_EQ(crash_text(nvcc), "nvcc|exit 3");
  CompileObservation clang = observe_compile(result_of(CompilerKind::clang, 2, "a.cu:1:1: error: x\n"));
  EXPECT_EQ(crash_text(clang), "clang|exit 2");
}

TEST(Classify, NonZeroExitWithoutDiagnosticIsACrash) {
  CompileObservation observation = observe_compile(result_of(CompilerKind::clang, 1, "some noise\n"));
  EXPECT_EQ(crash_text(observation), "clang|exit 1 without a diagnostic");
  EXPECT_EQ(observation.crash->excerpt, "some noise");
  // Warnings are not an explanation either.
  observation = observe_compile(result_of(CompilerKind::nvcc, 2, "a.cu(3): warning #177-D: x\n"));
  EXPECT_EQ(crash_text(observation), "nvcc|exit 2 without a diagnostic");
}

TEST(Classify, NvccShellSignalStatusIsACrashEvenWithoutTheLine) {
  // Output capped before the shell's "Segmentation fault" line: the status still tells.
  CompileObservation observation = observe_compile(result_of(CompilerKind::nvcc, 139, "a.cu(1): error: x\n"));
  EXPECT_EQ(crash_text(observation), "nvcc|signal 11");
}

TEST(Classify, KilledBySignal) {
  runners::CompileResult result = result_of(CompilerKind::nvcc, -1, "");
  result.process.signal = 11;
  EXPECT_EQ(crash_text(observe_compile(result)), "nvcc|signal 11");
}

TEST(Classify, TimeoutIsHung) {
  runners::CompileResult result = result_of(CompilerKind::clang, -1, "a.cu:1:1: warning: x\n");
  result.process.timed_out = true;
  result.process.signal = 9;
  CompileObservation observation = observe_compile(result);
  EXPECT_EQ(observation.outcome, CompileOutcome::hung);
  EXPECT_FALSE(observation.crash);
  EXPECT_EQ(observation.diagnostics.size(), 1u);
}

TEST(Classify, CrashSignsWinOverTimeout) {
  runners::CompileResult result = golden_result("clang_debug_crash");
  result.process.timed_out = true;
  EXPECT_EQ(observe_compile(result).outcome, CompileOutcome::crashed);
}

TEST(Classify, MemoryLimitIsACrash) {
  runners::CompileResult result = result_of(CompilerKind::nvcc, -1, "");
  result.process.memory_limit_hit = true;
  result.process.signal = 9;
  EXPECT_EQ(crash_text(observe_compile(result)), "nvcc|memory limit");
}

TEST(Classify, NotStartedIsReportedAsADriverCrash) {
  runners::CompileResult result;
  result.config.name = "nvcc-O3";
  result.process.started = false;
  result.process.start_error = "No such file or directory";
  CompileObservation observation = observe_compile(result);
  EXPECT_EQ(crash_text(observation), "driver|did not start: No such file or directory");
  EXPECT_EQ(observation.config, "nvcc-O3");
}

TEST(Classify, PtxasUnresolvedExternIsARejection) {
  // A call to a __device__ function never defined: ptxas says "fatal", but this is the
  // normal link error of an invalid program, on both compilers.
  EXPECT_EQ(observe_compile(golden_result("nvcc_device_extern")).outcome, CompileOutcome::rejected);
  EXPECT_EQ(observe_compile(golden_result("clang_device_extern")).outcome, CompileOutcome::rejected);
}

TEST(Classify, OtherPtxasFatalIsACrash) {
  CompileObservation observation = observe_compile(
      result_of(CompilerKind::nvcc, 255, "ptxas fatal   : Memory allocation failure\n"));
  EXPECT_EQ(crash_text(observation), "ptxas|fatal");
  EXPECT_EQ(observation.crash->excerpt, "ptxas fatal   : Memory allocation failure");
}

TEST(Classify, ClangReproducerAfterPtxasErrorIsNotACrash) {
  // clang-22 writes "PLEASE ATTACH THE FOLLOWING FILES TO THE BUG REPORT" whenever ptxas
  // fails, even for an ordinary ptxas error: that alone is no crash sign.
  EXPECT_EQ(observe_compile(golden_result("clang_shared_too_big")).outcome, CompileOutcome::rejected);
}

TEST(Classify, ClangFrontendCrashExitsOneButIsACrash) {
  runners::CompileResult result = golden_result("clang_debug_crash");
  EXPECT_EQ(result.process.exit_code, 1);
  CompileObservation observation = observe_compile(result);
  EXPECT_EQ(crash_text(observation), "clang|signal 4");
  EXPECT_NE(observation.crash->excerpt.find("Stack dump:"), std::string::npos);
  EXPECT_NE(observation.crash->excerpt.find("current parser token 'pragma'"), std::string::npos);
  EXPECT_LE(split_lines(observation.crash->excerpt).size(), 10u);
}

TEST(Classify, CrashTextInsideASourceExcerptIsIgnored) {
  std::string text = "a.cu(3): error: identifier \"x\" is undefined\n"
                     "    printf(\"internal error: Segmentation fault\"); x;\n"
                     "                                                  ^\n"
                     "Segmentation fault is not at the start of this line either\n";
  EXPECT_EQ(observe_compile(result_of(CompilerKind::nvcc, 2, text)).outcome, CompileOutcome::rejected);
  std::string clang = "a.cu:3:1: error: x\n    3 | PLEASE submit a bug report\n      | ^\n";
  EXPECT_EQ(observe_compile(result_of(CompilerKind::clang, 1, clang)).outcome, CompileOutcome::rejected);
}

TEST(Classify, OutcomeNames) {
  EXPECT_EQ(to_string(CompileOutcome::accepted), "accepted");
  EXPECT_EQ(to_string(CompileOutcome::rejected), "rejected");
  EXPECT_EQ(to_string(CompileOutcome::crashed), "crashed");
  EXPECT_EQ(to_string(CompileOutcome::hung), "hung");
}

TEST(ClassifyRobustness, HugeOutputIsFast) {
  std::string text;
  while (text.size() < (4u << 20))
    text += "Stack dump:\n0.\tProgram arguments: x\nnvcc error   : '' died due to signal \n";
  for (CompilerKind compiler : {CompilerKind::nvcc, CompilerKind::clang}) {
    auto start = std::chrono::steady_clock::now();
    CompileObservation observation = observe_compile(result_of(compiler, 1, text));
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 1.0);
    EXPECT_EQ(observation.outcome, CompileOutcome::crashed);
  }
}

} // namespace
} // namespace cudiff::oracle
