// gpu-labeled: the executor path observes what the process path observes. The same programs —
// generated batches with variants, and programs that fault (a sticky illegal address, __trap
// and exit, a hang, a non-zero main, an allocation past the executor's share, device printf,
// a raised device stack limit, managed memory) — are checked twice with
// pipeline::check_test, once with an executor pool and once with a process per run: every
// config's run status and output lines, and the verdict, must be the same. The pool's
// statistics show which runs the executors took and which fell back. GpuExecutorHardening: a
// flood of output cut while it runs, no core files, every allocation entry point from many
// threads, the device share split among a GPU's executors, one environment for every run of a
// program (process, executor, compute-sanitizer). Skipped without a GPU.
#include "generator/generator.h"
#include "pipeline/pipeline.h"
#include "pipeline/sanitizer_parts.h"
#include "runners/runners.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>

namespace {

using namespace cudiff;

struct Paths {
  pipeline::TestCheck process, executor;
};

class GpuExecutor : public ::testing::Test {
protected:
  void SetUp() override {
    CUDIFF_SKIP_WITHOUT_GPU();
    toolchain_ = runners::Toolchain::from(runners::discover_toolchain(test::toolchain_search()));
    gpus_ = runners::discover_gpus();
    // One executor: a program after a faulting one finds a fresh executor.
    pool_ = std::make_shared<runners::ExecutorPool>(
        test::gpu_executor_setup(toolchain_, gpus_.gpus.front(), dir_.path() / "executors"));
  }

  Paths check_both(const pipeline::TestInput& input, const std::string& configs, double run_seconds = 30) {
    pipeline::CheckRequest request;
    request.input = input;
    request.mode = runners::Mode::run;
    request.configs = runners::parse_configs(configs);
    request.run_limits.wall_seconds = run_seconds;
    Paths paths;
    const std::string name = std::filesystem::path(input.name).stem().string();
    paths.process = pipeline::check_test(request, toolchain_, gpus_, dir_.path() / (name + "-process"));
    request.executor = pool_;
    paths.executor = pipeline::check_test(request, toolchain_, gpus_, dir_.path() / (name + "-executor"));
    return paths;
  }

  /// Every config's run, and the verdict, alike on both paths. Returns how many runs the
  /// executor kept (the others fell back to a process).
  std::size_t expect_same(const Paths& paths, const std::string& what) {
    std::size_t kept = 0;
    EXPECT_EQ(paths.process.verdict.headline(), paths.executor.verdict.headline()) << what;
    EXPECT_EQ(paths.process.configs.size(), paths.executor.configs.size()) << what;
    for (std::size_t i = 0; i < paths.process.configs.size() && i < paths.executor.configs.size(); ++i) {
      const pipeline::ConfigCheck& process = paths.process.configs[i];
      const pipeline::ConfigCheck& executor = paths.executor.configs[i];
      const std::string config = what + " " + process.compile.config.name;
      EXPECT_EQ(process.observation.outcome, executor.observation.outcome) << config;
      EXPECT_EQ(process.run.has_value(), executor.run.has_value()) << config;
      if (!process.run || !executor.run) continue;
      EXPECT_FALSE(process.ran_in_executor) << config;
      EXPECT_EQ(process.run_process->status_text().substr(0, 6), executor.run_process->status_text().substr(0, 6))
          << config << ": " << process.run_process->status_text() << " / " << executor.run_process->status_text();
      EXPECT_EQ(process.run->output_lines, executor.run->output_lines) << config;
      kept += executor.ran_in_executor ? 1 : 0;
      std::cout << "[ executor ] " << config << ": " << executor.run_process->status_text() << ", "
                << (executor.ran_in_executor ? "in the executor" : executor.note) << "\n";
    }
    return kept;
  }

  pipeline::TestInput file(const std::string& name) {
    return pipeline::file_input(test::data("gpu/data/executor/" + name));
  }

