// gpu-labeled (GpuCubinRun.*): generated programs run as cubins on `--build-path device`. For
// several seeds of compute-dense kernels alone (programs, and a batch with variants), and of core
// kernels with launch plans (bench/policies/harness_only.json: programs and a batch), every
// config's cubin, its kernels launched in an executor from the sidecar's launch plans, prints
// exactly the lines the whole program prints as a process, and those are the generator's
// predicted checksums; a plan whose kernel faults falls back to the whole program, with the
// fault in the check's notes. Uses clang-22 where it is found (CUDIFF_CLANG on a GPU host), else
// nvcc's configs alone, and says so. Skipped, with the reason, without a GPU.
#include "generator/generator.h"
#include "pipeline/pipeline.h"
#include "runners/runners.h"
#include "support/harness_only.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iostream>
#include <sstream>

namespace {

using namespace cudiff;
using test::contains;

generator::Policy dense_only() {
  std::ifstream in(test::source_dir() / "bench" / "policies" / "dense_only.json");
  std::stringstream text;
  text << in.rdbuf();
  generator::Policy policy = test::accepted_by_both(generator::Policy::load(text.str()));
  // clang-22's scoped unsigned atomic min/max are signed (docs/generator.md, "Jump tables,
  // atomics and generic pointers"): a known bug, not what this test checks.
  policy.set("dense.atomics.scoped_unsigned_minmax", 0);
  return policy;
}

bool noted(const pipeline::TestCheck& run, const std::string& text) {
  return std::ranges::any_of(run.notes, [&](const std::string& note) { return contains(note, text); });
}

class GpuCubinRun : public ::testing::Test {
protected:
  void SetUp() override {
    CUDIFF_SKIP_WITHOUT_GPU();
    const runners::ToolchainDiscovery found = runners::discover_toolchain(test::toolchain_search());
    ASSERT_TRUE(found.nvcc.compiler) << found.nvcc.problem;
    std::string names = "nvcc-O3,nvcc-O3-ptxas0,nvcc-O0";
    if (found.clang.compiler) {
      toolchain_ = runners::Toolchain::from(found);
      names += ",clang-O3,clang-O0";
    } else {
      // A GPU host without clang: nvcc's configs alone still compare the two paths.
      std::cout << "[ cubin run ] no clang (" << found.clang.problem << "): nvcc configs only\n";
      toolchain_.nvcc = *found.nvcc.compiler;
      toolchain_.cuda_home = found.cuda_home;
    }
    configs_ = runners::parse_configs(names);
    for (runners::Config& config : configs_) runners::set_arch(config, test::gpu_arch());
    gpus_ = runners::discover_gpus();
    // A campaign's executors: with the runtime, so the launches share its primary context.
    runners::ExecutorSetup setup;
    setup.program = test::executor_binary();
    const auto cudart = runners::find_cudart(toolchain_.cuda_home);
    ASSERT_TRUE(cudart) << "no libcudart.so under " << toolchain_.cuda_home;
    setup.cudart = *cudart;
    setup.gpu = gpus_.gpus.front();
    setup.workdir = dir_.path() / "executors";
    setup.slots = 1;
    std::filesystem::create_directories(setup.workdir);
    pool_ = std::make_shared<runners::ExecutorPool>(setup);
  }

  pipeline::TestCheck check(const generator::TestCase& test, pipeline::BuildPath path, const std::string& where,
                            bool with_pool) {
    pipeline::CheckRequest request;
    request.input = {test.name + ".cu", test.source, std::nullopt, test.sidecar, {}, {}};
    request.mode = runners::Mode::run;
    request.configs = configs_;
    request.build_path = path;
    request.run_limits.wall_seconds = 60;
    if (with_pool) request.executor = pool_;
    return pipeline::check_test(request, toolchain_, gpus_, dir_.path() / where);
  }

