// execute(): runs a built CUDA binary under limits, on one chosen GPU.
#include "runners/runners.h"

namespace cudiff::runners {

SubprocessResult execute(const std::filesystem::path& binary, const Limits& limits,
                         const std::optional<std::string>& visible_device, const std::filesystem::path& cwd) {
  Command command;
  command.argv = {std::filesystem::absolute(binary).string()};
  command.cwd = cwd;
  command.limits = limits;
  if (visible_device) command.env_overrides.emplace_back("CUDA_VISIBLE_DEVICES", *visible_device);
  return run_subprocess(command);
}

} // namespace cudiff::runners
