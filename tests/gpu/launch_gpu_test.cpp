// gpu-labeled: modules launched with no host program (runners/launch.h, the executor's `launch`
// request). A tiny PTX kernel as PTX (the driver's JIT) and as a cubin prints its buffer's line;
// a kernel that stores out of bounds faults (the reply names the error, the executor is
// replaced); one that never ends is a timed-out result; `cudiff check FILE.ptx --launch` runs
// every ptxas level and the JIT and agrees; several kernels go in one request, in order, on one
// load of the module. Skipped without a GPU.
#include "pipeline/pipeline.h"
#include "runners/runners.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <cstring>

namespace {

using namespace cudiff;
using test::contains;

std::filesystem::path ptx(const std::string& name) { return test::data("e2e/data/ptx/" + name); }

/// The line store_tid.ptx prints with store_tid.json: 32 words 3 * i + 7, then 8 of the fill.
std::string expected_store_tid_line() {
  std::string bytes;
  for (std::uint32_t i = 0; i < 40; ++i) {
    const std::uint32_t word = i < 32 ? 3 * i + 7 : 0xffffffffu;
    char raw[4];
    std::memcpy(raw, &word, 4);
    bytes.append(raw, 4);
  }
  return "out_ptr[0..40) fnv1a64 " + fnv1a_hex(bytes) +
         ": 00000007 0000000a 0000000d 00000010 00000013 00000016 00000019 0000001c";
}

class GpuLaunch : public ::testing::Test {
protected:
  void SetUp() override {
    CUDIFF_SKIP_WITHOUT_GPU();
    toolchain_ = runners::Toolchain::from(runners::discover_toolchain(test::toolchain_search()));
    gpus_ = runners::discover_gpus();
    // With the runtime, as a campaign's executors run: the launches share its primary context.
    pool_ = std::make_shared<runners::ExecutorPool>(
        test::gpu_executor_setup(toolchain_, gpus_.gpus.front(), dir_.path() / "executors"));
  }

  /// The module retargeted to this GPU, as PTX.
  std::filesystem::path module(const std::string& name) {
    const auto file = dir_.path() / name;
    write_file(file, pipeline::retarget_ptx(read_file(ptx(name)), test::gpu_arch()));
    return file;
  }

  runners::ExecutorPool::RunAttempt launch(const std::filesystem::path& file, double seconds = 30) {
    runners::Limits limits;
    limits.wall_seconds = seconds;
    return pool_->launch(file, runners::read_launch(ptx("store_tid.json")), limits);
  }