  /// The device path's runs print what the whole program's do, and the predicted checksums.
  void expect_same_lines(const generator::TestCase& test, bool with_pool) {
    const pipeline::TestCheck device = check(test, pipeline::BuildPath::device, test.name + "-device", with_pool);
    const pipeline::TestCheck whole = check(test, pipeline::BuildPath::whole, test.name + "-whole", false);
    ASSERT_TRUE(noted(device, "every kernel launched from the sidecar's launch plan")) << join(device.notes, "\n");
    ASSERT_FALSE(noted(device, "fell back")) << join(device.notes, "\n");
    std::vector<std::string> predicted;
    for (const generator::Sidecar::Kernel& kernel : *test.sidecar.kernels)
      predicted.push_back("checksum " + kernel.name + " " + kernel.expected_checksum);
    ASSERT_EQ(device.configs.size(), whole.configs.size());
    for (std::size_t i = 0; i < device.configs.size(); ++i) {
      const pipeline::ConfigCheck& cubin = device.configs[i];
      const pipeline::ConfigCheck& program = whole.configs[i];
      const std::string name = test.name + " " + cubin.compile.config.name;
      EXPECT_EQ(cubin.compile.artifact.extension(), ".cubin") << name;
      EXPECT_TRUE(cubin.ran_in_executor) << name << ": " << cubin.note;
      ASSERT_TRUE(cubin.run && program.run) << name << ": " << cubin.note << " / " << program.note;
      EXPECT_EQ(cubin.run->exit_code, 0) << name << ": " << cubin.run_process->err.text;
      EXPECT_EQ(cubin.run->output_lines, program.run->output_lines) << name;
      EXPECT_EQ(cubin.run->output_lines, predicted) << name;
      std::cout << "[ cubin run ] " << name << ": " << cubin.run->output_lines.size() << " lines, "
                << format_seconds(cubin.run_process->wall_seconds) << " in the executor, "
                << format_seconds(program.run_process->wall_seconds) << " as a process\n";
    }
    EXPECT_TRUE(device.verdict.agree()) << device.verdict.headline();
    EXPECT_TRUE(whole.verdict.agree()) << whole.verdict.headline();
  }