  TempDir dir_{"cudiff-gpu-executor"};
  runners::Toolchain toolchain_;
  runners::GpuDiscovery gpus_;
  std::shared_ptr<runners::ExecutorPool> pool_;
};

TEST_F(GpuExecutor, GeneratedBatchesGiveTheSameObservationsOnBothPaths) {
  const generator::Policy policy = test::accepted_by_both(generator::Policy::defaults());
  std::size_t kept = 0, runs = 0;
  for (std::uint64_t first : {100u, 200u, 300u}) {
    const generator::TestCase test = generator::generate_batch(policy, {first, first + 1, first + 2, first + 3},
                                                               generator::Size::small, 1);
    const Paths paths = check_both({test.name + ".cu", test.source, std::nullopt, test.sidecar, {}, {}},
                                   "nvcc-O3,clang-O3,nvcc-O3-ptxas0,clang-O0");
    kept += expect_same(paths, test.name);
    runs += paths.executor.configs.size();
  }
  // Generated programs are executor-safe: every run stays in the executor.
  EXPECT_EQ(kept, runs);
  EXPECT_EQ(pool_->stats().fallbacks, 0u);
  EXPECT_EQ(pool_->stats().starts, 1u);
}

TEST_F(GpuExecutor, FaultsAreObservedAsAProcessObservesThem) {
  for (const char* name : {"out_of_bounds.cu", "trap_then_exit.cu", "exit_status.cu", "large_allocation.cu"}) {
    const Paths paths = check_both(file(name), "nvcc-O3,clang-O3");
    EXPECT_EQ(expect_same(paths, name), 0u) << name << " ran to the end in an executor";
  }
  const auto reasons = pool_->stats().fallback_reasons;
  EXPECT_GE(reasons.count("CUDA error"), 1u);
  EXPECT_GE(reasons.count("the executor ended during the run"), 1u);
  EXPECT_GE(reasons.count("main returned"), 1u);
  EXPECT_GE(reasons.count("device memory share"), 1u);
  for (const auto& [reason, count] : reasons) std::cout << "[ executor ] fallback " << reason << ": " << count << "\n";
}

TEST_F(GpuExecutor, AHangIsStoppedAndObservedAsAProcessHang) {
  const Paths paths = check_both(file("hangs.cu"), "nvcc-O3", 5);
  EXPECT_EQ(expect_same(paths, "hangs.cu"), 0u);
  ASSERT_TRUE(paths.executor.configs.front().run_process);
  EXPECT_TRUE(paths.executor.configs.front().run_process->timed_out);
  EXPECT_EQ(pool_->stats().fallback_reasons.count("time limit"), 1u);
}

TEST_F(GpuExecutor, DevicePrintfAndDeviceLimitsAreAsInAFreshProcess) {
  // Twice in a row in one executor: the second run must see the default stack limit again.
  for (int round = 0; round < 2; ++round) {
    for (const char* name : {"device_printf.cu", "stack_limit.cu"}) {
      const Paths paths = check_both(file(name), "nvcc-O3,clang-O3");
      EXPECT_EQ(expect_same(paths, name), 2u) << name;
    }
  }
}

TEST_F(GpuExecutor, ManagedMemoryRunsAsAProcess) {
  const Paths paths = check_both(pipeline::file_input(test::source_dir() / "examples" / "managed_counter.cu"),
                                 "nvcc-O3");
  EXPECT_EQ(expect_same(paths, "managed_counter.cu"), 0u);
  EXPECT_EQ(pool_->stats().runs, 0u);
}

// ---- hardening: what a real program shows of the executor's limits and accounting ----------

class GpuExecutorHardening : public GpuExecutor {};

// A program that prints a gigabyte: its file in the executor stops at the output cap while it
// runs (the executor ends, SIGXFSZ), and the process run that follows keeps head and tail and
// says the output was cut, as for any process.
TEST_F(GpuExecutorHardening, AFloodIsCutWhileItRunsAndTheResultSaysSo) {
  const Paths paths = check_both(file("flood.cu"), "nvcc-O3", 300);
  EXPECT_EQ(expect_same(paths, "flood.cu"), 0u);
  ASSERT_EQ(paths.executor.configs.size(), 1u);
  const pipeline::ConfigCheck& check = paths.executor.configs.front();
  ASSERT_TRUE(check.run_process);
  EXPECT_TRUE(test::contains(check.note, "output past the cap")) << check.note;
  EXPECT_TRUE(check.run_process->exited_zero()) << check.run_process->status_text();
  EXPECT_TRUE(check.run_process->out.truncated);
  EXPECT_GE(check.run_process->out.total_bytes, 1ull << 30);
  EXPECT_LT(check.run_process->out.text.size(), runners::Limits{}.output_cap_bytes + 4096);
  std::error_code ec;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir_.path() / "executors", ec))
    if (entry.is_regular_file(ec)) EXPECT_LE(entry.file_size(ec), runners::Limits{}.output_cap_bytes) << entry.path();
}

