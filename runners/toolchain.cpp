// Toolchain discovery: find nvcc and clang, read their exact versions, refuse unusable ones.
#include "runners/runners.h"

#include <regex>
#include <unistd.h>

namespace cudiff::runners {
namespace {

constexpr int kMinimumClangMajor = 22;  // older clangs cannot build CUDA 13 code

std::string version_output(const std::filesystem::path& compiler) {
  Command command;
  command.argv = {compiler.string(), "--version"};
  command.limits.wall_seconds = 30;
  command.env_overrides = {{"LC_ALL", "C"}};
  SubprocessResult result = run_subprocess(command);
  if (!result.started) return {};
  return result.out.text + result.err.text;
}

bool is_executable_file(const std::filesystem::path& path) {
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec) && ::access(path.c_str(), X_OK) == 0;
}

/// Checks that `path` exists, runs, and prints a version line matching `pattern`.
CompilerProbe probe(CompilerKind kind, const std::filesystem::path& path, const std::regex& pattern) {
  CompilerProbe result;
  if (!is_executable_file(path)) {
    result.problem = to_string(kind) + " not found or not executable: " + path.string();
    return result;
  }
  std::string text = version_output(path);
  for (const std::string& line : split_lines(text)) {
    std::smatch match;
    if (!std::regex_search(line, match, pattern)) continue;
    result.compiler = Compiler{kind, path, match[1].str(), line};
    return result;
  }
  result.problem = path.string() + " did not print a " + to_string(kind) + " version (is it really " + to_string(kind) +
                   "?)";
  return result;
}

CompilerProbe probe_nvcc(const std::filesystem::path& path) {
  return probe(CompilerKind::nvcc, path, std::regex(R"(release [0-9.]+, V([0-9]+\.[0-9]+\.[0-9]+))"));
}

CompilerProbe probe_clang(const std::filesystem::path& path) {
  CompilerProbe result = probe(CompilerKind::clang, path, std::regex(R"(clang version ([0-9]+\.[0-9]+\.[0-9]+))"));
  if (!result.compiler) return result;
  int major = std::stoi(result.compiler->version);
  if (major < kMinimumClangMajor) {
    result.problem = "clang " + result.compiler->version + " at " + path.string() +
                     " is too old: CUDA 13 needs clang " + std::to_string(kMinimumClangMajor) +
                     " or newer (install clang-22, or pass --clang)";
    result.compiler.reset();
  }
  return result;
}

std::filesystem::path find_nvcc(const ToolchainSearch& search) {
  if (search.nvcc) return *search.nvcc;
  if (search.cuda_home && is_executable_file(*search.cuda_home / "bin/nvcc")) return *search.cuda_home / "bin/nvcc";
  if (is_executable_file("/usr/local/cuda/bin/nvcc")) return "/usr/local/cuda/bin/nvcc";
  if (auto on_path = find_on_path("nvcc")) return *on_path;
  return "/usr/local/cuda/bin/nvcc";  // reported as missing by probe()
}

std::filesystem::path find_clang(const ToolchainSearch& search) {
  if (search.clang) return *search.clang;
  if (auto on_path = find_on_path("clang++-22")) return *on_path;
  // A plain clang++ is probed too, so an old one is refused with its version in the message.
  if (auto on_path = find_on_path("clang++")) return *on_path;
  return "clang++-22";
}

/// The CUDA toolkit clang should use: $CUDA_HOME, else the one nvcc belongs to.
std::filesystem::path find_cuda_home(const ToolchainSearch& search, const CompilerProbe& nvcc) {
  if (search.cuda_home) return *search.cuda_home;
  if (nvcc.compiler) {
    std::error_code ec;
    auto real = std::filesystem::canonical(nvcc.compiler->path, ec);
    if (!ec) return real.parent_path().parent_path();
  }
  return "/usr/local/cuda";
}

} // namespace

std::string to_string(CompilerKind kind) { return kind == CompilerKind::nvcc ? "nvcc" : "clang"; }

ToolchainDiscovery discover_toolchain(const ToolchainSearch& search) {
  ToolchainDiscovery discovery;
  discovery.nvcc = probe_nvcc(find_nvcc(search));
  std::filesystem::path clang = find_clang(search);
  if (clang.is_absolute() || clang.has_parent_path()) discovery.clang = probe_clang(clang);
  else discovery.clang.problem = "clang++-22 not found on PATH (install clang-22, or pass --clang)";
  discovery.cuda_home = find_cuda_home(search, discovery.nvcc);
  return discovery;
}

Toolchain Toolchain::from(const ToolchainDiscovery& discovery) {
  if (!discovery.nvcc.compiler) throw_environment(discovery.nvcc.problem);
  if (!discovery.clang.compiler) throw_environment(discovery.clang.problem);
  return Toolchain{*discovery.nvcc.compiler, *discovery.clang.compiler, discovery.cuda_home};
}

boost::json::value to_json(const Compiler& compiler) {
  return boost::json::object{{"compiler", to_string(compiler.kind)},
                             {"path", compiler.path.string()},
                             {"version", compiler.version},
                             {"version_line", compiler.version_line}};
}

boost::json::value to_json(const CompilerProbe& probe) {
  if (probe.compiler) return to_json(*probe.compiler);
  return boost::json::object{{"problem", probe.problem}};
}

} // namespace cudiff::runners
