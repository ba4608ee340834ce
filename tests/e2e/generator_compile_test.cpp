// Generated programs are accepted by the real compilers: clang++-22 -fsyntax-only and nvcc -cuda
// on a sample of seeds (label compilers), as one batch (each seed in its own namespace, as a
// campaign builds them): one compile per compiler instead of one per seed.
#include "generator/generator.h"
#include "runners/runners.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace {

using namespace cudiff;

/// clang -fsyntax-only and nvcc -cuda accept the batch of the seeds' programs; returns its source.
std::string expect_accepted(const generator::Policy& policy, const std::vector<std::uint64_t>& seeds) {
  std::string sources;
  const std::string clang = test::clang_path();
  const std::string nvcc = test::nvcc_path();
  if (clang.empty() || nvcc.empty()) {
    ADD_FAILURE() << "needs clang++-22 and nvcc (scripts/setup.sh installs clang-22)";
    return sources;
  }
  const std::string cuda = std::filesystem::path(nvcc).parent_path().parent_path().string();
  TempDir dir("cudiff-gen-compile");
  const generator::TestCase test = generator::generate_batch(policy, seeds, generator::Size::small);
  const auto file = dir.path() / (test.name + ".cu");
  write_file(file, test.source);
  sources = test.source;
  runners::Command syntax;
  syntax.argv = {clang,
                 "-x",
                 "cuda",
                 "--cuda-gpu-arch=sm_90",
                 "--cuda-path=" + cuda,
                 "-Wno-unknown-cuda-version",
                 "-std=c++17",
                 "-fsyntax-only",
                 file.string()};
  // As the runners do: CUDA 13's <cuda/std/...> (cooperative groups, cuda::atomic_ref).
  if (std::filesystem::is_directory(cuda + "/include/cccl"))
    syntax.argv.insert(syntax.argv.end() - 1, {"-isystem", cuda + "/include/cccl"});
  const auto clang_result = runners::run_subprocess(syntax);
  EXPECT_TRUE(clang_result.exited_zero()) << test.name << ": " << clang_result.err.text;
  runners::Command front;
  front.argv = {nvcc, "-std=c++17", "--extended-lambda", "-arch=sm_90", "-cuda", file.string(), "-o", "/dev/null"};
  const auto nvcc_result = runners::run_subprocess(front);
  EXPECT_TRUE(nvcc_result.exited_zero()) << test.name << ": " << nvcc_result.err.text << nvcc_result.out.text;
  return sources;
}

} // namespace

TEST(GeneratorCompile, SampleSeedsAreAcceptedByBothCompilers) {
  expect_accepted(generator::Policy::defaults(), {1, 2, 3, 4, 5});
}

// The C++-heavy constructs on in every program: class template specializations, SFINAE
// overloads, vector values, extended lambdas (including [*this] in a launcher's member
// function), functors, static tables, the last-block-done sum.
TEST(GeneratorCompile, TemplateAndLambdaHeavyProgramsAreAcceptedByBothCompilers) {
  generator::Policy policy = generator::Policy::defaults();
  for (const char* construct : {"class_template", "sfinae", "vector_values", "extended_lambda", "functor_argument",
                                "static_local", "last_block_done"})
    policy.set(std::string("construct.") + construct, 1);
  policy.set("expr.spelled", 0.4);
  policy.set("lambda.capture.this", 4);
  policy.set("lambda.capture.by_value", 4);
  policy.set("lambda.capture.functor", 4);
  policy.set("lambda.host_device", 1);
  policy.set("stmt.atomic", 4);
  policy.set("atomic.last_block", 1);
  policy.set("small.kernels.min", 2);
  const std::string sources = expect_accepted(policy, {31, 32, 33, 34, 35, 36});
  for (const char* marker : {"cudiff_binop<", "cudiff_tweak(", "make_", "[*this] __device__", "[=] __host__ __device__",
                             "] __device__ (", "operator()", "(unsigned int i) {", "__threadfence();"})
    EXPECT_NE(sources.find(marker), std::string::npos) << "no program used " << marker;
}
