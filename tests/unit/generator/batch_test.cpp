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
  ASSERT_TRUE(batch.sidecar.batch);
  EXPECT_EQ(batch.sidecar.batch->seeds, seeds);
  const std::vector<Sidecar>& tests = batch.sidecar.batch->tests;
  ASSERT_EQ(tests.size(), seeds.size());
  std::size_t kernels = 0, probes = 0;
  for (std::size_t i = 0; i < seeds.size(); ++i) {
    const TestCase alone = generate_program(policy, seeds[i], Size::small);
    EXPECT_EQ(tests[i].seed, seeds[i]);
    const std::vector<Sidecar::Kernel>& alone_kernels = alone.sidecar.kernels.value();
    const std::vector<Sidecar::Kernel>& batched_kernels = tests[i].kernels.value();
    ASSERT_EQ(alone_kernels.size(), batched_kernels.size());
    for (std::size_t k = 0; k < alone_kernels.size(); ++k) {
      // Same IR, so the same predicted checksum; the name gains the seed's label.
      EXPECT_EQ(alone_kernels[k].expected_checksum, batched_kernels[k].expected_checksum);
      const std::string label = "s" + std::to_string(seeds[i]) + "/" + alone_kernels[k].name;
      EXPECT_EQ(batched_kernels[k].name, label);
      EXPECT_TRUE(contains(batch.source, "checksum " + label + " %016llx")) << label;
    }
    EXPECT_EQ(tests[i].constructs_used, alone.sidecar.constructs_used);
    EXPECT_TRUE(contains(batch.source, "namespace cudiff_s" + std::to_string(seeds[i]) + " {"));
    for (const Sidecar::LayoutProbe& probe : tests[i].layout_probes.value()) {
      EXPECT_EQ(probe.type.rfind("s" + std::to_string(seeds[i]) + "_", 0), 0u) << probe.type;
      EXPECT_TRUE(contains(batch.source, "cudiff_layout_" + probe.type + "[]")) << probe.type;
    }
    kernels += batched_kernels.size();
    probes += tests[i].layout_probes->size();
  }
  // The top level lists everything, so a batch is checked like one program.
  EXPECT_EQ(batch.sidecar.kernels->size(), kernels);
  EXPECT_EQ(batch.sidecar.layout_probes->size(), probes);
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
