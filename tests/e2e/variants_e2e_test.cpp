// Variants (EMI and metamorphic) built by the real compilers (label compilers): `cudiff
// generate --variants` writes each seed's program with its variants in one file, and nvcc and
// clang-22 both build it; a lone variant program builds too.
#include "generator/generator.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

namespace {

using cudiff::test::contains;
using cudiff::test::run_cudiff;

TEST(VariantsE2E, ProgramsWithTheirVariantsBuildWithBothCompilers) {
  cudiff::TempDir dir("cudiff-variants-e2e");
  // Without the constructs a compiler rejects on purpose: both compilers must build the batch.
  const auto policy = dir.path() / "accepted_by_both.json";
  cudiff::write_file(policy, "{\"construct.managed_memory\": 0, \"probe.clang_rejects\": 0}");
  // Small: a batch of three seeds with three variants each; medium: one seed with two (a medium
  // batch like the small one took 200 s of the test command for what one program shows).
  struct Case {
    const char* size;
    const char* count;
    const char* variants;
    const char* file;
    std::vector<const char*> labels;
  };
  const std::vector<Case> cases = {
      {"small",
       "3",
       "3",
       "cudiff_batch_000000000031_3.cu",
       {"namespace cudiff_s31 {", "namespace cudiff_s31v1 {", "namespace cudiff_s33v3 {"}},
      {"medium", "1", "2", "cudiff_batch_000000000031_1.cu", {"namespace cudiff_s31 {", "namespace cudiff_s31v2 {"}}};
  for (const Case& c : cases) {
    const char* size = c.size;
    const auto out = dir.path() / size;
    auto generated = run_cudiff({"generate", "--seed", "31", "--count", c.count, "--batch", "3", "--variants",
                                 c.variants, "--size", size, "--policy", policy.string(), "--out", out.string()});
    ASSERT_EQ(generated.exit_code, 0) << generated.out.text << generated.err.text;
    EXPECT_TRUE(contains(generated.out.text, std::string("each with ") + c.variants + " variants"))
        << generated.out.text;
    const auto source = out / c.file;
    ASSERT_TRUE(std::filesystem::exists(source)) << generated.out.text;
    const std::string text = cudiff::read_file(source);
    for (const char* label : c.labels) EXPECT_TRUE(contains(text, label)) << label;
    // Binary mode: compiled and linked under nvcc-O3 and clang-O3, no GPU needed.
    auto checked = run_cudiff({"check", source.string(), "--mode", "binary"});
    EXPECT_EQ(checked.exit_code, 0) << checked.out.text << checked.err.text;
    EXPECT_TRUE(contains(checked.out.text, "agree: all accept")) << size << ":\n" << checked.out.text;
  }
}

TEST(VariantsE2E, ALoneVariantIsAProgramInItsOwnRight) {
  cudiff::TempDir dir("cudiff-variants-lone");
  // A variant alone is what the IR reduction starts from (ProgramReduction with a variant).
  std::vector<cudiff::generator::TestCase> variants;
  for (int index = 1; index <= 2; ++index)
    variants.push_back(
        cudiff::generator::ProgramReduction(cudiff::test::accepted_by_both(cudiff::generator::Policy::defaults()), 44,
                                            cudiff::generator::Size::small, index)
            .current());
  for (const cudiff::generator::TestCase& variant : variants) {
    const auto source = dir.path() / (variant.name + ".cu");
    cudiff::write_file(source, variant.source);
    cudiff::write_file(dir.path() / (variant.name + ".json"),
                       cudiff::pretty_json(cudiff::generator::to_json(variant.sidecar)));
    auto checked = run_cudiff({"check", source.string(), "--mode", "binary"});
    EXPECT_EQ(checked.exit_code, 0) << checked.out.text << checked.err.text;
    EXPECT_TRUE(contains(checked.out.text, "agree: all accept")) << variant.name << ":\n" << checked.out.text;
  }
}

} // namespace
