// pipeline: stage attribution — which stage of a compiler (front end, device code generator,
// ptxas, driver JIT, linker, host compiler) a finding is the fault of (docs/pipeline.md,
// "Stage attribution").
#pragma once

#include "oracle/oracle.h"
#include "pipeline/check.h"
#include "pipeline/limits.h"
#include "runners/runners.h"

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace cudiff::pipeline {

/// One piece of evidence: what was rebuilt (or read) and what it printed.
struct StageSwap {
  std::string swap;                  ///< "nvcc-O3 with ptxas -O0", "nvcc-O3-jit's twin nvcc-O3"
  std::vector<std::string> configs;  ///< the configs it stands for
  std::string outcome;               ///< "right", "still wrong", "build failed", "not run", ...
  std::string line;                  ///< the output line (or error) that shows the outcome
};

/// A finding's guilty stage, why, and the evidence it rests on.
struct StageAttribution {
  oracle::Stage stage = oracle::Stage::unknown;
  std::string why;  ///< one line; for unknown, why the swaps did not decide it
  std::vector<StageSwap> evidence;
  std::size_t builds = 0;  ///< compiles it made
};

/// What attribution needs of a test, in memory: a campaign calls it for one isolated test after
/// the fact, when the check's own artifacts are gone.
struct AttributionRequest {
  TestInput input;                          ///< name, source (or file), sidecar
  std::vector<runners::Config> configs;     ///< the configs the finding was found with
  std::vector<oracle::RunObservation> runs;  ///< their runs, when at hand; else rebuilt and run
  std::string crash_output;                 ///< a crash finding: the crashed compile's stderr
  runners::Limits compile_limits = limits(kFileCompileSeconds);
  runners::Limits run_limits = limits(kRunSeconds);
};

/// True for the kinds attribution names a stage for: run mismatch, wrong code, common wrong
/// code (by rebuilding), crash, compile-status mismatch, false and late rejection (from the
/// tool that spoke).
bool attributable(const oracle::Finding& finding);

/// Names the stage of one finding. Compile findings: the tool that crashed or gave the first
/// error (an nvcc crash that names none: the last step an nvcc -v rebuild started). Run findings (a GPU needed; without one the stage is unknown and nothing is built):
/// each config whose output is wrong (against the sidecar's predicted checksums, else the
/// majority) is rebuilt with ptxas at the other level (right then: ptxas; still wrong: the PTX
/// is wrong, device-codegen, confirmed for nvcc by the driver's JIT of the same PTX); a JIT
/// config against its ptxas-built twin (driver-jit); an rdc config against its twin and ptxas
/// swap; a difference only in host-printed lines is the host compiler's; with no reference
/// (or an unknown stage), a config and its ptxas twin that differ are ptxas's (the twin rule,
/// with ptxas's other levels and the driver's JIT telling the odd level). Builds go under
/// `workdir`, which the caller owns. A compiler that fails is evidence, never an exception.
StageAttribution attribute_stage(const oracle::Finding& finding, const AttributionRequest& request,
                                 const runners::Toolchain& toolchain, const runners::GpuDiscovery& gpus,
                                 const std::filesystem::path& workdir);

/// Writes the attribution into the finding: details["stage"] (oracle::to_string), details
/// ["stage_why"] and details["stage_evidence"] (an array of {swap, configs, outcome, line}).
/// A crash's tool, which details["stage"] held, moves to details["tool"].
void record_stage(oracle::Finding& finding, const StageAttribution& attribution);

}  // namespace cudiff::pipeline
