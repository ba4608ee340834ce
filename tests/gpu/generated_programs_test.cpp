// gpu-labeled: generated programs built by both compilers run on the GPU and print exactly
// the checksums the generator predicted. Skipped, with the reason, where there is no GPU.
#include "generator/generator.h"
#include "rules/rules.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <set>

using cudiff::test::run_cudiff;

namespace {

/// Generates each seed, checks it with the configs, and expects every binary to print exactly
/// the checksums the generator's interpreter predicted.
void expect_predicted_checksums(const cudiff::generator::Policy& policy, const std::vector<std::uint64_t>& seeds,
                                const std::string& configs) {
  cudiff::TempDir dir("cudiff-gpu-generated");
  for (std::uint64_t seed : seeds) {
    auto test = cudiff::generator::generate_program(policy, seed, cudiff::generator::Size::small);
    const auto source = dir.path() / (test.name + ".cu");
    cudiff::write_file(source, test.source);
    cudiff::write_file(dir.path() / (test.name + ".json"),
                       cudiff::pretty_json(cudiff::generator::to_json(test.sidecar)));
    std::vector<std::string> expected;
    for (const cudiff::generator::Sidecar::Kernel& kernel : test.sidecar.kernels.value())
      expected.push_back("checksum " + kernel.name + " " + kernel.expected_checksum);

    auto result = run_cudiff({"check", source.string(), "--mode", "run", "--json", "--config", configs});
    ASSERT_EQ(result.exit_code, 0) << "seed " << seed << "\n" << result.out.text << result.err.text;
    auto json = boost::json::parse(result.out.text);
    for (const auto& config : json.at("configs").as_array()) {
      ASSERT_TRUE(config.as_object().contains("run")) << "seed " << seed;
      std::vector<std::string> checksums;
      for (const auto& line : config.at("run").at("output_lines").as_array())
        if (line.as_string().starts_with("checksum ")) checksums.emplace_back(line.as_string());
      EXPECT_EQ(checksums, expected) << "seed " << seed << " " << config.at("config").as_string();
      // A host probe that finds its construct broken says so on a line of its own.
      for (const auto& line : config.at("run").at("output_lines").as_array())
        EXPECT_FALSE(line.as_string().starts_with("probe "))
            << "seed " << seed << " " << config.at("config").as_string() << ": " << line.as_string();
    }
  }
}

} // namespace

TEST(GpuGenerated, BothBinariesPrintTheGeneratorsPredictedChecksums) {
  CUDIFF_SKIP_WITHOUT_GPU();
  expect_predicted_checksums(cudiff::test::accepted_by_both(cudiff::generator::Policy::defaults()), {1, 2, 3, 4, 5, 6},
                             "nvcc-O3,clang-O3");
}

// Lambdas, functors, the last-block-done sum and static tables switched on for every program.
TEST(GpuGenerated, LambdasAndLastBlockSumsRunAsPredicted) {
  CUDIFF_SKIP_WITHOUT_GPU();
  auto policy = cudiff::test::accepted_by_both(cudiff::generator::Policy::defaults());
  for (const char* construct : {"extended_lambda", "functor_argument", "last_block_done", "static_local",
                                "class_template", "sfinae", "vector_values"})
    policy.set(std::string("construct.") + construct, 1);
  policy.set("expr.spelled", 0.3);
  expect_predicted_checksums(policy, {11, 12, 13, 14}, "nvcc-O3,clang-O3");
}

// __managed__ input and output: clang-22 ignores the attribute (a known difference), so the
// two nvcc optimization levels are compared instead.
TEST(GpuGenerated, ManagedProgramsRunAsPredictedUnderBothNvccLevels) {
  CUDIFF_SKIP_WITHOUT_GPU();
  auto policy = cudiff::generator::Policy::defaults();
  policy.set("construct.managed_memory", 1);
  expect_predicted_checksums(policy, {21, 22, 23}, "nvcc-O3,nvcc-O0");
}

// Every V-rule probe enabled by default, in programs that carry up to 16 each: seeds are taken
// while they add probes not seen yet, so each probe runs under both compilers at least once.
TEST(GpuGenerated, EveryProbeReturnsItsArgumentUnderBothCompilers) {
  CUDIFF_SKIP_WITHOUT_GPU();
  auto policy = cudiff::test::accepted_by_both(cudiff::generator::Policy::defaults());
  policy.set("probe.share", 1);
  policy.set("probe.count.max", 16);
  std::set<std::string> wanted, seen;
  for (const auto& rule : cudiff::rules::rule_catalog())
    if (rule.probe && rule.probe->clang_rejects.empty()) wanted.insert(rule.id);
  std::vector<std::uint64_t> seeds;
  for (std::uint64_t seed = 31; seed < 531 && seen.size() < wanted.size(); ++seed) {
    const auto test = cudiff::generator::generate_program(policy, seed, cudiff::generator::Size::small);
    bool adds = false;
    for (const cudiff::generator::Sidecar::Probe& probe : test.sidecar.probes.value())
      adds = seen.insert(probe.rule).second || adds;
    if (adds) seeds.push_back(seed);
  }
  ASSERT_EQ(seen, wanted);
  expect_predicted_checksums(policy, seeds, "nvcc-O3,clang-O3");
}
