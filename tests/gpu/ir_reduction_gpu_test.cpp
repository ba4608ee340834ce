// gpu-labeled: the IR reduction's programs print what their sidecars predict. Programs along
// random walks of generator::ProgramReduction (every kind of edit, the trims of variables and
// local and shared words, one block, one warp, the compact host side) and the ends of two
// greedy reductions (one whose kernel reads no input) are built with nvcc -O0
// (device code unoptimized: the reference a reduction trusts) and clang++-22 -O0 when
// CUDIFF_CLANG is set, and run: each kernel's checksum line must be the prediction. A wrong
// prediction would make the IR reduction keep or drop candidates for nothing. Skipped, with
// the reason, without a GPU.
#include "runners/runners.h"
#include "support/ir_walk.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <future>
#include <iostream>
#include <sstream>

namespace {

using namespace cudiff;

runners::SubprocessResult run(const std::vector<std::string>& argv, double seconds) {
  runners::Command command;
  command.argv = argv;
  command.limits.wall_seconds = seconds;
  return runners::run_subprocess(command);
}

/// What went wrong building and running `test` with `compiler` (empty: it printed the prediction).
std::string check_prediction(const generator::TestCase& test, const std::vector<std::string>& compiler,
                             const std::filesystem::path& dir) {
  const auto file = dir / (test.name + ".cu"), binary = dir / test.name;
  write_file(file, test.source);
  std::vector<std::string> argv = compiler;
  argv.insert(argv.end(), {file.string(), "-o", binary.string()});
  const auto built = run(argv, 600);
  if (!built.exited_zero()) return "build failed: " + shorten(built.err.text + built.out.text, 2000);
  const auto ran = run({binary.string()}, 120);
  if (!ran.exited_zero()) return "run: " + ran.status_text() + " " + shorten(ran.out.text, 500);
  std::string problems;
  for (const generator::Sidecar::Kernel& kernel : *test.sidecar.kernels) {
    const std::string expected = "checksum " + kernel.name + " " + kernel.expected_checksum;
    if (!test::contains(ran.out.text, expected + "\n")) problems += "no line '" + expected + "'; ";
  }
  return problems.empty() ? "" : problems + "printed:\n" + shorten(ran.out.text, 1500);
}

} // namespace

TEST(GpuIrReduction, ProgramsAlongReductionsPrintTheirPredictions) {
  CUDIFF_SKIP_WITHOUT_GPU();
  const std::string nvcc = std::getenv("CUDIFF_NVCC") ? std::getenv("CUDIFF_NVCC") : "/usr/local/cuda/bin/nvcc";
  const std::string cuda = std::filesystem::path(nvcc).parent_path().parent_path().string();
  const std::string arch = test::gpu_arch();  // built for the GPU it runs on
  std::vector<std::pair<std::string, std::vector<std::string>>> compilers = {
      {"nvcc-O0",
       {nvcc, "-std=c++17", "--extended-lambda", "-O0", "-Xcicc", "-O0", "-Xptxas", "-O0", "-arch=" + arch}}};
  if (const char* clang = std::getenv("CUDIFF_CLANG"); clang && *clang)
    compilers.push_back(
        {"clang-O0",
         {clang, "-std=c++17", "-O0", "-x", "cuda", "--cuda-gpu-arch=" + arch, "-Wno-unknown-cuda-version",
          "--cuda-path=" + cuda, "-L" + cuda + "/lib64", "-Wl,-rpath," + cuda + "/lib64", "-lcudart"}});
  else std::cout << "[ ir reduction ] CUDIFF_CLANG not set: clang-O0 left out\n";
  std::vector<generator::TestCase> programs;
  for (std::uint64_t seed : {11u, 12u, 13u})
    for (generator::TestCase& test : test::ir_walk(seed, 60, 4)) {
      test.name += "_" + std::to_string(programs.size());
      programs.push_back(std::move(test));
    }
  // Two ends of a greedy reduction: one with the base words and the input, one with neither.
  for (const char* token : {"__vmaxs2(", "__ffs((int)0x0u)"}) {
    programs.push_back(test::reduced_keeping(token));
    programs.back().name += "_" + std::to_string(programs.size());
  }
  TempDir dir("cudiff-gpu-ir-reduction");
  std::size_t compact = 0;
  for (const auto& [name, compiler] : compilers) {
    std::vector<std::future<std::string>> results;
    for (const generator::TestCase& test : programs)
      results.push_back(std::async(std::launch::async,
                                   [&, compiler = compiler] { return check_prediction(test, compiler, dir.path()); }));
    for (std::size_t i = 0; i < programs.size(); ++i) {
      const std::string problem = results[i].get();
      EXPECT_EQ(problem, "") << name << " on " << programs[i].name << ":\n" << programs[i].source;
    }
    std::cout << "[ ir reduction ] " << name << ": " << programs.size()
              << " programs along 3 reductions and 2 ends of greedy ones built and run\n";
  }
  for (const generator::TestCase& test : programs) compact += test::contains(test.source, "int main() {\n") ? 1 : 0;
  std::cout << "[ ir reduction ] " << compact << " of them with the compact host side\n";
  EXPECT_GT(compact, 0u);
}