TEST_F(GpuExecutorHardening, ProgramsRunWithoutCoreFilesOnBothPaths) {
  const Paths paths = check_both(file("core_limit.cu"), "nvcc-O3,clang-O3");
  EXPECT_EQ(expect_same(paths, "core_limit.cu"), 2u);
  for (const pipeline::ConfigCheck& check : paths.executor.configs) {
    ASSERT_TRUE(check.run_process) << check.compile.config.name;
    EXPECT_EQ(check.run_process->out.text, "kernel 7 core 0 0\n") << check.compile.config.name;
  }
}

// cudaMalloc, cudaMallocAsync/cudaFreeAsync, cudaMallocPitch, cudaMallocManaged and host pinned
// memory from eight threads at once: counted without a race, nothing refused, and what the
// program leaks is freed after it (twice in one executor).
TEST_F(GpuExecutorHardening, EveryAllocationEntryPointFromManyThreadsStaysInTheExecutor) {
  for (int round = 0; round < 2; ++round) {
    pipeline::TestInput input = file("allocations.cu");
    input.name = "allocations_" + std::to_string(round) + ".cu";
    const Paths paths = check_both(input, "nvcc-O3,clang-O3");
    EXPECT_EQ(expect_same(paths, input.name), 2u);
    for (const pipeline::ConfigCheck& check : paths.process.configs) {
      ASSERT_TRUE(check.run_process) << check.compile.config.name;
      EXPECT_TRUE(check.run_process->exited_zero()) << check.run_process->out.text;
    }
  }
  EXPECT_EQ(pool_->stats().fallbacks, 0u);
  EXPECT_EQ(pool_->stats().starts, 1u);
}

TEST_F(GpuExecutorHardening, AStreamOrderedAllocationPastTheShareRunsAsAProcess) {
  const Paths paths = check_both(file("async_past_share.cu"), "nvcc-O3,clang-O3");
  EXPECT_EQ(expect_same(paths, "async_past_share.cu"), 0u);
  EXPECT_EQ(pool_->stats().fallback_reasons.count("device memory share"), 1u);
  for (const pipeline::ConfigCheck& check : paths.executor.configs) {
    ASSERT_TRUE(check.run_process) << check.compile.config.name;
    EXPECT_EQ(check.run_process->out.text, "allocation granted\n") << check.compile.config.name;
  }
}

// An eighth of the GPU fits one program's share with one executor on the GPU, not with sixteen
// (runners/device_share.h): the share follows `--executors`.
TEST_F(GpuExecutorHardening, TheShareIsSplitAmongTheGpusExecutors) {
  const Paths one = check_both(file("eighth_of_the_gpu.cu"), "nvcc-O3");
  EXPECT_EQ(expect_same(one, "one executor"), 1u);
  pool_ = std::make_shared<runners::ExecutorPool>(
      test::gpu_executor_setup(toolchain_, gpus_.gpus.front(), dir_.path() / "sixteen", 16));
  pipeline::TestInput input = file("eighth_of_the_gpu.cu");
  input.name = "eighth_of_the_gpu_16.cu";
  const Paths sixteen = check_both(input, "nvcc-O3");
  EXPECT_EQ(expect_same(sixteen, "sixteen executors"), 0u);
  EXPECT_EQ(pool_->stats().fallback_reasons.count("device memory share"), 1u);
  EXPECT_EQ(pool_->stats().starts, 1u);  // executors start when a run needs one
}

// A process, an executor and compute-sanitizer's run of one program see the same environment
// (runners::program_environment): its GPU, the driver's JIT cache off.
TEST_F(GpuExecutorHardening, EveryRunOfAProgramSeesTheSameEnvironment) {
  const Paths paths = check_both(file("environment.cu"), "nvcc-O3");
  EXPECT_EQ(expect_same(paths, "environment.cu"), 1u);
  const pipeline::ConfigCheck& process = paths.process.configs.front();
  ASSERT_TRUE(process.run_process);
  const std::string expected = "kernel 1 CUDA_CACHE_DISABLE=1\nkernel 1 CUDA_VISIBLE_DEVICES=" +
                               gpus_.gpus.front().visible_device + "\n";
  EXPECT_EQ(process.run_process->out.text, expected);
  const auto sanitizer = pipeline::find_compute_sanitizer(toolchain_);
  ASSERT_TRUE(sanitizer) << "no compute-sanitizer beside " << toolchain_.cuda_home;
  runners::Limits limits;
  limits.wall_seconds = 300;
  const pipeline::SanitizerRun run = pipeline::run_sanitizer(*sanitizer, pipeline::SanitizerTool::memcheck, "nvcc-O3",
                                                             process.compile.artifact, gpus_.gpus.front(), limits);
  EXPECT_TRUE(test::contains(run.process.out.text, expected)) << run.process.out.text;
}

} // namespace
