// gpu-labeled: programs of the ABI family (kernel parameters and __noinline__ device functions
// of many kinds, generator/abi/abi_params.cpp) built by both compilers, whole-program and with
// separate compilation, run on the GPU and print exactly the checksums the generator
// predicted: the parameters' values cross every call as the interpreter says. Skipped, with
// the reason, where there is no GPU.
#include "generator/generator.h"
#include "pipeline/pipeline.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <iostream>

namespace {

using namespace cudiff;

generator::Policy abi_policy() {
  generator::Policy policy = generator::Policy::defaults();
  policy.set("abi.share", 1);
  policy.set("abi.functions.max", 6);
  return policy;
}

/// Where the compilers are: $CUDIFF_CLANG and $CUDIFF_NVCC as cudiff reads them (the GPU host
/// has clang only where tests/gpu/run_gpu_tests.sh unpacked it).
/// Checks each seed's program in run mode with `configs` and expects every binary to print the
/// predicted checksums; adds the abi_mismatch findings' "runs" fields to `runs`.
void expect_predicted_checksums(const std::vector<std::uint64_t>& seeds, const std::vector<runners::Config>& configs,
                                std::vector<std::string>& runs) {
  static const runners::Toolchain toolchain = runners::Toolchain::from(
      runners::discover_toolchain(test::toolchain_search()));
  const runners::GpuDiscovery gpus = runners::discover_gpus();
  TempDir dir("cudiff-gpu-abi");
  for (std::uint64_t seed : seeds) {
    const generator::TestCase test = generator::generate_program(abi_policy(), seed, generator::Size::small);
    pipeline::CheckRequest request;
    request.input = pipeline::TestInput{test.name + ".cu", test.source, std::nullopt, test.sidecar, {}, {}};
    request.mode = runners::Mode::run;
    request.configs = configs;
    const auto work = dir.path() / std::to_string(seed);
    std::filesystem::create_directories(work);
    const pipeline::TestCheck run = pipeline::check_test(request, toolchain, gpus, work);
    std::vector<std::string> expected;
    for (const generator::Sidecar::Kernel& kernel : test.sidecar.kernels.value())
      expected.push_back("checksum " + kernel.name + " " + kernel.expected_checksum);
    for (const pipeline::ConfigCheck& config : run.configs) {
      ASSERT_TRUE(config.run) << "seed " << seed << " " << config.compile.config.name << ": " << run.verdict.headline();
      std::vector<std::string> checksums;
      for (const std::string& line : config.run->output_lines)
        if (line.starts_with("checksum ")) checksums.push_back(line);
      EXPECT_EQ(checksums, expected) << "seed " << seed << " " << config.compile.config.name;
    }
    std::cout << "[ abi ] seed " << seed << ": " << run.verdict.headline() << "\n";
    for (const oracle::Finding& finding : run.verdict.findings) {
      EXPECT_TRUE(finding.kind == oracle::FindingKind::abi_mismatch) << finding.summary;
      if (finding.kind == oracle::FindingKind::abi_mismatch) runs.emplace_back(finding.details.at("runs").as_string());
    }
  }
}

} // namespace

TEST(GpuAbi, FamilyProgramsRunAsPredictedWholeProgram) {
  CUDIFF_SKIP_WITHOUT_GPU();
  std::vector<std::string> runs;
  expect_predicted_checksums({21, 22, 23, 24, 25, 26}, runners::default_configs(), runs);
  EXPECT_TRUE(runs.empty()) << "kernels' parameter declarations agree whole-program";
}

TEST(GpuAbi, FamilyProgramsRunAsPredictedWithSeparateCompilation) {
  CUDIFF_SKIP_WITHOUT_GPU();
  const std::vector<runners::Config> rdc = runners::parse_configs("nvcc-O3-rdc,clang-O3-rdc");
  // Return alignments differ (clang, llvm/llvm-project#52840); within one binary each compiler
  // is consistent with itself, so the runs agree, and every finding says so.
  std::vector<std::string> runs;
  expect_predicted_checksums({21, 22, 23}, rdc, runs);
  EXPECT_FALSE(runs.empty()) << "seeds 21-23 have aggregate results (tests/e2e/abi_e2e_test.cpp)";
  for (const std::string& agreed : runs) EXPECT_EQ(agreed, "agreed");
}
