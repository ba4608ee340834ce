// compile(): one build of one source under one config, in its own directory.
#include "runners/runners.h"

namespace cudiff::runners {
namespace {

/// nvcc's `--time` CSV, beside the artifact; a few rows per compile, never near this bound.
constexpr std::string_view nvcc_times_file = "nvcc-time.csv";
constexpr std::uintmax_t max_times_bytes = 1 << 20;

std::string artifact_name(const std::filesystem::path& source, Mode mode, Linkage linkage) {
  std::string stem = source.stem().string();
  switch (mode) {
  case Mode::ptx: return stem + ".ptx";
  case Mode::cubin: return stem + ".cubin";
  case Mode::object: return stem + ".o";
  case Mode::syntax: return {};
  case Mode::binary:
  case Mode::run: return linkage == Linkage::shared_object ? stem + ".so" : stem;
  }
  return stem;
}

} // namespace

CompileResult compile(const Toolchain& toolchain, const Config& config, Mode mode, const std::filesystem::path& source,
                      const std::filesystem::path& workdir, const Limits& limits, Linkage linkage) {
  const std::filesystem::path dir = workdir / config.name;
  const std::filesystem::path scratch = dir / "tmp";
  std::error_code ec;
  std::filesystem::create_directories(scratch, ec);
  if (ec) throw_environment("cannot create " + scratch.string() + ": " + ec.message());

  const std::string name = artifact_name(source, mode, linkage);
  const std::filesystem::path output = name.empty() ? std::filesystem::path() : dir / name;

  CompileResult result;
  result.config = config;
  result.mode = mode;
  result.linkage = mode == Mode::binary || mode == Mode::run ? linkage : Linkage::executable;
  result.command = compile_command(toolchain, config, mode, std::filesystem::absolute(source), output, scratch,
                                   result.linkage);
  result.command.cwd = dir;
  result.command.limits = limits;
  // nvcc writes each sub-command's time to this file (measured: no cost), which names the
  // stage of a slow compile. A retry must not append to the last attempt's rows.
  const std::filesystem::path times = dir / nvcc_times_file;
  if (config.compiler == CompilerKind::nvcc) {
    std::filesystem::remove(times, ec);
    result.command.argv.insert(result.command.argv.end() - 1, {"--time", times.string()});
  }
  result.process = run_subprocess(result.command);
  if (result.process.exited_zero() && !output.empty() && std::filesystem::exists(output, ec)) result.artifact = output;
  if (config.compiler == CompilerKind::nvcc && std::filesystem::is_regular_file(times, ec) &&
      std::filesystem::file_size(times, ec) <= max_times_bytes)
    result.nvcc_times = read_file(times);
  return result;
}

} // namespace cudiff::runners
