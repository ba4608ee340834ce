// pipeline: compute-sanitizer's internals — finding it, choosing the tools a program needs,
// running one tool on one binary, reading what it printed, and the binaries a gated finding is
// about. Internal to pipeline/ (sanitizer.cpp, sanitizer_gate.cpp, the reductions).
#pragma once

#include "pipeline/sanitizer.h"

#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace cudiff::pipeline {

/// What one compute-sanitizer run printed, as its report; never throws on any text.
SanitizerReport parse_sanitizer_output(std::string_view text);
/// The cause an error headline names: "out-of-bounds", "stack overflow", "uninitialized read",
/// "race", "barrier", "misaligned", "illegal address", "hardware exception", "leak", or
/// "other" for a headline that is none of these.
std::string sanitizer_cause(std::string_view headline);

/// compute-sanitizer: $CUDA_HOME/bin, the toolchain's CUDA toolkit, /usr/local/cuda/bin, then
/// PATH (each also as <toolkit>/compute-sanitizer/compute-sanitizer); none when absent.
std::optional<std::filesystem::path> find_compute_sanitizer(const runners::Toolchain& toolchain);
/// The same, or Error(environment) with one line saying where it was looked for.
std::filesystem::path require_compute_sanitizer(const runners::Toolchain& toolchain, std::string_view why);

/// The tools a program needs: memcheck and initcheck always; racecheck when it uses shared
/// memory and synccheck when it uses a barrier or a warp-synchronous operation (from the
/// source text, or a sidecar that says it used such a construct).
std::vector<SanitizerTool> sanitizer_tools_for(std::string_view source,
                                               const std::optional<generator::Sidecar>& sidecar);

/// Runs `sanitizer --tool T --error-exitcode 86 --print-limit 10 BINARY` in the binary's
/// directory, pinned to `gpu` (CUDA_VISIBLE_DEVICES), within `limits`.
SanitizerRun run_sanitizer(const std::filesystem::path& sanitizer, SanitizerTool tool, const std::string& config,
                           const std::filesystem::path& binary, const runners::GpuInfo& gpu,
                           const runners::Limits& limits);

/// The binaries a gated finding is about: one config from each group of its partition (details
/// "groups" of a run mismatch, "wrong"/"right" config lists, else the finding's configs), and
/// at least one of each compiler when both built one; only configs with a binary that ran.
std::vector<const ConfigCheck*> gate_binaries(const TestCheck& run, const oracle::Finding& finding);

/// The gate's verdict from the runs it made (in tool order) and its right side (the configs
/// that print the prediction; empty without one). Pure: tested on recorded runs.
/// - invalid: a tool's errors under a right-side config, or with no right-side config of that
///   tool clean (no prediction, or every checked config wrong); `failure` is that tool's first
///   erring run;
/// - confined: errors only under wrong-side configs, with a right-side config clean under the
///   same tool; `failure` is the first such erring run;
/// - inconclusive: no errors, but a run neither clean nor in error;
/// - clean otherwise.
GateResult gate_verdict(const std::vector<SanitizerRun>& runs, const std::set<std::string>& right,
                        std::optional<SanitizerRun>& failure);

} // namespace cudiff::pipeline
