// execute(): runs a built CUDA binary under limits, on one chosen GPU; program_environment(),
// the environment every run of a built program gets.
#include "runners/runners.h"

namespace cudiff::runners {

std::vector<std::pair<std::string, std::string>> program_environment(const std::optional<std::string>& visible_device) {
  std::vector<std::pair<std::string, std::string>> env;
  if (visible_device) env.emplace_back("CUDA_VISIBLE_DEVICES", *visible_device);
  // The driver caches what its JIT compiles from PTX (~/.nv/ComputeCache) and hands the cached
  // code back to the next process that loads the same PTX: a PTX-only binary (nvcc-O3-jit)
  // would exercise the driver's compiler once, then only the cache. Off, the JIT runs on every
  // load, and a campaign writes nothing under $HOME. Binaries with SASS for the GPU never JIT.
  env.emplace_back("CUDA_CACHE_DISABLE", "1");
  return env;
}

SubprocessResult execute(const std::filesystem::path& binary, const Limits& limits,
                         const std::optional<std::string>& visible_device, const std::filesystem::path& cwd) {
  Command command;
  command.argv = {std::filesystem::absolute(binary).string()};
  command.cwd = cwd;
  command.limits = limits;
  command.env_overrides = program_environment(visible_device);
  return run_subprocess(command);
}

} // namespace cudiff::runners
