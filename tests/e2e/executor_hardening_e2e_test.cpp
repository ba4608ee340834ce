// The executor's environment and its accounting of a program's memory, on shared objects built
// by clang-22 (host code only: no GPU needed). The accounting runs against a fake CUDA runtime
// (fake_cudart_without_stream_ordered, built here), for what a real runtime cannot show on demand:
// a runtime that lacks entry points (cudaMallocAsync, cudaFreeAsync), and an allocator fast
// enough for 8 threads to hammer the executor's bookkeeping. Its allocations are addresses it
// counts out, never memory. The same on a real GPU: tests/gpu/executor_gpu_test.cpp,
// GpuExecutorHardening.*, whose programs are built here by both compilers (no GPU needed).
#include "runners/device_share.h"
#include "runners/runners.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace cudiff::runners {
namespace {

constexpr std::uint64_t kGiB = 1ull << 30;
/// What the fake runtime says the GPU has.
constexpr std::uint64_t kFakeTotalBytes = 17 * kGiB;

/// A fake libcudart: the entry points the executor binds, device and host allocations that
/// hand out addresses (never memory), a pitch rounded up to 512 bytes; no stream-ordered
/// allocation at all.
constexpr const char* kFakeRuntime = R"(#include <atomic>
#include <cstddef>
#include <cstdint>
namespace {
std::atomic<std::uintptr_t> next{std::uintptr_t{1} << 32};
void* take(std::size_t bytes) { return reinterpret_cast<void*>(next.fetch_add(bytes / 256 * 256 + 256)); }
}
extern "C" {
int cudaMalloc(void** p, std::size_t n) { if (!p) return 1; *p = take(n); return 0; }
int cudaFree(void*) { return 0; }
int cudaMallocManaged(void** p, std::size_t n, unsigned) { *p = take(n); return 0; }
int cudaMallocPitch(void** p, std::size_t* pitch, std::size_t w, std::size_t h) {
  *pitch = (w + 511) / 512 * 512; *p = take(*pitch * h); return 0; }
int cudaMallocHost(void** p, std::size_t n) { *p = take(n); return 0; }
int cudaHostAlloc(void** p, std::size_t n, unsigned) { *p = take(n); return 0; }
int cudaFreeHost(void*) { return 0; }
int cudaDeviceSynchronize() { return 0; }
int cudaGetLastError() { return 0; }
int cudaDeviceSetLimit(int, std::size_t) { return 0; }
int cudaDeviceGetLimit(std::size_t* value, int) { *value = 1024; return 0; }
int cudaMemGetInfo(std::size_t* free, std::size_t* total) { *free = *total = std::size_t{17} << 30; return 0; }
})";

/// The entry points the programs below call, declared as the runtime's C ABI has them.
constexpr const char* kDeclarations = R"(#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>
extern "C" int cudaMalloc(void**, std::size_t);
extern "C" int cudaFree(void*);
extern "C" int cudaMallocManaged(void**, std::size_t, unsigned);
extern "C" int cudaMallocPitch(void**, std::size_t*, std::size_t, std::size_t);
extern "C" int cudaMallocHost(void**, std::size_t);
extern "C" int cudaHostAlloc(void**, std::size_t, unsigned);
extern "C" int cudaFreeHost(void*);
extern "C" int cudaMallocAsync(void**, std::size_t, void*);
extern "C" int cudaFreeAsync(void*, void*);
static std::size_t bytes_of(const char* text) { return std::strtoull(text, nullptr, 10); }
)";

class ExecutorWithFakeRuntime : public ::testing::Test {
protected:
  void SetUp() override {
    if (!std::filesystem::exists(test::executor_binary())) GTEST_SKIP() << "no cudiff-executor built";
    runtime_ = test::host_shared_object(dir_.path(), "fake_cudart_without_stream_ordered", kFakeRuntime);
  }

  /// A pool of `slots` executors on the fake runtime.
  std::unique_ptr<ExecutorPool> pool(std::size_t slots) {
    ExecutorSetup setup;
    setup.program = test::executor_binary();
    setup.cudart = runtime_;
    setup.workdir = dir_.path() / ("executors" + std::to_string(slots));
    setup.slots = slots;
    return std::make_unique<ExecutorPool>(setup);
  }

  std::filesystem::path program(const std::string& name, const std::string& body) {
    return test::host_shared_object(dir_.path(), name, std::string(kDeclarations) + body);
  }

  ExecutorPool::RunAttempt run(ExecutorPool& pool, const std::filesystem::path& program,
                               std::vector<std::string> args = {}) {
    Limits limits;
    limits.wall_seconds = 60;
    return pool.run(program, args, limits, dir_.path());
  }

