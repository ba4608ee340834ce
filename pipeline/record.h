// pipeline: what is kept of a check — the signatures its findings are filed under, what a bug
// report needs of it, and the check recorded in a triage database (`cudiff check --db`).
#pragma once

#include "oracle/oracle.h"
#include "pipeline/check.h"
#include "pipeline/sanitizer.h"
#include "runners/runners.h"
#include "triage/triage.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace cudiff::pipeline {

/// What a bug report needs of a check: commands, what each compiler and program printed
/// (outputs capped at 64 KiB per stream), versions, the GPU note.
boost::json::object outputs_json(const TestCheck& run);
/// The stderr of the compile a crash finding is about (its stack frames refine the key).
std::string crash_output(const TestCheck& run, const oracle::Finding& finding);
/// The signatures of every finding of a check (a crash's key includes its stderr).
std::vector<triage::Signature> signatures_of(const TestCheck& run);
/// This host's name, as a campaign row records it.
std::string host_name();

/// Where a check's findings go: a database and known differences, opened before anything is
/// compiled, so a bad file fails at once and costs no compile.
struct CheckRecorder {
  std::optional<triage::Database> db;
  triage::KnownDifferences known;
  bool active = false;  ///< opened by open_check_recorder (a default one records nothing)
};
/// The GPUs a check in `mode` ran on, as a campaign row records them ("0: NVIDIA H100 (sm_90)");
/// empty unless it ran.
std::string gpus_text(const runners::GpuDiscovery& gpus, runners::Mode mode);
/// Throws Error(environment) with one line for a database that cannot be used; the file is
/// left untouched. `known` (the caller read its file already) labels the findings.
CheckRecorder open_check_recorder(const std::optional<std::filesystem::path>& db, triage::KnownDifferences known);
/// With a database: records the check as a campaign of its own (kind "check", one test, its
/// findings), in one transaction. With known differences: findings matching one are labelled
/// known (summary prefix, details "triage"); they are still findings. Adds one note per
/// finding naming its bucket. With a gate that found the program invalid, its run-time
/// findings are not filed and the test is recorded in the invalid-tests list instead.
void record_check(CheckRecorder& recorder, TestCheck& run, const GateOutcome* gate = nullptr);

} // namespace cudiff::pipeline
