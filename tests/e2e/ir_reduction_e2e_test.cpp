// compilers-labeled: programs along random walks of the IR reduction (generator::ProgramReduction)
// build with nvcc -O3 and clang++-22 -O3 into binaries, as a campaign builds them: the trims,
// the compact host side and a kernel without input leave programs that link and can run. (That
// they print their predictions needs a GPU: tests/gpu/ir_reduction_gpu_test.cpp; that every
// kind of edit leaves valid CUDA is tests/e2e/ir_reduction_kinds_test.cpp's.)
#include "runners/runners.h"
#include "support/ir_walk.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

namespace {

using namespace cudiff;

TEST(IrReductionE2E, ProgramsAlongReductionsBuildWithBothCompilers) {
  static const runners::Toolchain toolchain = runners::Toolchain::from(runners::discover_toolchain({}));
  std::vector<generator::TestCase> programs;
  for (std::uint64_t seed : {21u, 22u}) {
    std::vector<generator::TestCase> walk = test::ir_walk(seed, 60, 3);
    programs.insert(programs.end(), walk.begin(), walk.end());
  }
  ASSERT_EQ(programs.size(), 6u);
  // Two ends of a greedy reduction: one with the base words and the input, one with neither.
  programs.push_back(test::reduced_keeping("__vmaxs2("));
  programs.push_back(test::reduced_keeping("__ffs((int)0x0u)"));
  ASSERT_FALSE(test::contains(programs.back().source, "host_in"));
  TempDir dir("cudiff-ir-reduction-e2e");
  std::size_t compact = 0;
  for (std::size_t i = 0; i < programs.size(); ++i) {
    const generator::TestCase& test = programs[i];
    compact += test::contains(test.source, "int main() {\n") ? 1 : 0;
    const auto file = dir.path() / ("p" + std::to_string(i) + ".cu");
    write_file(file, test.source);
    for (const runners::Config& config : runners::parse_configs("nvcc-O3,clang-O3")) {
      const auto workdir = dir.path() / (config.name + std::to_string(i));
      std::filesystem::create_directories(workdir);
      const runners::CompileResult built = runners::compile(toolchain, config, runners::Mode::binary, file, workdir,
                                                            runners::Limits{});
      EXPECT_TRUE(built.process.exited_zero() && !built.artifact.empty())
          << config.name << " on step " << i << ":\n"
          << shorten(built.process.err.text, 3000) << "\n"
          << test.source;
    }
  }
  EXPECT_GT(compact, 0u) << "no walk reached the compact host side";
}

} // namespace
