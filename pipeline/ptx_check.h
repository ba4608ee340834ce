// pipeline: a PTX module checked across ptxas's levels (`cudiff check FILE.ptx`; docs/pipeline.md,
// "PTX files"). The configs are the same PTX through ptxas -O0, -O1, -O2 and -O3 for one
// architecture, and, when it runs, through the driver's JIT; with a launch description
// (runners/launch.h) each config's module runs in an executor with no host program.
#pragma once

#include "pipeline/check.h"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace cudiff::pipeline {

struct PtxCheckRequest {
  std::filesystem::path file;  ///< the PTX module
  /// How to launch its kernel; none: nothing runs (object mode).
  std::optional<runners::LaunchDescription> launch;
  /// object or cubin: every level assembled, nothing run; run: assembled and launched (needs a
  /// GPU and `launch`). None: run with a GPU and a launch description, else object.
  std::optional<runners::Mode> mode;
  /// "sm_90": the target; empty: the GPU's (the one the run uses), else the PTX's own `.target`,
  /// else sm_90. A `.target` naming another is rewritten to it (a note says so).
  std::string arch;
  runners::Limits compile_limits = limits(kFileCompileSeconds);
  runners::Limits run_limits = limits(kRunSeconds);
  /// The GPU's executors; none: check_ptx starts one of its own (cudiff-executor beside cudiff).
  std::shared_ptr<runners::ExecutorPool> executor;
};

/// Assembles the PTX at every ptxas level in parallel (a level that crashes, or rejects the PTX
/// while another accepts it, is a `crash` finding at stage ptxas), launches each accepted module
/// in run mode (a load failure, a fault and a hang are run results with their reason), and
/// judges. A run difference is attributed to ptxas, its `stage_why` naming the first level that
/// departs from -O0 (or to the driver's JIT when every ptxas level agrees against it); details
/// "departing" lists the configs that print what -O0 does not. Artifacts go under `workdir`.
/// Throws Error(usage) for a run without a launch description, Error(environment) for a file
/// that cannot be read or a run mode without the executor program.
TestCheck check_ptx(const PtxCheckRequest& request, const runners::Toolchain& toolchain,
                    const runners::GpuDiscovery& gpus, const std::filesystem::path& workdir);

/// The architecture a PTX module's `.target` line names first ("sm_103"); empty when none.
std::string ptx_target(std::string_view ptx);
/// Whether the module's `.target` must change to assemble for `arch`: it names a newer GPU, or an
/// architecture-specific one ("sm_103a"). A module for an older GPU assembles as written.
bool needs_retarget(std::string_view ptx, std::string_view arch);
/// The module with its `.target` architecture replaced by `arch` where needs_retarget says so
/// (its other target words, such as `texmode_independent`, kept), and its `.version` raised to
/// the first PTX ISA version that has `arch` when it is older; unchanged otherwise.
std::string retarget_ptx(std::string_view ptx, std::string_view arch);

} // namespace cudiff::pipeline
