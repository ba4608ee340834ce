// gpu-labeled: generated programs built by both compilers run on the GPU and print exactly
// the checksums the generator predicted. Skipped, with the reason, where there is no GPU.
#include "generator/generator.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

using cudiff::test::run_cudiff;

TEST(GpuGenerated, BothBinariesPrintTheGeneratorsPredictedChecksums) {
  if (auto why = cudiff::test::no_gpu()) GTEST_SKIP() << *why;
  cudiff::TempDir dir("cudiff-gpu-generated");
  const auto policy = cudiff::generator::Policy::defaults();
  for (std::uint64_t seed : {1ull, 2ull, 3ull, 4ull, 5ull, 6ull}) {
    auto test = cudiff::generator::generate_program(policy, seed, cudiff::generator::Size::small);
    const auto source = dir.path() / (test.name + ".cu");
    cudiff::write_file(source, test.source);
    cudiff::write_file(dir.path() / (test.name + ".json"), cudiff::pretty_json(test.sidecar));
    std::vector<std::string> expected;
    for (const auto& kernel : test.sidecar.at("kernels").as_array())
      expected.push_back("checksum " + std::string(kernel.at("name").as_string()) + " " +
                         std::string(kernel.at("expected_checksum").as_string()));

    auto result = run_cudiff({"check", source.string(), "--mode", "run", "--json"});
    ASSERT_EQ(result.exit_code, 0) << "seed " << seed << "\n" << result.out.text << result.err.text;
    auto json = boost::json::parse(result.out.text);
    for (const auto& config : json.at("configs").as_array()) {
      ASSERT_TRUE(config.as_object().contains("run")) << "seed " << seed;
      std::vector<std::string> checksums;
      for (const auto& line : config.at("run").at("output_lines").as_array())
        if (line.as_string().starts_with("checksum ")) checksums.emplace_back(line.as_string());
      EXPECT_EQ(checksums, expected) << "seed " << seed << " " << config.at("config").as_string();
    }
  }
}