  TempDir dir_{"cudiff-gpu-cubin-run"};
  runners::Toolchain toolchain_;
  std::vector<runners::Config> configs_;
  runners::GpuDiscovery gpus_;
  std::shared_ptr<runners::ExecutorPool> pool_;
};

TEST_F(GpuCubinRun, ProgramsPrintWhatTheWholeProgramPrintsAndThePredictions) {
  const generator::Policy policy = dense_only();
  for (std::uint64_t seed : {9001, 9002, 9003, 9004}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    // Every other seed in a campaign's pool, shared with the runtime's programs.
    expect_same_lines(generator::generate_program(policy, seed, generator::Size::small), seed % 2 == 0);
  }
  expect_same_lines(generator::generate_program(policy, 9005, generator::Size::medium), true);
}

TEST_F(GpuCubinRun, ABatchWithVariantsPrintsWhatTheWholeBatchPrints) {
  expect_same_lines(generator::generate_batch(dense_only(), {9011, 9012, 9013}, generator::Size::small, 1), true);
}

/// bench/policies/harness_only.json, as both compilers accept it: core kernels (value-tracked,
/// with their __constant__ arrays, scalar and __grid_constant__ parameters) and dense ones.
generator::Policy harness_only() { return test::accepted_by_both(test::harness_only_policy()); }

/// The first `n` tests from `first` on that take the device path when they run: every kernel
/// planned (core kernels with lambdas, functors or the ABI family's parameters have none).
std::vector<generator::TestCase> device_path_tests(const generator::Policy& policy, std::uint64_t first, std::size_t n,
                                                   generator::Size size) {
  std::vector<generator::TestCase> tests;
  for (std::uint64_t seed = first; tests.size() < n && seed < first + 200; ++seed) {
    generator::TestCase test = generator::generate_program(policy, seed, size);
    const pipeline::TestInput input{test.name + ".cu", test.source, std::nullopt, test.sidecar, {}, {}};
    if (pipeline::whole_build_reason(input, runners::Mode::run, true).empty()) tests.push_back(std::move(test));
  }
  return tests;
}

TEST_F(GpuCubinRun, CoreKernelsPrintWhatTheWholeProgramPrintsAndThePredictions) {
  // Their plans' buffers, scalars, struct bytes and __constant__ symbols stand in for the
  // runners' cudaMalloc, arguments and cudaMemcpyToSymbol (generator/core/core_plan.cpp).
  const generator::Policy policy = harness_only();
  const std::vector<generator::TestCase> small = device_path_tests(policy, 9300, 6, generator::Size::small);
  ASSERT_EQ(small.size(), 6u);
  std::size_t core = 0;
  for (const generator::TestCase& test : small) {
    SCOPED_TRACE(test.name);
    for (const generator::Sidecar::Kernel& kernel : *test.sidecar.kernels)
      core += kernel.name.starts_with("kernel_") ? 1 : 0;
    expect_same_lines(test, core % 2 == 0);
  }
  EXPECT_GT(core, 6u);
  for (const generator::TestCase& test : device_path_tests(policy, 9400, 2, generator::Size::medium))
    expect_same_lines(test, true);
}

TEST_F(GpuCubinRun, ABatchOfCoreKernelsPrintsWhatTheWholeBatchPrints) {
  const generator::Policy policy = harness_only();
  std::vector<std::uint64_t> seeds;
  for (const generator::TestCase& test : device_path_tests(policy, 9500, 3, generator::Size::small))
    seeds.push_back(*test.sidecar.seed);
  ASSERT_EQ(seeds.size(), 3u);
  expect_same_lines(generator::generate_batch(policy, seeds, generator::Size::small), true);
}

TEST_F(GpuCubinRun, AFaultingPlanFallsBackToTheWholeProgramWithTheFault) {
  generator::TestCase test = generator::generate_program(dense_only(), 9021, generator::Size::small);
  // The first kernel's `out` becomes an address nothing is mapped at: its first store faults.
  boost::json::object& plan = *test.sidecar.kernels->front().launch;
  for (boost::json::value& param : plan.at("params").as_array())
    if (param.as_object().contains("buffer") && param.at("buffer").as_string() == "out")
      param = boost::json::object{{"scalar", "out"}, {"type", "u64"}, {"value", "0x10"}};
  plan.erase("checksums");  // it folded `out`, which is no buffer now
  const pipeline::TestCheck run = check(test, pipeline::BuildPath::device, "fault", true);
  ASSERT_FALSE(run.notes.empty());
  EXPECT_TRUE(contains(run.notes.front(), "device path fell back to the whole program, run as a process: " +
                                              configs_.front().name + ": kernel "))
      << join(run.notes, "\n");
  EXPECT_TRUE(contains(run.notes.front(), "CUDA_ERROR_ILLEGAL_ADDRESS")) << run.notes.front();
  // The whole program, run as a process, prints the predictions: the campaign goes on.
  std::vector<std::string> predicted;
  for (const generator::Sidecar::Kernel& kernel : *test.sidecar.kernels)
    predicted.push_back("checksum " + kernel.name + " " + kernel.expected_checksum);
  for (const pipeline::ConfigCheck& config : run.configs) {
    EXPECT_NE(config.compile.artifact.extension(), ".cubin") << config.compile.config.name;
    EXPECT_FALSE(config.ran_in_executor) << config.compile.config.name;
    ASSERT_TRUE(config.run) << config.compile.config.name << ": " << config.note;
    EXPECT_EQ(config.run->output_lines, predicted) << config.compile.config.name;
  }
  EXPECT_TRUE(run.verdict.agree()) << run.verdict.headline();
  // The fault replaced the executor; the pool still runs the next test's cubins.
  expect_same_lines(generator::generate_program(dense_only(), 9022, generator::Size::small), true);
}

} // namespace
