// pipeline: the device path where binaries run — each config's cubin loaded in an executor and
// every kernel of the test launched from its sidecar launch plan, printing the lines the whole
// program prints (docs/pipeline.md, "Build paths").
#include "pipeline/check_parts.h"

#include <algorithm>

namespace cudiff::pipeline {
namespace {

/// Every kernel a test launches, in the order its main runs them: a program's, or a batch's
/// (the batch's sidecar lists all of its tests' kernels, in its tests' order).
const std::vector<generator::Sidecar::Kernel>* kernels_of(const generator::Sidecar& sidecar) {
  return sidecar.kernels ? &*sidecar.kernels : nullptr;
}

/// The cubin-built configs of a device-path check (the others, built whole, run as before).
bool cubin_built(const ConfigCheck& check) { return check.compile.mode == runners::Mode::cubin && !check.ptx.empty(); }

std::shared_ptr<runners::ExecutorPool> own_executor(const runners::GpuInfo& gpu, const std::filesystem::path& workdir,
                                                    std::string& why) {
  const std::optional<std::filesystem::path> program = runners::find_executor_program();
  if (!program) {
    why = "no cudiff-executor beside cudiff (or at $CUDIFF_EXECUTOR)";
    return nullptr;
  }
  runners::ExecutorSetup setup;
  setup.program = *program;
  setup.gpu = gpu;  // no runtime: the launches reach the driver alone
  setup.workdir = workdir / "executor";
  setup.slots = 1;
  std::error_code ec;
  std::filesystem::create_directories(setup.workdir, ec);
  return std::make_shared<runners::ExecutorPool>(setup);
}

} // namespace

std::string device_run_reason(const TestInput& input) {
  if (!input.sidecar) return "not a generated program (no sidecar)";
  const auto* kernels = kernels_of(*input.sidecar);
  if (kernels == nullptr || kernels->empty()) return "no kernels in the sidecar";
  for (const generator::Sidecar::Kernel& kernel : *kernels) {
    if (!kernel.launch)
      return "kernel " + kernel.name +
             " has no launch plan (a core kernel with lambdas, functors, managed memory or ABI-family parameters)";
    try {
      runners::parse_launch(boost::json::serialize(*kernel.launch));
    } catch (const Error& error) {
      return "kernel " + kernel.name + "'s launch plan: " + error.what();
    }
  }
  return {};
}

std::vector<runners::LaunchDescription> launch_plans(const generator::Sidecar& sidecar) {
  std::vector<runners::LaunchDescription> plans;
  if (const auto* kernels = kernels_of(sidecar))
    for (const generator::Sidecar::Kernel& kernel : *kernels)
      if (kernel.launch) plans.push_back(runners::parse_launch(boost::json::serialize(*kernel.launch)));
  // One stack limit for the process, as main sets it: a batch's largest test's.
  std::uint32_t stack = 0;
  for (const runners::LaunchDescription& plan : plans) stack = std::max(stack, plan.stack_bytes);
  for (runners::LaunchDescription& plan : plans) plan.stack_bytes = stack;
  return plans;
}

bool device_runs(const std::vector<ConfigCheck>& checks) { return std::ranges::any_of(checks, cubin_built); }

std::string run_device_path(std::vector<ConfigCheck>& checks, const CheckRequest& request,
                            const runners::GpuDiscovery& gpus, const std::filesystem::path& workdir) {
  const std::vector<runners::LaunchDescription> plans = launch_plans(*request.input.sidecar);
  std::shared_ptr<runners::ExecutorPool> executor = request.executor;  // else the check's own, once needed
  for (ConfigCheck& check : checks) {
    if (!cubin_built(check) || check.observation.outcome != oracle::CompileOutcome::accepted) continue;
    if (!runners::runs_on(check.compile.config, gpus.gpus.front())) {
      check.note = "built for " + check.compile.config.arch + ", not run on " + gpus.gpus.front().describe() +
                   " (compile-only here)";
      continue;
    }
    if (!executor) {
      std::string why;
      executor = own_executor(gpus.gpus.front(), workdir, why);
      if (!executor) return why;
    }
    // The kernels in the harness's order, on one load of the cubin, their lines in that order:
    // what the program's main prints (a request per kernel loaded the cubin again each time).
    runners::ExecutorPool::RunAttempt attempt = executor->launch(check.compile.artifact, plans, request.run_limits);
    // The executor names the failing kernel when it ran several; one alone is named here.
    const std::string where = check.compile.config.name + ": " +
                              (plans.size() == 1 ? "kernel " + plans.front().kernel + ": " : "");
    if (!attempt.result) return where + attempt.fallback;
    if (attempt.result->timed_out) return where + "did not end within the run limit";
    if (!attempt.failure.empty()) return where + attempt.failure;
    if (!attempt.result->exited_zero()) return where + attempt.result->status_text();
    runners::SubprocessResult whole = std::move(*attempt.result);
    check.run = oracle::observe_run(check.compile.config.name, whole);
    check.run_process = std::move(whole);
    check.ran_in_executor = true;
  }
  return {};
}

} // namespace cudiff::pipeline