  /// One program's share with `slots` executors on the fake GPU, as the executor computes it.
  static std::uint64_t share(std::size_t slots) {
    return program_device_share(kFakeTotalBytes, pipeline::kExecutorContextBytes, slots, ExecutorSetup{}.device_share);
  }

  TempDir dir_{"cudiff-executor-fake-runtime"};
  std::filesystem::path runtime_;
};

// Eight threads allocate and free through every counted entry point at once; afterwards the
// program's whole share is free again for one allocation (a lost or doubled count would refuse
// it), and one byte more is refused. Unguarded, the executor's bookkeeping died in 5 of 6 runs
// of this program.
TEST_F(ExecutorWithFakeRuntime, AllocationsFromManyThreadsAreCountedExactly) {
  const auto churn = program("churn", R"(
int main(int argc, char** argv) {
  std::vector<std::thread> threads;
  std::vector<int> failures(8);
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&failures, t] {
      for (int i = 0; i < 50000; ++i) {
        void *plain, *managed, *pitched, *host;
        std::size_t pitch = 0;
        failures[t] += cudaMalloc(&plain, 1 << 20) != 0;
        failures[t] += cudaMallocManaged(&managed, 1 << 16, 1) != 0;
        failures[t] += cudaMallocPitch(&pitched, &pitch, 1000, 64) != 0;
        failures[t] += cudaMallocHost(&host, 1 << 20) != 0;
        cudaFree(plain); cudaFree(managed); cudaFree(pitched); cudaFreeHost(host);
      }
    });
  for (std::thread& thread : threads) thread.join();
  int failed = 0;
  for (int f : failures) failed += f;
  void* whole = nullptr;
  const int status = cudaMalloc(&whole, bytes_of(argv[1]));
  std::printf("failures %d whole %d\n", failed, status);
  return failed == 0 && status == 0 ? 0 : 1;
})");
  auto executors = pool(1);
  for (int round = 0; round < 2; ++round) {
    const auto outcome = run(*executors, churn, {std::to_string(share(1))});
    ASSERT_TRUE(outcome.result) << outcome.fallback;
    EXPECT_EQ(outcome.result->out.text, "failures 0 whole 0\n");
  }
  const auto over = run(*executors, churn, {std::to_string(share(1) + 1)});
  EXPECT_FALSE(over.result);
  EXPECT_EQ(over.fallback, "device memory share");
  EXPECT_EQ(executors->stats().starts, 1u);
}

// The share is split among the GPU's executors (--executors): what one of one executor may hold
// is refused to one of four.
TEST_F(ExecutorWithFakeRuntime, TheShareIsSplitAmongTheGpusExecutors) {
  ASSERT_GT(share(1), share(4));
  const auto allocates = program("allocates", R"(
int main(int argc, char** argv) {
  void* p = nullptr;
  return cudaMalloc(&p, bytes_of(argv[1]));
})");
  const std::string between = std::to_string(share(4) + 1);
  auto one = pool(1);
  EXPECT_TRUE(run(*one, allocates, {between}).result);
  auto four = pool(4);
  const auto refused = run(*four, allocates, {between});
  EXPECT_FALSE(refused.result);
  EXPECT_EQ(refused.fallback, "device memory share");
  EXPECT_TRUE(run(*four, allocates, {std::to_string(share(4))}).result);
}

// A pitched allocation counts its pitch, not its width; managed memory counts as device memory;
// host pinned memory does not count; leaks are not carried over to the next program.
TEST_F(ExecutorWithFakeRuntime, EachEntryPointCountsWhatItHolds) {
  const std::uint64_t whole = share(1);
  const auto pitched = program("pitched", R"(
int main(int argc, char** argv) {
  void* p = nullptr;
  std::size_t pitch = 0;
  return cudaMallocPitch(&p, &pitch, 1000, bytes_of(argv[1]) / 1000);  // pitch 1024
})");
  const auto managed = program("managed", R"(
int main(int argc, char** argv) {
  void *m = nullptr, *d = nullptr;
  if (cudaMallocManaged(&m, bytes_of(argv[1]), 1) != 0) return 2;
  return cudaMalloc(&d, 1);
})");
  const auto pinned_and_leaks = program("pinned_and_leaks", R"(
int main(int argc, char** argv) {
  void *h = nullptr, *a = nullptr, *d = nullptr;
  if (cudaMallocHost(&h, std::size_t{100} << 30) != 0 || cudaHostAlloc(&a, std::size_t{100} << 30, 0) != 0) return 2;
  return cudaMalloc(&d, bytes_of(argv[1]));  // leaked, as are the host buffers
})");
  auto executors = pool(1);
  // width * height fits, pitch * height does not.
  const auto wide = run(*executors, pitched, {std::to_string(whole)});
  EXPECT_FALSE(wide.result);
  EXPECT_EQ(wide.fallback, "device memory share");
  EXPECT_TRUE(run(*executors, pitched, {std::to_string(whole / 1024 * 1000)}).result);
  const auto full = run(*executors, managed, {std::to_string(whole)});
  EXPECT_FALSE(full.result);
  EXPECT_EQ(full.fallback, "device memory share");
  EXPECT_TRUE(run(*executors, managed, {std::to_string(whole - 1)}).result);
  for (int round = 0; round < 2; ++round) {
    const auto outcome = run(*executors, pinned_and_leaks, {std::to_string(whole)});
    EXPECT_TRUE(outcome.result) << round << ": " << outcome.fallback;
  }
}

