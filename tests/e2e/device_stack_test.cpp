// The device stack a generated program asks for is sound: every frame ptxas reports ("bytes
// stack frame", ptxas -v) for its device functions and kernels, under the configs whose frames
// are largest (clang -O0, nvcc -O0, nvcc -G), stays within the bound the generator assumed for
// it (generator::device_stack_of), and main() asks for the plan's bytes before any launch
// (label compilers: no GPU needed, ptxas runs on the host).
#include "generator/generator.h"
#include "runners/runners.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <regex>

namespace {

using namespace cudiff;

std::string tool(const char* variable, const char* name, const char* fallback) {
  if (const char* chosen = std::getenv(variable); chosen && *chosen) return chosen;
  if (std::filesystem::exists(fallback)) return fallback;
  auto found = find_on_path(name);
  return found ? found->string() : "";
}

/// Every "Function properties for NAME" and the "N bytes stack frame" that follows it.
std::map<std::string, std::uint64_t> ptxas_frames(const std::string& text) {
  std::map<std::string, std::uint64_t> frames;
  static const std::regex properties(R"(Function properties for (\S+))");
  static const std::regex frame(R"((\d+) bytes stack frame)");
  std::string current;
  for (const std::string& line : split_lines(text)) {
    std::smatch match;
    if (std::regex_search(line, match, properties)) current = match[1];
    else if (!current.empty() && std::regex_search(line, match, frame))
      frames[current] = std::max<std::uint64_t>(frames[current], std::stoull(match[1]));
  }
  return frames;
}

/// The generator's name a mangled name is about: the first of its <length><identifier>
/// components that is one of the plan's names (kernel_0's lambdas are inside run_kernel_0).
std::optional<std::string> planned_name(const std::string& mangled, const generator::DeviceStack& plan) {
  for (std::size_t at = 0; at < mangled.size();) {
    if (!std::isdigit(static_cast<unsigned char>(mangled[at]))) {
      ++at;
      continue;
    }
    std::size_t length = 0;
    while (at < mangled.size() && std::isdigit(static_cast<unsigned char>(mangled[at])))
      length = length * 10 + static_cast<std::size_t>(mangled[at++] - '0');
    if (length == 0 || at + length > mangled.size()) continue;
    const std::string identifier = mangled.substr(at, length);
    if (plan.frame_bounds.contains(identifier)) return identifier;
    at += length;
  }
  return std::nullopt;
}

generator::Policy recursive_policy() {
  generator::Policy policy = test::accepted_by_both(generator::Policy::defaults());
  policy.set("construct.device_functions", 1);
  policy.set("construct.device_recursion", 1);
  policy.set("function.recursive", 1);
  policy.set("function.call_depth.max", 6);
  policy.set("function.recursion.depth.max", 4);
  return policy;
}

TEST(DeviceStack, EveryFrameFitsItsBoundAtO0AndG) {
  const std::string clang = tool("CUDIFF_CLANG", "clang++-22", "/usr/bin/clang++-22");
  const std::string nvcc = tool("CUDIFF_NVCC", "nvcc", "/usr/local/cuda/bin/nvcc");
  ASSERT_FALSE(clang.empty() || nvcc.empty()) << "needs clang++-22 and nvcc";
  const std::string cuda = std::filesystem::path(nvcc).parent_path().parent_path().string();
  const generator::Policy policy = recursive_policy();
  TempDir dir("cudiff-stack");
  std::size_t checked = 0;
  std::uint64_t largest_ratio_percent = 0;
  for (const auto& [seed, size] : std::vector<std::pair<std::uint64_t, generator::Size>>{{100, generator::Size::small},
                                                                                         {101, generator::Size::medium},
                                                                                         {112, generator::Size::medium},
                                                                                         {7, generator::Size::large}}) {
    const generator::TestCase test = generator::generate_program(policy, seed, size);
    const generator::DeviceStack plan = generator::device_stack_of(policy, seed, size);
    ASSERT_GE(plan.bytes, 1024u);
    EXPECT_NE(test.source.find("cudaDeviceSetLimit(cudaLimitStackSize, " + std::to_string(plan.bytes) + ")"),
              std::string::npos)
        << "seed " << seed << " does not ask for its plan's " << plan.bytes << " bytes";
    const auto file = dir.path() / (test.name + ".cu");
    write_file(file, test.source);
    // As the runners do: CUDA 13's <cuda/std/...> (cooperative groups, cuda::atomic_ref).
    const std::string cccl = "-isystem" + cuda + "/include/cccl";
    const std::vector<std::pair<std::string, std::vector<std::string>>> builds = {
        {"clang-O0",
         {clang, "-x", "cuda", "--cuda-gpu-arch=sm_90", "--cuda-path=" + cuda, cccl, "-Wno-unknown-cuda-version", "-w",
          "-std=c++17", "-O0", "--cuda-device-only", "-c", "-Xcuda-ptxas", "-v", file.string(), "-o", "/dev/null"}},
        {"nvcc-O0",
         {nvcc, "-std=c++17", "--extended-lambda", "-arch=sm_90", "-O0", "-Xcicc", "-O0", "-Xptxas", "-O0", "-w",
          "-Xptxas", "-v", "-c", file.string(), "-o", (dir.path() / "o0.o").string()}},
        {"nvcc-G",
         {nvcc, "-std=c++17", "--extended-lambda", "-arch=sm_90", "-G", "-w", "-Xptxas", "-v", "-c", file.string(),
          "-o", (dir.path() / "g.o").string()}}};
    for (const auto& [config, argv] : builds) {
      runners::Command command;
      command.argv = argv;
      command.limits.wall_seconds = 600;
      const runners::SubprocessResult result = runners::run_subprocess(command);
      ASSERT_TRUE(result.exited_zero()) << config << " seed " << seed << ": " << result.err.text;
      const auto frames = ptxas_frames(result.out.text + "\n" + result.err.text);
      EXPECT_FALSE(frames.empty()) << config << ": ptxas -v printed no frames";
      for (const auto& [mangled, bytes] : frames) {
        const std::optional<std::string> name = planned_name(mangled, plan);
        if (!name) continue;  // a helper, probe or lambda: the plan's helper allowance
        const std::uint64_t bound = plan.frame_bounds.at(*name);
        ++checked;
        largest_ratio_percent = std::max(largest_ratio_percent, bytes * 100 / bound);
        EXPECT_LE(bytes, bound) << config << " seed " << seed << ": " << *name << " (" << mangled << ") has a " << bytes
                                << "-byte frame, over its bound of " << bound;
      }
    }
  }
  EXPECT_GT(checked, 20u) << "too few frames matched the plan's names to say anything";
  std::printf("checked %zu frames; the largest is %llu%% of its bound\n", checked,
              static_cast<unsigned long long>(largest_ratio_percent));
}

} // namespace
