// Unit: every run of a built program gets its environment from one function
// (runners::program_environment): a process (execute, as a check's baseline and its attribution
// rebuilds run), compute-sanitizer's runs (the sanitizer gate) and an executor (tested in
// tests/e2e/executor_e2e_test.cpp, which builds a program) see the same GPU and the driver's JIT
// cache off.
#include "pipeline/pipeline.h"
#include "pipeline/sanitizer_parts.h"
#include "runners/runners.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace {

using namespace cudiff;
using Env = std::vector<std::pair<std::string, std::string>>;

TEST(ProgramEnvironment, PinsTheGpuAndTurnsTheJitCacheOff) {
  EXPECT_EQ(runners::program_environment("3"), (Env{{"CUDA_VISIBLE_DEVICES", "3"}, {"CUDA_CACHE_DISABLE", "1"}}));
  EXPECT_EQ(runners::program_environment(std::string("GPU-5f1c")),
            (Env{{"CUDA_VISIBLE_DEVICES", "GPU-5f1c"}, {"CUDA_CACHE_DISABLE", "1"}}));
  // No GPU named (`--layout`, which makes no CUDA call): cudiff's own CUDA_VISIBLE_DEVICES stays.
  EXPECT_EQ(runners::program_environment(std::nullopt), (Env{{"CUDA_CACHE_DISABLE", "1"}}));
}

/// The lines of `text` that set a variable of program_environment's.
std::vector<std::string> program_variables(const std::string& text) {
  std::vector<std::string> found;
  for (const auto& line : split(text, '\n'))
    if (line.starts_with("CUDA_VISIBLE_DEVICES=") || line.starts_with("CUDA_CACHE_DISABLE=")) found.push_back(line);
  std::sort(found.begin(), found.end());
  return found;
}

TEST(ProgramEnvironment, AProcessRunGetsIt) {
  TempDir dir("cudiff-run-environment");
  runners::Limits limits;
  limits.wall_seconds = 20;
  // env(1) as the "built program": it prints the environment it was given.
  const runners::SubprocessResult run = runners::execute("/usr/bin/env", limits, std::string("2"), dir.path());
  ASSERT_TRUE(run.exited_zero()) << run.status_text() << run.err.text;
  EXPECT_EQ(program_variables(run.out.text),
            (std::vector<std::string>{"CUDA_CACHE_DISABLE=1", "CUDA_VISIBLE_DEVICES=2"}));
}

TEST(ProgramEnvironment, ASanitizerRunGetsIt) {
  TempDir dir("cudiff-run-environment");
  runners::GpuInfo gpu;
  gpu.visible_device = "1";
  runners::Limits limits;
  limits.wall_seconds = 20;
  // A sanitizer that is not there: nothing runs, but the command it would run is recorded.
  const pipeline::SanitizerRun run = pipeline::run_sanitizer(dir.path() / "no-compute-sanitizer",
                                                             pipeline::SanitizerTool::memcheck, "nvcc-O3",
                                                             dir.path() / "program", gpu, limits);
  EXPECT_EQ(run.command.env_overrides, runners::program_environment("1"));
  EXPECT_FALSE(run.process.started);
}

}  // namespace