  TempDir dir_{"cudiff-gpu-launch"};
  runners::Toolchain toolchain_;
  runners::GpuDiscovery gpus_;
  std::shared_ptr<runners::ExecutorPool> pool_;
};

TEST_F(GpuLaunch, APtxKernelAndItsCubinPrintTheirBuffer) {
  const auto jit = launch(module("store_tid.ptx"));
  ASSERT_TRUE(jit.result) << jit.fallback;
  EXPECT_EQ(jit.result->exit_code, 0) << jit.failure << jit.result->err.text;
  EXPECT_EQ(jit.result->out.text, expected_store_tid_line() + "\n");

  runners::Command ptxas;
  const auto cubin = dir_.path() / "store_tid.cubin";
  ptxas.argv = {(toolchain_.cuda_home / "bin" / "ptxas").string(),
                "-arch=" + test::gpu_arch(),
                "-O3",
                module("store_tid.ptx").string(),
                "-o",
                cubin.string()};
  const runners::SubprocessResult built = runners::run_subprocess(ptxas);
  ASSERT_TRUE(built.exited_zero()) << built.err.text;
  const auto sass = launch(cubin);
  ASSERT_TRUE(sass.result) << sass.fallback;
  EXPECT_EQ(sass.result->out.text, expected_store_tid_line() + "\n");
  EXPECT_EQ(pool_->stats().starts, 1u);  // one executor, one context, both launches
}

TEST_F(GpuLaunch, AnOutOfBoundsStoreFaultsWithItsErrorAndTheExecutorIsReplaced) {
  const auto fault = launch(module("out_of_bounds.ptx"));
  ASSERT_TRUE(fault.result) << fault.fallback;
  EXPECT_EQ(fault.result->exit_code, 1);
  EXPECT_TRUE(contains(fault.failure, "CUDA_ERROR_ILLEGAL_ADDRESS")) << fault.failure;
  EXPECT_TRUE(contains(fault.result->err.text, "CUDA_ERROR_ILLEGAL_ADDRESS")) << fault.result->err.text;
  EXPECT_EQ(oracle::observe_run("x", *fault.result).cuda_errors.size(), 1u);
  // The sticky error ended that executor; the next launch gets a fresh one and runs cleanly.
  const auto after = launch(module("store_tid.ptx"));
  ASSERT_TRUE(after.result) << after.fallback;
  EXPECT_EQ(after.result->out.text, expected_store_tid_line() + "\n");
  EXPECT_EQ(pool_->stats().starts, 2u);
}

TEST_F(GpuLaunch, AKernelThatNeverEndsIsATimedOutResult) {
  const auto hang = launch(module("spin.ptx"), 3);
  ASSERT_TRUE(hang.result) << hang.fallback;
  EXPECT_TRUE(hang.result->timed_out);
  EXPECT_EQ(hang.failure, "time limit");
  const auto after = launch(module("store_tid.ptx"));
  ASSERT_TRUE(after.result) << after.fallback;
  EXPECT_EQ(after.result->out.text, expected_store_tid_line() + "\n");
}

TEST_F(GpuLaunch, AModuleThatDoesNotMatchItsDescriptionIsALaunchFailure) {
  runners::Limits limits;
  limits.wall_seconds = 30;
  runners::LaunchDescription wrong = runners::read_launch(ptx("store_tid.json"));
  wrong.params.pop_back();  // the kernel takes n too
  const auto missing = pool_->launch(module("store_tid.ptx"), wrong, limits);
  ASSERT_TRUE(missing.result) << missing.fallback;
  EXPECT_EQ(missing.result->exit_code, 1);
  EXPECT_TRUE(missing.failure.starts_with("parameters: ")) << missing.failure;
  wrong = runners::read_launch(ptx("store_tid.json"));
  wrong.kernel = "no_such_kernel";
  const auto absent = pool_->launch(module("store_tid.ptx"), wrong, limits);
  ASSERT_TRUE(absent.result) << absent.fallback;
  EXPECT_TRUE(contains(absent.failure, "CUDA_ERROR_NOT_FOUND")) << absent.failure;
  write_file(dir_.path() / "broken.ptx", ".version 8.8\n.target " + test::gpu_arch() + "\nnot ptx\n");
  const auto broken = launch(dir_.path() / "broken.ptx");
  ASSERT_TRUE(broken.result) << broken.fallback;
  EXPECT_TRUE(broken.failure.starts_with("module load: ")) << broken.failure;
  EXPECT_EQ(pool_->stats().starts, 1u);  // none of these touched the context
}

// The device path's request: a test's kernels in order on one load of the module. Each prints
// its lines in turn; the first that fails ends the request and is named, after the lines of
// those that ran.
TEST_F(GpuLaunch, SeveralKernelsRunInOrderOnOneLoadAndTheFirstFailureNamesItsKernel) {
  runners::Limits limits;
  limits.wall_seconds = 30;
  const runners::LaunchDescription plan = runners::read_launch(ptx("store_tid.json"));
  const auto both = pool_->launch(module("store_tid.ptx"), std::vector{plan, plan}, limits);
  ASSERT_TRUE(both.result) << both.fallback;
  EXPECT_EQ(both.result->exit_code, 0) << both.failure << both.result->err.text;
  EXPECT_EQ(both.result->out.text, expected_store_tid_line() + "\n" + expected_store_tid_line() + "\n");
  runners::LaunchDescription absent = plan;
  absent.kernel = "no_such_kernel";
  const auto second = pool_->launch(module("store_tid.ptx"), std::vector{plan, absent, plan}, limits);
  ASSERT_TRUE(second.result) << second.fallback;
  EXPECT_EQ(second.result->exit_code, 1);
  EXPECT_TRUE(second.failure.starts_with("kernel no_such_kernel: kernel lookup: ")) << second.failure;
  EXPECT_EQ(second.result->out.text, expected_store_tid_line() + "\n");  // the first ran, the third did not
  EXPECT_EQ(pool_->stats().starts, 1u);
}

TEST_F(GpuLaunch, CheckingAPtxFileRunsEveryLevelAndTheJit) {
  pipeline::PtxCheckRequest request;
  request.file = ptx("store_tid.ptx");
  request.launch = runners::read_launch(ptx("store_tid.json"));
  request.executor = pool_;
  const pipeline::TestCheck run = pipeline::check_ptx(request, toolchain_, gpus_, dir_.path() / "check");
  EXPECT_EQ(run.mode, runners::Mode::run);
  ASSERT_EQ(run.configs.size(), 5u);
  for (const pipeline::ConfigCheck& check : run.configs) {
    ASSERT_TRUE(check.run) << check.compile.config.name << ": " << check.note;
    EXPECT_EQ(check.run->output_lines, std::vector<std::string>{expected_store_tid_line()})
        << check.compile.config.name;
  }
  EXPECT_EQ(run.configs.back().compile.config.name, "driver-jit");
  EXPECT_TRUE(run.verdict.agree()) << run.verdict.headline();

  const runners::SubprocessResult cli = test::run_cudiff(
      {"check", ptx("store_tid.ptx").string(), "--launch", ptx("store_tid.json").string()});
  EXPECT_EQ(cli.exit_code, 0) << cli.out.text << cli.err.text;
  EXPECT_TRUE(contains(cli.out.text, "driver-jit")) << cli.out.text;
  EXPECT_TRUE(contains(cli.out.text, "verdict: agree")) << cli.out.text;
}

} // namespace
