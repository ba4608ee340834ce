// Generated programs are accepted by the real compilers: clang++-22 -fsyntax-only and nvcc -cuda
// on a sample of seeds (label compilers).
#include "generator/generator.h"
#include "runners/runners.h"

#include <gtest/gtest.h>

namespace {

using namespace cudiff;

std::string clang_path() {
  auto found = find_on_path("clang++-22");
  return found ? found->string() : "";
}

std::string nvcc_path() {
  if (std::filesystem::exists("/usr/local/cuda/bin/nvcc")) return "/usr/local/cuda/bin/nvcc";
  auto found = find_on_path("nvcc");
  return found ? found->string() : "";
}

} // namespace

TEST(GeneratorCompile, SampleSeedsAreAcceptedByBothCompilers) {
  const std::string clang = clang_path();
  const std::string nvcc = nvcc_path();
  if (clang.empty() || nvcc.empty()) GTEST_SKIP() << "needs clang++-22 and nvcc";
  const std::string cuda = std::filesystem::path(nvcc).parent_path().parent_path().string();
  TempDir dir("cudiff-gen-compile");
  const generator::Policy policy = generator::Policy::defaults();
  for (std::uint64_t seed : {1u, 2u, 3u, 4u, 5u}) {
    const generator::TestCase test = generator::generate_program(policy, seed, generator::Size::small);
    const auto file = dir.path() / (test.name + ".cu");
    write_file(file, test.source);
    runners::Command syntax;
    syntax.argv = {clang, "-x", "cuda", "--cuda-gpu-arch=sm_90", "--cuda-path=" + cuda, "-Wno-unknown-cuda-version",
                   "-std=c++17", "-fsyntax-only", file.string()};
    const auto clang_result = runners::run_subprocess(syntax);
    EXPECT_TRUE(clang_result.exited_zero()) << "seed " << seed << ": " << clang_result.err.text;
    runners::Command front;
    front.argv = {nvcc, "-std=c++17", "--extended-lambda", "-arch=sm_90", "-cuda", file.string(), "-o", "/dev/null"};
    const auto nvcc_result = runners::run_subprocess(front);
    EXPECT_TRUE(nvcc_result.exited_zero()) << "seed " << seed << ": " << nvcc_result.err.text << nvcc_result.out.text;
  }
}
