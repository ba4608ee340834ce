// pipeline: the sanitizer gate's types — a compute-sanitizer run and its parsed report, how
// the gate runs (SanitizerGate) and how it ended (GateOutcome). Apart from sanitizer.h so that
// a check (check.h) can carry its gate without the gate's functions.
#pragma once

#include "pipeline/limits.h"
#include "runners/runners.h"

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
  clean,    ///< every tool ran clean on every binary: file the finding
  invalid,  ///< a tool reported an error: the program is invalid, never filed as a bug
  /// A program whose output the generator predicts faulted only under configs whose output
  /// departs from the prediction, while a config that prints it ran clean under the same tool:
  /// the fault is the miscompile's symptom. Filed, with the report as evidence.
  confined,
  /// A sanitizer run that proved nothing (timed out, killed, no summary): filed, unconfirmed.
  inconclusive,
  not_checked,  ///< off, no sanitizer, no GPU, no binary: filed with a note
};
/// "clean", "invalid", "confined", "inconclusive", "not checked".
std::string to_string(GateResult result);

/// What a gate did: its result, the binaries and runs it checked, and its one-line note.
struct GateOutcome {
  GateResult result = GateResult::not_checked;
  std::vector<std::string> configs;  ///< the binaries checked, one per side of the partition at least
  std::vector<SanitizerRun> runs;    ///< in the order they ran
  std::optional<SanitizerRun> failure;  ///< invalid or confined: the first run with errors
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
} // namespace cudiff::pipeline
