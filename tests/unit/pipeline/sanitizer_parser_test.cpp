// pipeline::parse_sanitizer_output and sanitizer_cause on compute-sanitizer reports
// (tests/golden/sanitizer: real reports captured on an H100 with CUDA 13.0 by
// scripts/gpu/capture-sanitizer-samples.sh; see its README), sanitizer_tools_for, and
// gate_binaries' choice of one binary per side.
#include "pipeline/sanitizer_parts.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

namespace cudiff::pipeline {
namespace {

SanitizerReport sample(const std::string& name) {
  return parse_sanitizer_output(read_file(test::data("golden/sanitizer/" + name)));
}

// memcheck's out-of-bounds read, followed by the two API errors it causes; the cause is the
// read, not the API errors.
TEST(SanitizerParser, OutOfBoundsReadIsTheFirstError) {
  const SanitizerReport report = sample("memcheck_out_of_bounds.txt");
  EXPECT_TRUE(report.summary_found);
  EXPECT_EQ(report.errors, 3);
  ASSERT_FALSE(report.first_error.empty());
  EXPECT_EQ(report.first_error.front(), "Invalid __global__ read of size 4 bytes");
  EXPECT_EQ(report.cause, "out-of-bounds");
  EXPECT_TRUE(std::ranges::any_of(report.first_error,
                                  [](const std::string& line) { return test::contains(line, "is out of bounds"); }));
  EXPECT_FALSE(std::ranges::any_of(report.first_error, [](const std::string& line) {
    return test::contains(line, "Program hit");
  })) << "the error's block ends at the separator";
}

// One error per thread (34; 10 printed, then "24 errors were not printed", a second summary
// line the count must not come from).
TEST(SanitizerParser, StackOverflow) {
  const SanitizerReport report = sample("memcheck_stack_overflow.txt");
  EXPECT_EQ(report.errors, 34);
  EXPECT_EQ(report.first_error.front(), "Stack overflow");
  EXPECT_EQ(report.cause, "stack overflow");
}

// The program's own line between the tool's is ignored.
TEST(SanitizerParser, CleanRunHasNoError) {
  const SanitizerReport report = sample("memcheck_clean.txt");
  EXPECT_TRUE(report.summary_found);
  EXPECT_EQ(report.errors, 0);
  EXPECT_TRUE(report.first_error.empty());
  EXPECT_TRUE(report.cause.empty());
}

// One uninitialized read per thread: 32.
TEST(SanitizerParser, UninitializedRead) {
  const SanitizerReport report = sample("initcheck_uninitialized.txt");
  EXPECT_EQ(report.errors, 32);
  EXPECT_EQ(report.cause, "uninitialized read");
}

// racecheck's own summary counts hazards and errors.
TEST(SanitizerParser, RacecheckSummaryAndRace) {
  const SanitizerReport race = sample("racecheck_race.txt");
  EXPECT_TRUE(race.summary_found);
  EXPECT_EQ(race.errors, 1);
  EXPECT_EQ(race.cause, "race");
  const SanitizerReport clean = sample("racecheck_clean.txt");
  EXPECT_TRUE(clean.summary_found);
  EXPECT_EQ(clean.errors, 0);
}

// A barrier reached by half the block: one error per thread that reached it (16).
TEST(SanitizerParser, DivergentBarrier) {
  const SanitizerReport report = sample("synccheck_divergent_barrier.txt");
  EXPECT_EQ(report.errors, 16);
  EXPECT_EQ(report.cause, "barrier");
}

// A run killed after 5 s prints no summary: neither clean nor in error.
TEST(SanitizerParser, NoSummaryIsInconclusive) {
  const SanitizerReport report = sample("killed_no_summary.txt");
  EXPECT_FALSE(report.summary_found);
  SanitizerRun run;
  run.report = report;
  run.process.started = true;
  run.process.exit_code = 0;
  EXPECT_FALSE(run.clean());
  EXPECT_FALSE(run.errors());
  EXPECT_TRUE(test::contains(run.inconclusive_reason(), "no summary"));
}

TEST(SanitizerParser, OddTextIsNeverReadAsACleanRun) {
  // No summary line, or one without its count: no summary found.
  for (const std::string& text :
       {std::string(), std::string("========="), std::string("=========\n=========  "),
        std::string("========= ERROR SUMMARY: "), std::string("========= RACECHECK SUMMARY: (((")}) {
    const SanitizerReport report = parse_sanitizer_output(text);
    EXPECT_FALSE(report.summary_found) << text;
    EXPECT_EQ(report.errors, 0) << text;
  }
  // A count too large to hold is never a clean run.
  const SanitizerReport huge = parse_sanitizer_output("========= ERROR SUMMARY: 99999999999999999999999 errors");
  EXPECT_FALSE(huge.summary_found && huge.errors == 0);
}

TEST(SanitizerCause, NamesEachKind) {
  EXPECT_EQ(sanitizer_cause("Warp Hardware Stack Overflow"), "stack overflow");
  EXPECT_EQ(sanitizer_cause("Invalid __shared__ write of size 4 bytes"), "out-of-bounds");
  EXPECT_EQ(sanitizer_cause("Invalid __global__ read of size 8 bytes\nAddress 0x10 is misaligned"), "misaligned");
  EXPECT_EQ(sanitizer_cause("Something new"), "other");
}

TEST(SanitizerTools, SharedMemoryAndBarriersAddTheirTools) {
  using enum SanitizerTool;
  EXPECT_EQ(sanitizer_tools_for("int main() {}", std::nullopt), (std::vector{memcheck, initcheck}));
  EXPECT_EQ(sanitizer_tools_for("__shared__ int s[32]; __syncthreads();", std::nullopt),
            (std::vector{memcheck, initcheck, racecheck, synccheck}));
  generator::Sidecar sidecar;
  sidecar.constructs_used = std::vector<generator::Sidecar::Construct>{{"warp_shuffle", {}}};
  EXPECT_EQ(sanitizer_tools_for("int main() {}", sidecar), (std::vector{memcheck, initcheck, synccheck}));
}

ConfigCheck built(const std::string& name, runners::CompilerKind compiler) {
  ConfigCheck check;
  check.compile.config = runners::Config{name, compiler, "O3", "sm_90", {}, "", ""};
  check.compile.artifact = "/tmp/" + name;
  check.run = oracle::RunObservation{};
  return check;
}

TEST(SanitizerGate, OneBinaryFromEachSideAndBothCompilers) {
  TestCheck run;
  run.configs = {built("nvcc-O3", runners::CompilerKind::nvcc), built("nvcc-O0", runners::CompilerKind::nvcc),
                 built("clang-O3", runners::CompilerKind::clang), built("clang-O0", runners::CompilerKind::clang)};
  oracle::Finding finding;
  finding.kind = oracle::FindingKind::run_mismatch;
  finding.configs = {"nvcc-O3", "nvcc-O0", "clang-O3", "clang-O0"};
  boost::json::array groups;
  groups.push_back(boost::json::object{{"configs", boost::json::array{"nvcc-O3", "nvcc-O0", "clang-O3"}}});
  groups.push_back(boost::json::object{{"configs", boost::json::array{"clang-O0"}}});
  finding.details["groups"] = std::move(groups);
  std::vector<std::string> names;
  for (const ConfigCheck* check : gate_binaries(run, finding)) names.push_back(check->compile.config.name);
  EXPECT_EQ(names, (std::vector<std::string>{"nvcc-O3", "clang-O0"}));
}

TEST(SanitizerGate, WithoutSanitizerNothingIsCheckedAndTheNoteSaysSo) {
  TestCheck run;
  run.mode = runners::Mode::run;
  run.configs = {built("nvcc-O3", runners::CompilerKind::nvcc), built("clang-O3", runners::CompilerKind::clang)};
  run.gpus.gpus.emplace_back();
  oracle::Finding finding;
  finding.kind = oracle::FindingKind::run_mismatch;
  finding.configs = {"nvcc-O3", "clang-O3"};
  run.verdict.findings.push_back(finding);
  SanitizerGate gate;
  gate.enabled = true;
  gate.missing_reason = "compute-sanitizer not found";
  const GateOutcome outcome = sanitizer_gate(gate, run, "int main() {}", std::nullopt);
  EXPECT_EQ(outcome.result, GateResult::not_checked);
  EXPECT_EQ(outcome.note, "not sanitizer-checked: compute-sanitizer not found");
  EXPECT_TRUE(outcome.runs.empty());
  // Compile-time findings are not gated: nothing to check.
  run.verdict.findings.front().kind = oracle::FindingKind::compile_status_mismatch;
  EXPECT_EQ(sanitizer_gate(gate, run, "", std::nullopt).result, GateResult::clean);
}

/// A recorded run: `errors` < 0 for one that proved nothing (timed out, no summary).
SanitizerRun recorded(SanitizerTool tool, const std::string& config, int errors) {
  SanitizerRun run;
  run.tool = tool;
  run.config = config;
  run.process.started = true;
  if (errors < 0) {
    run.process.timed_out = true;
    return run;
  }
  run.report.summary_found = true;
  run.report.errors = errors;
  run.report.cause = errors > 0 ? "out-of-bounds" : "";
  run.process.exit_code = errors > 0 ? 86 : 0;
  return run;
}

TEST(SanitizerGateVerdict, AFaultOnlyWhereTheOutputIsWrongIsConfinedAndFiled) {
  using enum SanitizerTool;
  std::optional<SanitizerRun> failure;
  // nvcc-O3 prints the prediction and runs clean; clang-O3 is wrong and faults.
  const std::set<std::string> right = {"nvcc-O3"};
  std::vector<SanitizerRun> runs = {recorded(memcheck, "clang-O3", 129), recorded(memcheck, "nvcc-O3", 0),
                                    recorded(initcheck, "clang-O3", 0), recorded(initcheck, "nvcc-O3", 0)};
  EXPECT_EQ(gate_verdict(runs, right, failure), GateResult::confined);
  ASSERT_TRUE(failure);
  EXPECT_EQ(failure->config, "clang-O3");
  EXPECT_EQ(failure->report.errors, 129);

  // A later tool that finds the right side faulting too makes the program invalid.
  runs[3] = recorded(initcheck, "nvcc-O3", 2);
  EXPECT_EQ(gate_verdict(runs, right, failure), GateResult::invalid);
  EXPECT_EQ(failure->config, "nvcc-O3");

  // Without a prediction there is no right side: any fault is the program's.
  runs[3] = recorded(initcheck, "nvcc-O3", 0);
  EXPECT_EQ(gate_verdict(runs, {}, failure), GateResult::invalid);
  EXPECT_EQ(failure->config, "clang-O3");

  // The right side's run proved nothing: the fault cannot be called confined.
  runs = {recorded(memcheck, "clang-O3", 3), recorded(memcheck, "nvcc-O3", -1)};
  EXPECT_EQ(gate_verdict(runs, right, failure), GateResult::invalid);
}

TEST(SanitizerGateVerdict, RunsThatProveNothingLeaveTheFindingUnconfirmed) {
  using enum SanitizerTool;
  std::optional<SanitizerRun> failure;
  EXPECT_EQ(gate_verdict({recorded(memcheck, "clang-O3", -1), recorded(memcheck, "nvcc-O3", 0)}, {}, failure),
            GateResult::inconclusive);
  EXPECT_FALSE(failure);
  EXPECT_EQ(gate_verdict({recorded(memcheck, "clang-O3", 0), recorded(memcheck, "nvcc-O3", 0)}, {}, failure),
            GateResult::clean);
  // A marked finding says it is unconfirmed, with why.
  oracle::Finding finding;
  GateOutcome outcome;
  outcome.result = GateResult::inconclusive;
  outcome.note = "sanitizer gate inconclusive, finding unconfirmed: clang-O3: memcheck timed out";
  mark_gated(finding, outcome);
  EXPECT_EQ(finding.details.at("unconfirmed").as_string(), outcome.note);
  EXPECT_EQ(finding.details.at("sanitizer_gate_result").as_string(), "inconclusive");
}

} // namespace
} // namespace cudiff::pipeline
