// pipeline: the check's internals — the layout and parameter-ABI parts of a check, and how a
// test's text chooses its mode. Internal to pipeline/.
#pragma once

#include "pipeline/check.h"

#include <filesystem>
#include <functional>
#include <optional>
#include <stop_token>
#include <string_view>
#include <vector>

namespace cudiff::pipeline {

/// `request` with `unused` in its compile and run limits (runners::Limits::stop): once it is
/// requested, every compile and run the check starts or has in flight is killed. For a
/// reduction's test whose answer will not be read.
inline CheckRequest stopped_by(CheckRequest request, std::stop_token unused) {
  request.compile_limits.stop = unused;
  request.run_limits.stop = unused;
  return request;
}

/// Whether a program can run in an executor as it would in a process of its own: it defines
/// main() and declares no __managed__ variable (managed memory is per process; the executor
/// path does not model it).
bool executor_can_load(std::string_view source);

/// One config built as the whole program, as check_test's build_one builds it.
using WholeBuild = std::function<ConfigCheck(const runners::Config&)>;
/// The device path's builds of `options.configs`, in their order: the configs with one front
/// end (runners::front_end_key) share one PTX compile, then each runs ptxas on it
/// (runners::assemble; hang confirmation as build_one's); a front end that gives no PTX is the
/// observation of every config sharing it, and a config with no ptxas step of its own
/// (runners::device_buildable) is built whole through `whole`. Groups and whole builds run in
/// parallel.
std::vector<ConfigCheck> build_device_path(const runners::Toolchain& toolchain, const CheckRequest& options,
                                           const std::filesystem::path& file, const std::filesystem::path& workdir,
                                           const WholeBuild& whole);

/// A must-reject program's whole builds on the device path (an edge program: its violation may
/// be in host code): the configs whose front end is the same (runners::front_end_key; they
/// differ in their ptxas level alone) are built one after another, and a later one takes the
/// first's observation when the first was rejected before ptxas ran (every error from the front
/// end or NVVM, nothing from ptxas, nvlink or the host compiler): its ptxas level cannot change
/// that. Other configs build at once, in parallel, through `whole`; the order is the configs'.
std::vector<ConfigCheck> build_sharing_front_end_rejections(const runners::Toolchain& toolchain,
                                                            const std::vector<runners::Config>& configs,
                                                            const WholeBuild& whole);

/// Why a generated test cannot run as cubins from its sidecar's launch plans (a kernel without
/// a plan, or a plan runners::parse_launch refuses); empty: every kernel it launches has one.
std::string device_run_reason(const TestInput& input);
/// The sidecar's launch plans, in the order the program's main runs the kernels, each with the
/// largest plan's device stack (one limit per process, as main sets it). Throws Error(usage)
/// for a plan that is not a launch description (device_run_reason says which).
std::vector<runners::LaunchDescription> launch_plans(const generator::Sidecar& sidecar);
/// Whether a check's builds include cubins of the device path (build_device_path).
bool device_runs(const std::vector<ConfigCheck>& checks);
/// The device path's runs: each accepted cubin-built config that runs on the first GPU loaded in
/// `request.executor` (else an executor of its own, in `workdir`/executor) and every plan
/// launched in turn; the printed lines, joined in that order, are the config's run, as a process
/// of the whole program would print them. Returns why the test must instead run as the whole
/// program ("nvcc-O3, kernel K: kernel: CUDA_ERROR_ILLEGAL_ADDRESS (700)": a module that does not
/// load, a launch that fails or faults, a kernel past the run limit, no executor), or "".
std::string run_device_path(std::vector<ConfigCheck>& checks, const CheckRequest& request,
                            const runners::GpuDiscovery& gpus, const std::filesystem::path& workdir);

/// For a test whose sidecar lists layout probes (else nothing): the device views, read from
/// each accepted config's PTX (the artifact in ptx mode, else a PTX compile into `workdir`),
/// and the host views, from each built binary run as `BINARY --layout` (which touches no CUDA
/// API, so no GPU is needed). Adds the probes and views to `observations`.
/// A shared-object build runs `--layout` in `executor` when given; without one, or when that run
/// is not clean, an executable is built for it.
std::optional<LayoutCheck> check_layout(const TestCheck& run, const TestInput& input,
                                        const runners::Limits& compile_limits, const runners::Limits& run_limits,
                                        const std::filesystem::path& workdir, oracle::Observations& observations,
                                        runners::ExecutorPool* executor = nullptr);

/// Whether a config builds with separate compilation (-rdc=true, -dc, -fgpu-rdc): only PTX of
/// configs alike in this is compared.
bool separate_compilation(const runners::Config& config);
/// Whether a check compares parameter declarations outside ptx mode, where it costs PTX
/// compiles: always for a person's file (no sidecar), for a generated test only when its
/// sidecar lists ABI-family functions.
bool wants_abi_check(const TestInput& input);
/// The ABI-family functions a sidecar lists, as the oracle takes them.
std::vector<oracle::AbiFunctionKinds> abi_kinds_of(const generator::Sidecar& sidecar);
/// The parameter declarations of the accepted configs (nothing in syntax mode, or when no
/// nvcc and clang config of one arch and separate-compilation mode were both accepted): in ptx
/// mode every config's artifact; otherwise, when wants_abi_check, the PTX of one nvcc and one
/// clang config per arch and mode (the layout check's, or a PTX compile into `workdir`). Adds
/// the views and the sidecar's kinds to `observations`.
std::optional<AbiCheck> check_abi(const TestCheck& run, const TestInput& input, const runners::Limits& compile_limits,
                                  const std::filesystem::path& workdir, oracle::Observations& observations);

/// True when the source defines main(); otherwise it is checked as an object file rather
/// than reported as two failed links. A text scan with comments removed: good enough to
/// choose a mode, and a wrong guess only shows as a link error on both sides.
bool defines_main(std::string_view source);

} // namespace cudiff::pipeline
