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
#include "pipeline/sanitizer_types.h"
#include "runners/runners.h"
#include "triage/triage.h"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace cudiff::pipeline {

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

/// Writes a gate's verdict into a run-time finding: details["sanitizer_gate"] (the note),
/// ["sanitizer_gate_result"]; an inconclusive gate adds ["unconfirmed"] (why), a confined fault
/// ["sanitizer_report"] (tool, config, errors, cause, command, first error lines): the evidence
/// a person re-runs.
void mark_gated(oracle::Finding& finding, const GateOutcome& gate);

/// What the invalid-tests list keeps of a gate that found an error (triage::InvalidTest's
/// tool, cause, report, configs), for a test named `name`.
triage::InvalidTest invalid_test_of(const GateOutcome& gate, const TestCheck& run, const std::string& source_name,
                                    const std::string& source);

} // namespace cudiff::pipeline
