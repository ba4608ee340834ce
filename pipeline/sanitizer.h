// pipeline: the sanitizer gate — compute-sanitizer on the binaries of a run-time finding before
// it is filed (docs/pipeline.md, "The sanitizer gate"). A program whose run faults (an
// out-of-bounds read, a stack overflow, an uninitialized read, a shared-memory race, a misused
// barrier) has no one defined output: its different results are the program's defect, never a
// compiler bug.
#pragma once

#include "generator/generator.h"
#include "oracle/oracle.h"
#include "pipeline/check.h"
#include "pipeline/limits.h"
#include "runners/runners.h"
#include "triage/triage.h"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace cudiff::pipeline {

/// A compute-sanitizer tool.
enum class SanitizerTool { memcheck, initcheck, racecheck, synccheck };
/// "memcheck", "initcheck", "racecheck", "synccheck": the tool's --tool name.
std::string to_string(SanitizerTool tool);

/// What one compute-sanitizer run printed, parsed. Never throws on any text.
struct SanitizerReport {
  bool summary_found = false;  ///< "ERROR SUMMARY: N errors" or "RACECHECK SUMMARY: ... (N errors, ...)"
  std::int64_t errors = 0;     ///< N of that summary
  /// The first error's lines, the "========= " prefix dropped (at most 8): its headline
  /// ("Invalid __global__ read of size 4 bytes", "Stack overflow", "Uninitialized __global__
  /// memory read ...", "Error: Race reported between ...") and where it happened.
  std::vector<std::string> first_error;
  /// The kind of the first error (sanitizer_cause); empty when there is none.
  std::string cause;
};

/// One tool on one binary.
struct SanitizerRun {
  SanitizerTool tool = SanitizerTool::memcheck;
  std::string config;  ///< whose binary
  runners::Command command;
  runners::SubprocessResult process;
  SanitizerReport report;
  bool errors() const { return report.summary_found && report.errors > 0; }
  /// Clean: the summary was printed and says 0 errors, and the sanitizer ended by itself.
  bool clean() const;
  /// Why a run is neither clean nor in error ("timed out after 600 s", "no summary printed").
  std::string inconclusive_reason() const;
};

/// How a gate ended.
enum class GateResult {
  clean,        ///< every tool ran clean on every binary: file the finding
  invalid,      ///< a tool reported an error: the program is invalid, never filed as a bug
  not_checked,  ///< off, no sanitizer, no GPU, no binary, or a run that proved nothing: filed with a note
};
/// "clean", "invalid", "not checked".
std::string to_string(GateResult result);

/// What a gate did: its result, the binaries and runs it checked, and its one-line note.
struct GateOutcome {
  GateResult result = GateResult::not_checked;
  std::vector<std::string> configs;  ///< the binaries checked, one per side of the partition at least
  std::vector<SanitizerRun> runs;    ///< in the order they ran
  std::optional<SanitizerRun> failure;  ///< invalid: the first run with errors
  std::string
      note;  ///< one line: "sanitizer gate: clean (...)", "... INVALID program: ...", "not sanitizer-checked: ..."
};

/// How the gate runs (make_sanitizer_gate); off unless made. Off, or `sanitizer` none: gate
/// results are not_checked with `missing_reason`.
struct SanitizerGate {
  bool enabled = false;
  std::optional<std::filesystem::path> sanitizer;
  std::string missing_reason = "the sanitizer gate is off";
  double run_seconds = kRunSeconds;  ///< a normal run's limit; the sanitizer gets kSanitizerTimeFactor times as long
  /// runners::Limits::deadline of every sanitizer run (a campaign's --time).
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
};
/// The gate as a campaign or `cudiff check` sets it up: on unless `enabled` is false, with
/// the toolkit's compute-sanitizer when there is one.
SanitizerGate make_sanitizer_gate(bool enabled, const runners::Toolchain& toolchain, double run_seconds);

/// The gate on the gated findings of `run` (none: clean, nothing to check). Each tool of
/// sanitizer_tools_for on each binary of gate_binaries, the binaries of one tool side by side,
/// on the run's first GPU; it stops at the first error.
GateOutcome sanitizer_gate(const SanitizerGate& gate, const TestCheck& run, const std::string& source,
                           const std::optional<generator::Sidecar>& sidecar);

/// `cudiff check` after judging: the gate on the check's run-time findings (none, or not mode
/// run: nothing happens and the outcome is clean). Its note joins run.notes, and each gated
/// finding's details get "sanitizer_gate" (the note) and "sanitizer_gate_result".
GateOutcome gate_check(const SanitizerGate& gate, TestCheck& run, const TestInput& input);

/// What the invalid-tests list keeps of a gate that found an error (triage::InvalidTest's
/// tool, cause, report, configs), for a test named `name`.
triage::InvalidTest invalid_test_of(const GateOutcome& gate, const TestCheck& run, const std::string& source_name,
                                    const std::string& source);

} // namespace cudiff::pipeline
