// Batches: several seeds' programs in one translation unit, each test the same program it is
// alone, every checksum line and layout probe labelled with its seed.
#include "generator/generator.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

using namespace cudiff::generator;
using cudiff::test::contains;

TEST(GeneratorBatch, EachTestIsItsLoneProgramInItsOwnNamespace) {
  const Policy policy = Policy::defaults();
  const std::vector<std::uint64_t> seeds = {40, 41, 42};
  const TestCase batch = generate_batch(policy, seeds, Size::small);
  EXPECT_EQ(batch.name, "cudiff_batch_000000000040_3");
  const auto& tests = batch.sidecar.at("tests").as_array();
  ASSERT_EQ(tests.size(), seeds.size());
  std::size_t kernels = 0, probes = 0;
  for (std::size_t i = 0; i < seeds.size(); ++i) {
    const TestCase alone = generate_program(policy, seeds[i], Size::small);
    const auto& alone_kernels = alone.sidecar.at("kernels").as_array();
    const auto& batched_kernels = tests[i].at("kernels").as_array();
    ASSERT_EQ(alone_kernels.size(), batched_kernels.size());
    for (std::size_t k = 0; k < alone_kernels.size(); ++k) {
      // Same IR, so the same predicted checksum; the name gains the seed's label.
      EXPECT_EQ(alone_kernels[k].at("expected_checksum"), batched_kernels[k].at("expected_checksum"));
      const std::string label = "s" + std::to_string(seeds[i]) + "/" + std::string(alone_kernels[k].at("name").as_string());
      EXPECT_EQ(batched_kernels[k].at("name").as_string(), label);
      EXPECT_TRUE(contains(batch.source, "checksum " + label + " %016llx")) << label;
    }
    EXPECT_EQ(tests[i].at("constructs_used"), alone.sidecar.at("constructs_used"));
    EXPECT_TRUE(contains(batch.source, "namespace cudiff_s" + std::to_string(seeds[i]) + " {"));
    for (const auto& probe : tests[i].at("layout_probes").as_array()) {
      const std::string type(probe.at("type").as_string());
      EXPECT_EQ(type.rfind("s" + std::to_string(seeds[i]) + "_", 0), 0u) << type;
      EXPECT_TRUE(contains(batch.source, "cudiff_layout_" + type + "[]")) << type;
    }
    kernels += batched_kernels.size();
    probes += tests[i].at("layout_probes").as_array().size();
  }
  // The top level lists everything, so a batch is checked like one program.
  EXPECT_EQ(batch.sidecar.at("kernels").as_array().size(), kernels);
  EXPECT_EQ(batch.sidecar.at("layout_probes").as_array().size(), probes);
  // One preamble and one main.
  EXPECT_EQ(batch.source.find("int main("), batch.source.rfind("int main("));
  EXPECT_EQ(batch.source.find("static void cudiff_check("), batch.source.rfind("static void cudiff_check("));
}

TEST(GeneratorBatch, IsDeterministicAndABatchOfOneIsStillLabelled) {
  const Policy policy = Policy::defaults();
  EXPECT_EQ(generate_batch(policy, {7, 8}, Size::small).source, generate_batch(policy, {7, 8}, Size::small).source);
  const TestCase one = generate_batch(policy, {7}, Size::small);
  EXPECT_TRUE(contains(one.source, "checksum s7/kernel_0 %016llx"));
  EXPECT_THROW(generate_batch(policy, {}, Size::small), cudiff::Error);
}
