// Test support: locating the cudiff binary and test data; running cudiff as a black box.
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <chrono>

#include <cstdlib>
#include <regex>
#include <unistd.h>

namespace cudiff::test {
namespace {

std::filesystem::path from_env(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? std::filesystem::path(value) : std::filesystem::path();
}

} // namespace

std::filesystem::path cudiff_binary() {
  if (auto path = from_env("CUDIFF_BIN"); !path.empty()) return path;
  // A test binary lives in BUILD/tests/; cudiff at BUILD/cudiff.
  return std::filesystem::read_symlink("/proc/self/exe").parent_path().parent_path() / "cudiff";
}

std::filesystem::path executor_binary() {
  if (auto path = from_env("CUDIFF_EXECUTOR"); !path.empty()) return path;
  return cudiff_binary().parent_path() / "cudiff-executor";
}

std::filesystem::path host_shared_object(const std::filesystem::path& dir, const std::string& name,
                                         const std::string& source) {
  const auto file = dir / (name + ".cpp");
  write_file(file, source);
  const auto output = dir / (name + ".so");
  const std::string clang = clang_path().empty() ? "clang++-22" : clang_path();
  const runners::SubprocessResult built = run_tool({clang, "-std=c++17", "-fPIC", "-shared", "-pthread", "-o",
                                                    output.string(), file.string()},
                                                   120);
  EXPECT_TRUE(built.exited_zero()) << built.err.text;
  return output;
}

runners::ExecutorSetup gpu_executor_setup(const runners::Toolchain& toolchain, const runners::GpuInfo& gpu,
                                          const std::filesystem::path& workdir, std::size_t slots) {
  runners::ExecutorSetup setup;
  setup.program = executor_binary();
  // With the runtime, as a campaign's executors run (module launches share its primary context).
  const auto cudart = runners::find_cudart(toolchain.cuda_home);
  if (!cudart) throw_environment("no libcudart.so under " + toolchain.cuda_home.string());
  setup.cudart = *cudart;
  setup.gpu = gpu;
  setup.workdir = workdir;
  setup.slots = slots;
  return setup;
}

runners::ToolchainSearch toolchain_search() {
  runners::ToolchainSearch search;
  if (auto clang = from_env("CUDIFF_CLANG"); !clang.empty()) search.clang = clang;
  if (auto nvcc = from_env("CUDIFF_NVCC"); !nvcc.empty()) search.nvcc = nvcc;
  if (auto home = from_env("CUDA_HOME"); !home.empty()) search.cuda_home = home;
  return search;
}

std::string clang_path() {
  if (auto chosen = from_env("CUDIFF_CLANG"); !chosen.empty()) return chosen.string();
  auto found = find_on_path("clang++-22");
  return found ? found->string() : "";
}

std::string nvcc_path() {
  if (auto chosen = from_env("CUDIFF_NVCC"); !chosen.empty()) return chosen.string();
  if (std::filesystem::exists("/usr/local/cuda/bin/nvcc")) return "/usr/local/cuda/bin/nvcc";
  auto found = find_on_path("nvcc");
  return found ? found->string() : "";
}

runners::SubprocessResult run_tool(const std::vector<std::string>& argv, double wall_seconds) {
  runners::Command command;
  command.argv = argv;
  command.limits.wall_seconds = wall_seconds;
  return runners::run_subprocess(command);
}

std::filesystem::path source_dir() {
  if (auto path = from_env("CUDIFF_SOURCE_DIR"); !path.empty()) return path;
  return CUDIFF_DEFAULT_SOURCE_DIR;  // the tree this binary was built from
}

std::filesystem::path data(const std::string& relative) { return source_dir() / "tests" / relative; }

runners::SubprocessResult run_cudiff(const std::vector<std::string>& args, double wall_seconds,
                                     std::vector<std::pair<std::string, std::string>> env) {
  runners::Command command;
  command.argv.push_back(cudiff_binary().string());
  command.argv.insert(command.argv.end(), args.begin(), args.end());
  command.limits.wall_seconds = wall_seconds;
  command.env_overrides = std::move(env);
  return runners::run_subprocess(command);
}

std::optional<std::string> no_gpu() {
  auto gpus = runners::discover_gpus();
  if (!gpus.gpus.empty()) return std::nullopt;
  return "no GPU (" + gpus.note + ")";
}

bool gpu_required() {
  const char* value = std::getenv("CUDIFF_REQUIRE_GPU");
  return value != nullptr && std::string_view(value) == "1";
}

std::string gpu_arch() {
  const runners::GpuDiscovery gpus = runners::discover_gpus();
  if (gpus.gpus.empty()) throw std::runtime_error("gpu_arch: no GPU (" + gpus.note + ")");
  return gpus.gpus.front().arch();
}

bool reads_managed_on_device(const std::string& source) {
  static const std::regex load(R"(kernel_[0-9]+_in\[)");
  std::size_t at = 0;
  while ((at = source.find("__global__", at)) != std::string::npos) {
    const std::size_t end = source.find("static void run_", at);
    if (std::regex_search(source.substr(at, end - at), load)) return true;
    at = end;
  }
  return false;
}

double seconds_of(const std::function<void()>& body) {
  const auto start = std::chrono::steady_clock::now();
  body();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::optional<ErrorKind> error_kind_of(const std::function<void()>& body) {
  try {
    body();
  } catch (const Error& error) {
    return error.kind();
  }
  return std::nullopt;
}

std::string error_message_of(const std::function<void()>& body) {
  try {
    body();
  } catch (const Error& error) {
    return error.what();
  }
  return "(no error)";
}

std::string repeated(std::string_view part, std::size_t times) {
  std::string out;
  out.reserve(part.size() * times);
  for (std::size_t i = 0; i < times; ++i) out += part;
  return out;
}

} // namespace cudiff::test
