// The metamorphic oracle's pairs from a batch's sidecar: each variant kernel with its original's,
// kernel by kernel; none for a batch without variants or a lone variant.
#include "generator/generator.h"
#include "pipeline/pipeline.h"

#include <gtest/gtest.h>

namespace cudiff::pipeline {
namespace {

TEST(PipelineVariantPairs, EachVariantKernelWithItsOriginals) {
  const generator::TestCase batch = generator::generate_batch(generator::Policy::defaults(), {3, 4},
                                                              generator::Size::small, 2);
  const std::vector<oracle::VariantKernel> pairs = variant_kernels_of(batch.sidecar);
  std::size_t expected = 0;
  for (const generator::Sidecar& test : batch.sidecar.batch->tests)
    if (test.variant_of) expected += test.kernels->size();
  ASSERT_EQ(pairs.size(), expected);
  ASSERT_GT(expected, 0u);
  for (const oracle::VariantKernel& pair : pairs) {
    // s3v1/kernel_0 goes with s3/kernel_0.
    const std::size_t v = pair.kernel.find('v'), slash = pair.kernel.find('/');
    ASSERT_NE(v, std::string::npos);
    EXPECT_EQ(pair.original, pair.kernel.substr(0, v) + pair.kernel.substr(slash)) << pair.kernel;
    EXPECT_FALSE(pair.transforms.empty());
  }
  // The expected checksums list both; the oracle holds the variants to their originals.
  EXPECT_EQ(expected_checksums_of(batch.sidecar).size(), batch.sidecar.kernels->size());
}

TEST(PipelineVariantPairs, NoneWithoutAnOriginalBeside) {
  EXPECT_TRUE(variant_kernels_of(
                  generator::generate_batch(generator::Policy::defaults(), {3, 4}, generator::Size::small).sidecar)
                  .empty());
  // A variant alone, as the IR reduction starts from it.
  const generator::TestCase lone =
      generator::ProgramReduction(generator::Policy::defaults(), 3, generator::Size::small, 1).current();
  EXPECT_TRUE(variant_kernels_of(lone.sidecar).empty());
}

} // namespace
} // namespace cudiff::pipeline