// A runtime without the stream-ordered entry points still starts; a program that calls one runs
// as a process, with the reason, and the executor goes on.
TEST_F(ExecutorWithFakeRuntime, AMissingEntryPointFallsBackAndTheExecutorGoesOn) {
  const auto async = program("async", R"(
int main() {
  void* p = nullptr;
  const int status = cudaMallocAsync(&p, 1024, nullptr);
  std::printf("cudaMallocAsync %d\n", status);
  return 0;
})");
  const auto clean = program("clean", "int main() { void* p; return cudaMalloc(&p, 1024); }");
  auto executors = pool(1);
  const auto outcome = run(*executors, async);
  EXPECT_FALSE(outcome.result);
  EXPECT_EQ(outcome.fallback, "the CUDA runtime lacks cudaMallocAsync");
  EXPECT_TRUE(run(*executors, clean).result);
  const ExecutorStats stats = executors->stats();
  EXPECT_EQ(stats.starts, 1u);
  EXPECT_EQ(stats.failed_starts, 0u);
}

// A program in an executor sees the environment every run of a program gets
// (runners::program_environment), as execute()'s processes and compute-sanitizer's runs do.
TEST(ExecutorEnvironment, ProgramsGetTheEnvironmentOfEveryRun) {
  if (!std::filesystem::exists(test::executor_binary())) GTEST_SKIP() << "no cudiff-executor built";
  TempDir dir("cudiff-executor-environment");
  const auto prints = test::host_shared_object(dir.path(), "environment", R"cpp(#include <cstdio>
#include <cstdlib>
#include <initializer_list>
int main() {
  for (const char* name : {"CUDA_CACHE_DISABLE", "CUDA_VISIBLE_DEVICES"}) {
    const char* value = std::getenv(name);
    std::printf("%s=%s\n", name, value ? value : "(unset)");
  }
  return 0;
})cpp");
  ExecutorSetup setup;
  setup.program = test::executor_binary();
  setup.workdir = dir.path() / "executors";
  setup.gpu.visible_device = "5";
  ExecutorPool pool(setup);
  Limits limits;
  limits.wall_seconds = 20;
  const auto outcome = pool.run(prints, {}, limits, dir.path());
  ASSERT_TRUE(outcome.result) << outcome.fallback;
  std::vector<std::string> expected;
  for (const auto& [name, value] : program_environment(setup.gpu.visible_device))
    expected.push_back(name + "=" + value);
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(split_lines(outcome.result->out.text), expected);
}

// The real CUDA programs GpuExecutorHardening.* runs on a GPU build under both compilers, as
// the executor path builds them, so that a GPU host finds them building.
TEST(GpuExecutorHardeningPrograms, BuildWithBothCompilersAsSharedObjects) {
  const Toolchain toolchain = Toolchain::from(discover_toolchain(test::toolchain_search()));
  TempDir dir("cudiff-executor-hardening-programs");
  Limits limits;
  limits.wall_seconds = 300;
  for (const char* name : {"flood.cu", "core_limit.cu", "allocations.cu", "async_past_share.cu", "eighth_of_the_gpu.cu",
                           "environment.cu"}) {
    const auto file = test::data(std::string("gpu/data/executor/") + name);
    for (const Config& config : parse_configs("nvcc-O3,clang-O3")) {
      const CompileResult built = compile(toolchain, config, Mode::binary, file, dir.path() / name, limits,
                                          Linkage::shared_object);
      EXPECT_TRUE(built.process.exited_zero() && !built.artifact.empty()) << name << " " << config.name << ":\n"
                                                                          << built.process.err.text;
    }
  }
}

}  // namespace
}  // namespace cudiff::runners
