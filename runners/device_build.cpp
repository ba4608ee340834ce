// runners: the device path's two steps — a front end to PTX, shared by the configs that differ
// only in ptxas's level, and ptxas on that PTX — with what the driver would have said.
#include "runners/runners.h"

#include <algorithm>
#include <cstring>

namespace cudiff::runners {
namespace {

bool has_flag(const Config& config, std::string_view flag) {
  return std::ranges::find(config.extra_flags, flag) != config.extra_flags.end();
}

/// The ptxas the config's compiler would run: nvcc's own toolkit's, clang's --cuda-path's.
std::filesystem::path ptxas_of(const Toolchain& toolchain, const Config& config) {
  if (config.compiler == CompilerKind::nvcc) return toolchain.nvcc.path.parent_path() / "ptxas";
  return toolchain.cuda_home / "bin" / "ptxas";
}

/// "Segmentation fault": strsignal's words, as nvcc prints them after the number.
std::string signal_words(int signal) {
  const char* words = ::strsignal(signal);
  return words != nullptr ? words : "unknown signal";
}

} // namespace

bool device_buildable(const Config& config) {
  return !ptx_only(config) && !relocatable_device_code(config) && !ptxas_level(config).empty() &&
         !has_flag(config, "-G");
}

Config front_end_config(const Config& config) {
  Config front = config;
  front.ptxas_opt_level.clear();
  return front;
}

std::vector<std::string> front_end_key(const Toolchain& toolchain, const Config& config) {
  return compile_command(toolchain, front_end_config(config), Mode::ptx, "SOURCE", "OUTPUT", "SCRATCH").argv;
}

Command ptxas_command(const Toolchain& toolchain, const Config& config, const std::filesystem::path& ptx,
                      const std::filesystem::path& cubin) {
  Command command;
  const std::string ptxas = ptxas_of(toolchain, config).string();
  // Each driver's own argv for ptxas (nvcc -dryrun, clang -###), so that the assembler sees
  // what it sees in a whole build: clang passes its own level first, and a config's ptxas
  // level after it (ptxas takes the last one and warns, as it does there).
  if (config.compiler == CompilerKind::nvcc) {
    command.argv = {ptxas, "-arch=" + config.arch, "-m64", "-" + ptxas_level(config), ptx.string(),
                    "-o",  cubin.string()};
  } else {
    command.argv = {ptxas,          "-m64",      config.opt_level == "O0" ? "-O0" : "-O3",
                    "--gpu-name",   config.arch, "--output-file",
                    cubin.string(), ptx.string()};
    if (!config.ptxas_opt_level.empty()) command.argv.push_back("-" + config.ptxas_opt_level);
  }
  command.env_overrides = {{"LC_ALL", "C"}};
  return command;
}

namespace {

std::string driver_line_for_ptxas(const Config& config, const Toolchain& toolchain, const SubprocessResult& ptxas) {
  if (ptxas.exited_zero() || !ptxas.started || ptxas.timed_out || ptxas.memory_limit_hit || ptxas.stopped) return {};
  if (config.compiler == CompilerKind::nvcc) {
    if (ptxas.signal != 0)
      return "nvcc error   : 'ptxas' died due to signal " + std::to_string(ptxas.signal) + " (" +
             signal_words(ptxas.signal) + ")\n";
    return {};  // nvcc prints nothing of its own after ptxas's errors; it exits with ptxas's status
  }
  const std::string driver = toolchain.clang.path.filename().string();
  if (ptxas.signal != 0) return driver + ": error: ptxas command failed due to signal (use -v to see invocation)\n";
  return driver + ": error: ptxas command failed with exit code " + std::to_string(ptxas.exit_code) +
         " (use -v to see invocation)\n";
}

} // namespace

SubprocessResult as_driver_reports(const Config& config, const Toolchain& toolchain, SubprocessResult ptxas) {
  ptxas.err.text += driver_line_for_ptxas(config, toolchain, ptxas);
  if (config.compiler == CompilerKind::clang && ptxas.started && ptxas.signal == 0 && ptxas.exit_code != 0 &&
      !ptxas.timed_out && !ptxas.memory_limit_hit && !ptxas.stopped)
    ptxas.exit_code = 1;
  return ptxas;
}

CompileResult assemble(const Toolchain& toolchain, const Config& config, const CompileResult& front_end,
                       const std::filesystem::path& workdir, const Limits& limits) {
  const std::filesystem::path dir = workdir / config.name;
  std::error_code ec;
  std::filesystem::create_directories(dir / "tmp", ec);
  if (ec) throw_environment("cannot create " + (dir / "tmp").string() + ": " + ec.message());
  const std::filesystem::path cubin = dir / (front_end.artifact.stem().string() + ".cubin");

  CompileResult result;
  result.config = config;
  result.mode = Mode::cubin;
  result.front_end = front_end.command;
  result.nvcc_times = front_end.nvcc_times;
  result.command = ptxas_command(toolchain, config, front_end.artifact, cubin);
  result.command.cwd = dir;
  result.command.env_overrides.emplace_back("TMPDIR", (dir / "tmp").string());
  result.command.limits = limits;
  const SubprocessResult ptxas = as_driver_reports(config, toolchain, run_subprocess(result.command));

  // The config's result is what its driver would have shown: the front end's output, then
  // ptxas's and the driver's own line about it; the time of both steps.
  result.process = ptxas;
  result.process.err.text = front_end.process.err.text + ptxas.err.text;
  result.process.err.total_bytes += front_end.process.err.total_bytes;
  result.process.err.truncated = front_end.process.err.truncated || ptxas.err.truncated;
  result.process.out.text = front_end.process.out.text + ptxas.out.text;
  result.process.out.total_bytes += front_end.process.out.total_bytes;
  result.process.wall_seconds += front_end.process.wall_seconds;
  result.process.cpu_seconds += front_end.process.cpu_seconds;
  result.process.start_time = front_end.process.start_time;
  result.process.peak_memory_bytes = std::max(front_end.process.peak_memory_bytes, ptxas.peak_memory_bytes);
  if (result.process.exited_zero() && std::filesystem::exists(cubin, ec)) result.artifact = cubin;
  return result;
}

} // namespace cudiff::runners
