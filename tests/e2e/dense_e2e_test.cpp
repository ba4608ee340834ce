// The compute-dense family against the real compilers (label compilers): every operation that
// is plain C++ computes on the host, under clang++-22 -O0 and -O2, exactly what the generator
// predicts (dense::apply); and programs with every family on are built, ptxas included, by
// nvcc -O3 and clang-22 -O3 for sm_90.
#include "generator/generator.h"
#include "runners/runners.h"
#include "support/dense_ops_harness.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <future>

namespace {

using namespace cudiff;
using generator::dense::Op;

/// The operations whose text is plain C++ (no CUDA intrinsic): the host's operators are a
/// reference independent of dense_ops.cpp.
std::vector<Op> host_operations() {
  std::vector<Op> ops;
  for (const generator::dense::OpInfo& info : generator::dense::op_table()) {
    std::string text = info.text;
    for (std::size_t at; (at = text.find("__int128")) != std::string::npos;) text.erase(at, 8);
    if (text.find("__") == std::string::npos) ops.push_back(info.op);
  }
  return ops;
}

} // namespace

TEST(DenseCompile, PlainOperationsOnTheHostComputeWhatTheGeneratorPredicts) {
  const std::string clang = test::clang_path();
  ASSERT_FALSE(clang.empty()) << "needs clang++-22 (scripts/setup.sh installs it)";
  const std::vector<Op> ops = host_operations();
  ASSERT_GT(ops.size(), 60u);
  TempDir dir("cudiff-dense-host");
  write_file(dir.path() / "ops.cpp", test::dense_ops_program(ops, false));
  for (const char* level : {"-O0", "-O2"}) {
    const auto binary = dir.path() / (std::string("ops") + level);
    const auto built = test::run_tool(
        {clang, "-std=c++17", level, (dir.path() / "ops.cpp").string(), "-o", binary.string()});
    ASSERT_TRUE(built.exited_zero()) << built.err.text;
    const auto ran = test::run_tool({binary.string()});
    ASSERT_TRUE(ran.exited_zero()) << ran.status_text();
    std::size_t lines = 0;
    const auto mismatches = test::dense_mismatches(ops, ran.out.text, lines);
    EXPECT_EQ(lines, ops.size() * 256) << level;
    EXPECT_TRUE(mismatches.empty()) << level << ":\n" << test::describe(mismatches);
    std::cout << level << ": " << ops.size() << " operations x 256 operand vectors, " << mismatches.size()
              << " disagree\n";
  }
}

TEST(DenseCompile, ProgramsWithEveryFamilyBuildWithPtxasUnderBothCompilers) {
  const std::string clang = test::clang_path(), nvcc = test::nvcc_path();
  ASSERT_FALSE(clang.empty() || nvcc.empty()) << "needs clang++-22 and nvcc";
  const std::string cuda = std::filesystem::path(nvcc).parent_path().parent_path().string();
  generator::Policy policy = test::accepted_by_both(generator::Policy::defaults());
  policy.set("dense.share", 1);
  const std::vector<generator::Knob> knobs = policy.knobs();
  for (const generator::Knob& knob : knobs)
    if (knob.name.starts_with("dense.family.")) policy.set(knob.name, 1);
  // The large program's one dense kernel has 100 to 120 top-level statements (hundreds counting
  // the nested ones): two kernels of up to 320 were most of the test's time (CI time).
  policy.set("large.dense.kernels.max", 1);
  policy.set("large.dense.statements.max", 120);
  TempDir dir("cudiff-dense-compile");
  // One small, one medium and one large program; the two compilers side by side.
  const std::vector<std::pair<std::uint64_t, generator::Size>> programs = {{1, generator::Size::small},
                                                                           {3, generator::Size::medium},
                                                                           {4, generator::Size::large}};
  for (const auto& [seed, size] : programs) {
    const generator::TestCase test = generator::generate_program(policy, seed, size);
    const auto file = dir.path() / (test.name + ".cu");
    write_file(file, test.source);
    auto nvcc_run = std::async(std::launch::async, [&, file] {
      return test::run_tool({nvcc, "-std=c++17", "--extended-lambda", "-arch=sm_90", "-O3", "-c", file.string(), "-o",
                             (dir.path() / "nvcc.o").string()});
    });
    const auto by_clang = test::run_tool({clang, "-x", "cuda", "--cuda-gpu-arch=sm_90", "--cuda-path=" + cuda,
                                          "-Wno-unknown-cuda-version", "-isystem", cuda + "/include/cccl", "-std=c++17",
                                          "-O3", "-c", file.string(), "-o", (dir.path() / "clang.o").string()});
    const auto by_nvcc = nvcc_run.get();
    EXPECT_TRUE(by_nvcc.exited_zero()) << "seed " << seed << ": " << by_nvcc.err.text << by_nvcc.out.text;
    EXPECT_TRUE(by_clang.exited_zero()) << "seed " << seed << ": " << by_clang.err.text;
    std::cout << "seed " << seed << " (" << generator::to_string(size) << "): " << test::count_lines(test.source)
              << " lines, nvcc " << by_nvcc.wall_seconds << " s, clang " << by_clang.wall_seconds << " s\n";
  }
}
