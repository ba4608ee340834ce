// Test support: where the cudiff binary and the test data are, from a build tree or a copy.
//
// ctest sets CUDIFF_BIN (the source tree is compiled in, the executor found beside cudiff);
// tests/gpu/run_gpu_tests.sh sets all three on a GPU host where the build tree's absolute paths
// do not exist.
#pragma once

#include "generator/generator.h"
#include "runners/runners.h"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace cudiff::test {

std::filesystem::path cudiff_binary();
std::filesystem::path source_dir();
/// cudiff-executor: $CUDIFF_EXECUTOR, else beside the cudiff binary.
std::filesystem::path executor_binary();
/// `source` (C++, host code only) built by clang-22 into DIR/NAME.so, as the executor path builds
/// a program's host side: position-independent, main() kept. A failed build fails the caller.
std::filesystem::path host_shared_object(const std::filesystem::path& dir, const std::string& name,
                                         const std::string& source);
/// What a gpu test's executor pool needs to run on `gpu` as a campaign's does: cudiff-executor,
/// the toolkit's libcudart.so, `slots` executors working in `workdir`. Throws Error(environment)
/// when the toolkit has no libcudart.so.
runners::ExecutorSetup gpu_executor_setup(const runners::Toolchain& toolchain, const runners::GpuInfo& gpu,
                                          const std::filesystem::path& workdir, std::size_t slots = 1);
/// Where the compilers are, as cudiff's own flags would say: $CUDIFF_CLANG, $CUDIFF_NVCC and
/// $CUDA_HOME (a GPU host's carried clang, tests/gpu/run_gpu_tests.sh).
runners::ToolchainSearch toolchain_search();
/// clang++ for tests that run a compiler by hand: $CUDIFF_CLANG (a GPU host carries clang-22
/// unpacked elsewhere), else clang++-22 on PATH; empty when neither exists.
std::string clang_path();
/// nvcc for tests that run a compiler by hand: $CUDIFF_NVCC, else /usr/local/cuda/bin/nvcc, else
/// nvcc on PATH; empty when none exists.
std::string nvcc_path();
/// Runs `argv` (a compiler, a built program) with a wall limit and returns what happened.
runners::SubprocessResult run_tool(const std::vector<std::string>& argv, double wall_seconds = 600);
/// A file under tests/ in the source tree, e.g. data("fake_compilers/hanging_compiler_fake.sh").
std::filesystem::path data(const std::string& relative);
/// Runs the cudiff binary with `args` and extra environment variables and returns what happened.
runners::SubprocessResult run_cudiff(const std::vector<std::string>& args, double wall_seconds = 300,
                                     std::vector<std::pair<std::string, std::string>> env = {});
/// Why gpu tests cannot run here ("no GPU (<driver note>)"), or nothing when a GPU is present.
/// Used through CUDIFF_SKIP_WITHOUT_GPU().
std::optional<std::string> no_gpu();
/// Whether CUDIFF_REQUIRE_GPU=1 is set: a gpu test that would skip fails instead, so a GPU
/// host whose discovery broke cannot pass the suite by skipping all of it.
bool gpu_required();
/// The architecture of the first GPU ("sm_90"); a gpu test builds for the GPU it runs on.
/// Call only after CUDIFF_SKIP_WITHOUT_GPU().
std::string gpu_arch();

/// Whether a kernel of a generated program reads its __managed__ input (the kernel body, between
/// `__global__` and its host runner, names `kernel_N_in[`): clang-22 rejects such a program.
bool reads_managed_on_device(const std::string& source);

/// `policy` without the constructs a compiler rejects on purpose (managed memory, the probes
/// clang rejects): for tests that expect both compilers to build every program.
inline generator::Policy accepted_by_both(generator::Policy policy) {
  policy.set("construct.managed_memory", 0);
  policy.set("probe.clang_rejects", 0);
  return policy;
}

/// The defaults, accepted by both compilers, with the compute-dense family in every program and
/// only `family` of its families on (dense_arith always is).
inline generator::Policy only_family(const std::string& family) {
  generator::Policy policy = accepted_by_both(generator::Policy::defaults());
  policy.set("dense.share", 1);
  const std::vector<generator::Knob> knobs = policy.knobs();
  for (const generator::Knob& knob : knobs)
    if (knob.name.starts_with("dense.family.")) policy.set(knob.name, 0);
  policy.set("dense.family." + family, 1);
  return policy;
}

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }
/// Newline characters in `text`: its lines, when it ends with a newline.
inline std::size_t count_lines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

/// Each parser-regression input took far longer than this (or all memory) before its fix and
/// takes well under a second after: a bound between both catches the regression without being flaky.
inline constexpr double kRegressionSecondsBound = 10;

/// How long `body` took, in seconds.
double seconds_of(const std::function<void()>& body);
/// The kind of the cudiff::Error `body` throws (none when it throws nothing); anything else
/// escaping fails the test that calls it.
std::optional<ErrorKind> error_kind_of(const std::function<void()>& body);
/// The message of the cudiff::Error `body` throws, or "(no error)".
std::string error_message_of(const std::function<void()>& body);
/// `part` `times` times over.
std::string repeated(std::string_view part, std::size_t times);

} // namespace cudiff::test

/// In a gpu test: skips it with why no GPU is here, or fails it when CUDIFF_REQUIRE_GPU=1.
#define CUDIFF_SKIP_WITHOUT_GPU()                                                                                      \
  do {                                                                                                                 \
    if (const auto cudiff_no_gpu = ::cudiff::test::no_gpu()) CUDIFF_GPU_TEST_CANNOT_RUN(*cudiff_no_gpu);               \
  } while (0)
/// In a gpu test that cannot run for `why`: a skip, or a failure when CUDIFF_REQUIRE_GPU=1.
#define CUDIFF_GPU_TEST_CANNOT_RUN(why)                                                                                \
  do {                                                                                                                 \
    if (::cudiff::test::gpu_required())                                                                                \
      GTEST_FAIL() << "CUDIFF_REQUIRE_GPU=1 and this gpu test cannot run: " << (why);                                  \
    GTEST_SKIP() << (why) << ": gpu test skipped";                                                                     \
  } while (0)
