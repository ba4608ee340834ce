// Inline-PTX blocks (generator/inline_ptx/inline_ptx.h) reach ptxas and pass it: a .cu file of 200 random
// blocks, one __device__ function each, some called twice so that one kernel inlines them
// twice (their labels and registers must stay local to their braces), builds to a cubin with
// nvcc -O3 and nvcc -O0 -Xptxas -O0, and to an object with clang++-22 -O3 (label compilers).
#include "runners/runners.h"
#include "support/inline_ptx_program.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>

namespace {

using namespace cudiff;

TEST(InlinePtxCompile, TwoHundredBlocksBuildWithNvccAndClang) {
  const std::string nvcc = test::nvcc_path(), clang = test::clang_path();
  ASSERT_FALSE(nvcc.empty() || clang.empty()) << "needs nvcc and clang++-22 (scripts/setup.sh installs clang-22)";
  const std::string cuda = std::filesystem::path(nvcc).parent_path().parent_path().string();
  const auto blocks = test::make_ptx_blocks(200, 1);
  int twice = 0, loops = 0, branches = 0;
  for (const auto& entry : blocks) {
    twice += entry.called_twice;
    const auto& features = entry.block.features;
    loops += std::find(features.begin(), features.end(), "loop") != features.end();
    branches += std::find(features.begin(), features.end(), "if") != features.end();
  }
  EXPECT_GT(twice, 0);
  EXPECT_GT(loops, 0);
  EXPECT_GT(branches, 0);
  TempDir dir("cudiff-inline-ptx");
  const auto file = dir.path() / "inline_ptx_blocks.cu";
  write_file(file, test::ptx_program(blocks));
  const std::vector<std::pair<std::string, std::vector<std::string>>> builds = {
      {"nvcc -O3", {nvcc, "-O3", "-arch=sm_90", "-cubin", file.string(), "-o", (dir.path() / "o3.cubin").string()}},
      {"nvcc -O0 -Xptxas -O0",
       {nvcc, "-O0", "-Xptxas", "-O0", "-arch=sm_90", "-cubin", file.string(), "-o",
        (dir.path() / "o0.cubin").string()}},
      {"clang++-22 -O3",
       {clang, "-O3", "-x", "cuda", "--cuda-gpu-arch=sm_90", "-Wno-unknown-cuda-version", "--cuda-path=" + cuda, "-c",
        file.string(), "-o", (dir.path() / "clang.o").string()}},
  };
  for (const auto& [name, argv] : builds) {
    runners::SubprocessResult result;
    const double seconds = test::seconds_of([&] { result = test::run_tool(argv); });
    std::cout << "[ inline ptx ] " << name << ": exit " << result.exit_code << " in " << format_seconds(seconds) << " ("
              << blocks.size() << " blocks, " << twice << " inlined twice, " << loops << " with loops, " << branches
              << " with branches)\n";
    EXPECT_TRUE(result.exited_zero()) << name << ":\n" << shorten(result.err.text + result.out.text, 4000);
  }
}

} // namespace
