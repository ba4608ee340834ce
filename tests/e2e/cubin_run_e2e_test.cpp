// The device path in run mode with the real nvcc and clang-22, no GPU needed: a batch of
// compute-dense kernels alone is built as cubins and no host code (the launch plans stand in for
// the harness), the plans name kernels and symbols each module has, and a cubin that cannot be
// launched (here: no CUDA driver) falls back to the whole program with the reason in the notes.
#include "pipeline/check_parts.h"
#include "pipeline/pipeline.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

using cudiff::test::contains;
using cudiff::test::source_dir;

namespace cudiff {
namespace {

generator::Policy dense_only() {
  std::ifstream in(source_dir() / "bench" / "policies" / "dense_only.json");
  std::stringstream text;
  text << in.rdbuf();
  return generator::Policy::load(text.str());
}

/// A GPU only for the check's choices: of `cc_major`.0, never touched when no config is for it.
runners::GpuDiscovery fake_gpu(int cc_major) {
  runners::GpuInfo gpu;
  gpu.name = "a GPU the check only reads";
  gpu.cc_major = cc_major;
  return {{gpu}, ""};
}

bool noted(const pipeline::TestCheck& run, const std::string& text) {
  return std::ranges::any_of(run.notes, [&](const std::string& note) { return contains(note, text); });
}

class CubinRun : public ::testing::Test {
protected:
  runners::Toolchain toolchain = runners::Toolchain::from(runners::discover_toolchain({}));
  TempDir dir{"cudiff-cubin-run-e2e"};
  generator::TestCase test = generator::generate_batch(dense_only(), {31, 32}, generator::Size::small);
  pipeline::TestInput input{test.name + ".cu", test.source, std::nullopt, test.sidecar, {}, {}};

  pipeline::TestCheck check(const runners::GpuDiscovery& gpus, const std::string& where,
                            std::vector<runners::Config> configs) {
    // The check starts its own executor, found by $CUDIFF_EXECUTOR or beside the running
    // binary: this test binary has none beside it.
    ::setenv("CUDIFF_EXECUTOR", test::executor_binary().c_str(), 1);
    pipeline::CheckRequest request;
    request.input = input;
    request.mode = runners::Mode::run;
    request.configs = std::move(configs);
    request.build_path = pipeline::BuildPath::device;
    return pipeline::check_test(request, toolchain, gpus, dir.path() / where);
  }
};

TEST_F(CubinRun, ADenseOnlyBatchInRunModeBuildsCubinsAndNoHostCode) {
  EXPECT_EQ(pipeline::device_run_reason(input), "");
  EXPECT_EQ(pipeline::whole_build_reason(input, runners::Mode::run, true), "");
  // An sm_80 GPU: the runs choose the path, and no config (all sm_90) runs on it.
  const pipeline::TestCheck run = check(fake_gpu(8), "device", runners::cross_level_configs());
  ASSERT_TRUE(noted(run, "every kernel launched from the sidecar's launch plan")) << join(run.notes, "\n");
  ASSERT_EQ(run.configs.size(), 4u);
  const std::vector<runners::LaunchDescription> plans = pipeline::launch_plans(*input.sidecar);
  ASSERT_EQ(plans.size(), input.sidecar->kernels->size());
  for (const pipeline::ConfigCheck& config : run.configs) {
    const std::string& name = config.compile.config.name;
    EXPECT_EQ(config.observation.outcome, oracle::CompileOutcome::accepted) << name << ":\n"
                                                                            << config.compile.process.err.text;
    EXPECT_EQ(config.compile.artifact.extension(), ".cubin") << name;
    EXPECT_TRUE(contains(config.compile.command.display(), "ptxas")) << name;
    EXPECT_TRUE(contains(config.compile.front_end.display(), "-ptx") ||
                contains(config.compile.front_end.display(), "--cuda-device-only"))
        << config.compile.front_end.display();
    EXPECT_TRUE(contains(config.note, "compile-only here")) << name << ": " << config.note;
    EXPECT_FALSE(config.run) << name;
    // Every plan's kernel and symbols are in the module, by the names it gives them.
    const std::string ptx = read_file(config.ptx);
    for (const runners::LaunchDescription& plan : plans) {
      EXPECT_TRUE(contains(ptx, ".entry " + plan.kernel + "(")) << name << ": " << plan.kernel;
      for (const runners::LaunchSymbol& symbol : plan.symbols)  // an array, or a scalar (a fence's count)
        EXPECT_TRUE(contains(ptx, " " + symbol.name + "[") || contains(ptx, " " + symbol.name + ";"))
            << name << ": " << symbol.name;
    }
  }
  // No host code: nothing but the front ends' PTX and ptxas's cubins, no object or executable.
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir.path() / "device")) {
    const std::string extension = entry.path().extension().string();
    EXPECT_TRUE(extension != ".o" && extension != ".out" && extension != ".so") << entry.path();
    EXPECT_FALSE(entry.is_regular_file() &&
                 (entry.status().permissions() & std::filesystem::perms::owner_exec) != std::filesystem::perms::none)
        << entry.path();
  }
  EXPECT_TRUE(run.verdict.agree()) << run.verdict.headline();
}

TEST_F(CubinRun, ACubinThatCannotLaunchFallsBackToTheWholeProgramWithItsReason) {
  // An sm_90 GPU that is not there: the executor finds no driver (or no device) and the test is
  // checked again as the whole program, run as a process.
  const pipeline::TestCheck run = check(fake_gpu(9), "fallback", {runners::parse_configs("nvcc-O3").front()});
  ASSERT_FALSE(run.notes.empty());
  EXPECT_TRUE(contains(run.notes.front(), "device path fell back to the whole program, run as a process: nvcc-O3"))
      << join(run.notes, "\n");
  ASSERT_EQ(run.configs.size(), 1u);
  EXPECT_TRUE(run.configs[0].ptx.empty());
  EXPECT_NE(run.configs[0].compile.artifact.extension(), ".cubin");
  EXPECT_FALSE(run.configs[0].ran_in_executor);
}

TEST(CubinRunRules, OnlyTestsWhoseKernelsAllHavePlansRunAsCubins) {
  generator::Policy mixed = dense_only();
  mixed.set("small.kernels.min", 1);
  mixed.set("small.kernels.max", 1);
  // A core kernel with the ABI family's parameters, which its runner builds: no launch plan.
  mixed.set("abi.share", 1);
  const generator::TestCase test = generator::generate_program(mixed, 3, generator::Size::small);
  const pipeline::TestInput input{test.name + ".cu", test.source, std::nullopt, test.sidecar, {}, {}};
  EXPECT_TRUE(contains(pipeline::whole_build_reason(input, runners::Mode::run, true), "has no launch plan"))
      << pipeline::whole_build_reason(input, runners::Mode::run, true);
  // Compile-only, the same program takes the device path.
  EXPECT_EQ(pipeline::whole_build_reason(input, runners::Mode::run, false), "");
}

} // namespace
} // namespace cudiff
