// pipeline: stage attribution's internals — the rules that name a stage from what the swaps
// showed (pure, tested on recorded observations), and the output comparisons they rest on.
#pragma once

#include "pipeline/attribution.h"

#include <optional>
#include <string>
#include <vector>

namespace cudiff::pipeline::attribution {

/// What one swap showed: what the rebuilt (or recorded) config printed, against the reference
/// (the generator's prediction, else the majority).
enum class SwapResult { right, still_wrong, build_failed, not_run };
/// "right", "still wrong", "build failed", "not run": the evidence's words.
std::string to_string(SwapResult result);

/// Everything the swaps showed for one config whose output is wrong (an "odd" config).
struct OddConfig {
  std::string config;
  bool ptx_only = false;    ///< PTX only: the driver's JIT compiled it (nvcc-O3-jit)
  bool relocatable = false; ///< separate compilation (-rdc=true, -fgpu-rdc)
  std::string ptxas_level;  ///< the level ptxas assembled it at; empty: none to swap (-G, JIT)
  /// JIT and rdc configs: the same config without JIT or rdc (nvcc-O3 for nvcc-O3-jit).
  std::optional<SwapResult> twin;
  /// The same config with ptxas at the other level (-O0 for -O3, -O3 for -O0).
  std::optional<SwapResult> ptxas_swapped;
  /// The same PTX compiled by the driver's JIT instead of ptxas (nvcc configs): confirms that
  /// the PTX itself is wrong.
  std::optional<SwapResult> driver_jit;
  /// nvcc configs whose cicc optimizes: the same config with cicc (NVVM) at -O0 and ptxas at
  /// the same level (nvcc-O3-cicc0 for nvcc-O3). Its name, and what it printed.
  std::string cicc_twin;
  std::optional<SwapResult> cicc_lowered;
};

/// The other ptxas level of a config's: "O0" for an optimizing one ("O3", "O2", ...), "O3" for
/// "O0". The one spelling of a swap's level (without the dash, as Config::ptxas_opt_level).
std::string other_ptxas_level(const std::string& level);

struct Decision {
  oracle::Stage stage = oracle::Stage::unknown;
  std::string why;  ///< one line, for the evidence
};

/// The stage one odd config's swaps point at:
/// - JIT config: twin right → driver-jit; twin wrong too → device-codegen (the same PTX is wrong
///   through ptxas and through the driver's compiler);
/// - ptxas at the other level right → ptxas (front end and optimizer unchanged);
/// - still wrong → device-codegen (the PTX is wrong whichever way it is assembled), unless the
///   driver's JIT of the same PTX is right (the assemblers disagree: unknown) or the config is
///   wrong only with rdc (its PTX or the device link: unknown, these swaps cannot split them);
///   for nvcc, the cicc-lowered twin splits the PTX's makers: right → nvvm (cicc's optimizer
///   made the wrong PTX), still wrong → device-codegen (wrong even unoptimized);
/// - a swap that failed to build or was not possible → unknown.
Decision decide_config(const OddConfig& odd);

/// A config and its ptxas twin (nvcc-O3 and nvcc-O3-ptxas0): the same front end and PTX,
/// ptxas at another level. When their runs differ the stage is ptxas, whichever level is wrong.
struct PtxasTwins {
  std::string config;      ///< the one at `level`
  std::string level;       ///< "O3"
  std::string twin;        ///< the one at `twin_level`
  std::string twin_level;  ///< "O0"
  /// The same PTX through other assemblers: which twin's output each printed; none when it
  /// printed neither's, failed or could not run.
  struct Other {
    std::string name;   ///< "ptxas -O1", "the driver's JIT"
    std::string level;  ///< "O1"; empty for the driver's JIT
    std::optional<bool> like_config;  ///< true: as `config`; false: as `twin`
  };
  std::vector<Other> others;
};

/// The twin rule: stage ptxas. Which level is wrong no majority of levels can prove (the
/// optimizing levels share the passes -O0 skips, so they agree with each other when one of
/// those passes is wrong). What is said is the first level, in order -O0, -O1, -O2, -O3, that
/// departs from -O0's output, when the levels split in that order (every level from it on
/// prints the other output): the likelier wrong one, since -O0 transforms the PTX least; the
/// driver's JIT is named with the side it took. Levels that do not split in order are said so.
Decision decide_twins(const PtxasTwins& twins);

/// The finding's stage from its odd configs' decisions: host-compiler when the difference is
/// only in host-side output lines; the odd configs' stage when they agree; unknown when they
/// point at different stages, when no config could be called wrong, or, for a wrong output
/// every config shares (`common`), when every config's PTX seems wrong (the prediction itself
/// is then the likelier culprit).
Decision decide_finding(const std::vector<Decision>& odd_configs, bool host_only, bool common);

/// The stage of a compile finding, from what spoke: a crash's tool (cicc and clang's backend:
/// device-codegen; cudafe++ and clang's front end: frontend; ptxas; nvlink, fatbinary, ld,
/// clang-linker-wrapper: linker; the host compiler), or the first error's tool of the rejecting
/// side (compile-status mismatch, false rejection, late rejection). `crash_output` is the
/// crashed compile's stderr, when at hand. Unknown (with why) when nothing says.
Decision decide_compile(const oracle::Finding& finding, std::string_view crash_output);

/// nvcc runs its steps through a shell, so when one dies the only word is the shell's
/// ("Segmentation fault"): nvcc's crash names no tool. Rerun with -v, nvcc prints each step's
/// command ("#$ ptxas -arch=sm_90 ...") before it starts it, so the last step printed is the one
/// that died. The tool of that step ("ptxas", "cicc", "cudafe++"; environment settings skipped)
/// and its command line; none when `verbose_stderr` shows no step.
struct LastStep {
  std::string tool;
  std::string command;
};
std::optional<LastStep> last_nvcc_step(std::string_view verbose_stderr);

/// The stage of a crash whose tool nvcc did not name, from the step an nvcc -v rebuild died in.
Decision decide_nvcc_crash_step(const LastStep& step, std::string_view reason);

/// The kernels' predicted checksums ("checksum NAME HEX" lines, in the sidecar's order, a batch's
/// tests included); empty when the sidecar predicts none.
std::vector<std::string> expected_checksum_lines(const generator::Sidecar& sidecar);

/// How a run is judged right or wrong: against the predicted checksum lines when there are any,
/// else against a reference run (the majority's).
struct Reference {
  std::vector<std::string> expected_lines;         ///< predicted checksum lines
  std::optional<oracle::RunObservation> majority;  ///< else the majority's run
  bool usable() const { return !expected_lines.empty() || majority.has_value(); }
  /// Right: ended cleanly with exactly the predicted checksum lines, or behaves as the majority.
  bool right(const oracle::RunObservation& run) const;
  /// The line that shows how `run` departs from the reference ("" when it does not).
  std::string differing_line(const oracle::RunObservation& run) const;
  /// The majority's run ("" when every config is compared with the prediction).
  std::string describe() const;
};

/// The reference of a set of runs: the sidecar's prediction when it has one, else the run
/// behaviour a strict majority of configs share (none on a tie).
Reference reference_of(const std::vector<oracle::RunObservation>& runs,
                       const std::optional<generator::Sidecar>& sidecar);

/// The same behaviour as the judge compares runs: how it ended, CUDA errors, exit code, output.
bool same_behaviour(const oracle::RunObservation& a, const oracle::RunObservation& b);

/// True when every run shows the reference's device results (status, CUDA errors, checksum
/// lines) and the runs differ only in other lines, which host code prints (layout lines,
/// host probes): the host compiler's difference. False when the output has no checksum lines
/// (nothing tells device results from host output).
bool host_only_difference(const std::vector<oracle::RunObservation>& runs, const Reference& reference);

} // namespace cudiff::pipeline::attribution
