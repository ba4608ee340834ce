// Build configurations: the presets `--config` names, and the exact command line of each.
#include "runners/runners.h"

#include <algorithm>

namespace cudiff::runners {
namespace {

Config make(std::string name, CompilerKind compiler, std::string opt, std::vector<std::string> extra = {}) {
  return Config{std::move(name), compiler, std::move(opt), "sm_90", std::move(extra)};
}

/// nvcc's -O sets the host optimization level only; cicc and ptxas optimize device code
/// unless told otherwise. An -O0 config must be -O0 on both sides to compare with clang's.
std::vector<std::string> nvcc_optimization(const Config& config) {
  if (config.opt_level == "O0") return {"-O0", "-Xcicc", "-O0", "-Xptxas", "-O0"};
  return {"-" + config.opt_level};
}

std::vector<std::string> nvcc_mode_flags(Mode mode, const std::filesystem::path& output) {
  switch (mode) {
  // -cuda runs the CUDA front end (cudafe++) over host and device code and stops there:
  // nvcc's closest equivalent of -fsyntax-only.
  case Mode::syntax: return {"-cuda", "-o", "/dev/null"};
  case Mode::ptx: return {"-ptx", "-o", output.string()};
  case Mode::object: return {"-c", "-o", output.string()};
  case Mode::binary:
  case Mode::run: return {"-o", output.string()};
  }
  return {};
}

std::vector<std::string> clang_mode_flags(Mode mode, const std::filesystem::path& output) {
  switch (mode) {
  case Mode::syntax: return {"-fsyntax-only"};
  case Mode::ptx: return {"--cuda-device-only", "-S", "-o", output.string()};
  case Mode::object: return {"-c", "-o", output.string()};
  case Mode::binary:
  case Mode::run: return {"-o", output.string()};
  }
  return {};
}

void append(std::vector<std::string>& to, const std::vector<std::string>& from) {
  to.insert(to.end(), from.begin(), from.end());
}

} // namespace

std::string to_string(Mode mode) {
  switch (mode) {
  case Mode::syntax: return "syntax";
  case Mode::ptx: return "ptx";
  case Mode::object: return "object";
  case Mode::binary: return "binary";
  case Mode::run: return "run";
  }
  return "?";
}

std::optional<Mode> parse_mode(std::string_view text) {
  for (Mode mode : {Mode::syntax, Mode::ptx, Mode::object, Mode::binary, Mode::run})
    if (to_string(mode) == text) return mode;
  return std::nullopt;
}

std::vector<Config> default_configs() {
  return {make("nvcc-O3", CompilerKind::nvcc, "O3"), make("clang-O3", CompilerKind::clang, "O3")};
}

std::vector<Config> preset_configs() {
  std::vector<Config> presets = default_configs();
  presets.push_back(make("nvcc-O0", CompilerKind::nvcc, "O0"));
  presets.push_back(make("clang-O0", CompilerKind::clang, "O0"));
  // -G turns device optimization off and adds device debug information.
  presets.push_back(make("nvcc-G", CompilerKind::nvcc, "O0", {"-G"}));
  // clang's previous offload driver links with plain ld instead of clang-linker-wrapper.
  presets.push_back(make("clang-O3-old-driver", CompilerKind::clang, "O3", {"--no-offload-new-driver"}));
  return presets;
}

std::vector<Config> parse_configs(std::string_view list) {
  std::vector<Config> presets = preset_configs();
  std::vector<Config> chosen;
  for (const std::string& raw : split(list, ',')) {
    std::string name(trim(raw));
    if (name.empty()) continue;
    auto found = std::find_if(presets.begin(), presets.end(), [&](const Config& c) { return c.name == name; });
    if (found == presets.end()) {
      std::vector<std::string> names;
      for (const Config& c : presets) names.push_back(c.name);
      throw_usage("unknown config '" + name + "' (known: " + join(names, ", ") + ")");
    }
    if (std::find(chosen.begin(), chosen.end(), *found) == chosen.end()) chosen.push_back(*found);
  }
  if (chosen.empty()) throw_usage("--config needs at least one config name");
  return chosen;
}

Command compile_command(const Toolchain& toolchain, const Config& config, Mode mode,
                        const std::filesystem::path& source, const std::filesystem::path& output,
                        const std::filesystem::path& scratch) {
  Command command;
  const std::string cuda = toolchain.cuda_home.string();
  if (config.compiler == CompilerKind::nvcc) {
    command.argv = {toolchain.nvcc.path.string(), "-std=c++17", "--extended-lambda", "-arch=" + config.arch};
    append(command.argv, nvcc_optimization(config));
    append(command.argv, config.extra_flags);
    append(command.argv, nvcc_mode_flags(mode, output));
    command.argv.push_back(source.string());
  } else {
    command.argv = {toolchain.clang.path.string(), "-x", "cuda", "--cuda-gpu-arch=" + config.arch,
                    "--cuda-path=" + cuda, "-Wno-unknown-cuda-version", "-std=c++17", "-" + config.opt_level,
                    // Crash reproducers land in the private scratch dir, never in /tmp.
                    "-fcrash-diagnostics-dir=" + scratch.string()};
    append(command.argv, config.extra_flags);
    append(command.argv, clang_mode_flags(mode, output));
    command.argv.push_back(source.string());
    if (mode == Mode::binary || mode == Mode::run)  // libraries after the sources
      append(command.argv, {"-L" + cuda + "/lib64", "-lcudart_static", "-ldl", "-lrt", "-lpthread"});
  }
  // Both compilers put intermediate files in TMPDIR; a private one is removed with the
  // workdir, so a killed compile leaves nothing behind. LC_ALL=C keeps messages parseable.
  command.env_overrides = {{"TMPDIR", scratch.string()}, {"LC_ALL", "C"}};
  return command;
}

} // namespace cudiff::runners
