// Variants (EMI and metamorphic): every transform keeps each kernel's checksum — the
// interpreter on the rewritten IR gives the original's — over many seeds, and really changes the
// emitted text; whole variants are deterministic, named after their original and batched with it.
#include "generator/core/emit.h"
#include "generator/core/interpreter.h"
#include "generator/generator.h"
#include "generator/validate.h"
#include "generator/variants/variants.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

using namespace cudiff::generator;
using cudiff::test::contains;

namespace {

/// A batch test's own text: from its namespace to the next test's marker, its label replaced
/// by "LABEL" (so two tests' texts compare by their code, not their names).
std::string section_of(const std::string& source, const std::string& label) {
  const std::size_t start = source.find("namespace cudiff_" + label + " {");
  if (start == std::string::npos) return {};
  const std::size_t end = source.find("\n// ---- seed ", start);
  std::string text = source.substr(start, end == std::string::npos ? std::string::npos : end - start);
  for (std::size_t at = text.find(label); at != std::string::npos; at = text.find(label, at + 5))
    text.replace(at, label.size(), "LABEL");
  return text;
}

constexpr std::uint64_t kSeeds = 60;

std::string text_of(const Program& program) { return emit_program(program, LayoutPlan{}, EmitOptions{}); }

/// Applies `name` once to each seed's program; checks checksums, validity and the text change;
/// returns on how many seeds it applied.
int check_transform(const std::string& name, Size size) {
  int applied_on = 0;
  for (std::uint64_t seed = 1; seed <= kSeeds; ++seed) {
    const Program original = built_program(Policy::defaults(), seed, size);
    Program variant = original;
    cudiff::SeededRng rng(seed * 7919 + name.size());
    std::vector<std::string> applied;
    if (!apply_variant_transform(variant, rng, name, applied)) continue;
    ++applied_on;
    EXPECT_EQ(applied.size(), 1u) << name;
    const Interpreter interpreter(variant);
    for (std::size_t k = 0; k < variant.kernels.size(); ++k) {
      const Interpreter::KernelRun run = interpreter.run(variant.kernels[k]);
      EXPECT_EQ(run.problem, "") << name << " seed " << seed << " " << variant.kernels[k].name;
      EXPECT_EQ(run.checksum, original.kernels[k].expected_checksum) << name << " seed " << seed;
    }
    EXPECT_NO_THROW(validate_program(variant, seed)) << name << " seed " << seed;
    EXPECT_NE(text_of(variant), text_of(original)) << name << " seed " << seed << " changed nothing";
  }
  return applied_on;
}

} // namespace

TEST(GeneratorVariants, DeadCodeKeepsChecksumsAndAppliesEverywhere) {
  EXPECT_EQ(check_transform("dead_code", Size::small), static_cast<int>(kSeeds));
}

TEST(GeneratorVariants, IdentityKeepsChecksums) {
  EXPECT_EQ(check_transform("identity", Size::small), static_cast<int>(kSeeds));
}

TEST(GeneratorVariants, ReassociationKeepsChecksums) {
  EXPECT_GT(check_transform("reassociate", Size::small), static_cast<int>(kSeeds / 2));
}

TEST(GeneratorVariants, LoopSplitAndPeelKeepChecksums) {
  EXPECT_GT(check_transform("loop_split", Size::medium), static_cast<int>(kSeeds / 4));
  EXPECT_GT(check_transform("loop_peel", Size::medium), static_cast<int>(kSeeds / 4));
}

TEST(GeneratorVariants, UnswitchKeepsChecksums) {
  EXPECT_GT(check_transform("loop_unswitch", Size::medium), static_cast<int>(kSeeds / 4));
}

TEST(GeneratorVariants, OutlineAndInlineKeepChecksums) {
  EXPECT_GT(check_transform("outline", Size::medium), static_cast<int>(kSeeds / 2));
  EXPECT_GT(check_transform("inline", Size::medium), static_cast<int>(kSeeds / 8));
}

TEST(GeneratorVariants, ReorderKeepsChecksums) {
  EXPECT_GT(check_transform("reorder", Size::medium), static_cast<int>(kSeeds / 4));
}

TEST(GeneratorVariants, LargeProgramsKeepChecksumsUnderWholeVariants) {
  for (std::uint64_t seed = 1; seed <= 3; ++seed)
    EXPECT_NO_THROW(generate_batch(Policy::defaults(), {seed}, Size::large, 1)) << seed;
}

TEST(GeneratorVariants, UnknownTransformIsAnInternalError) {
  Program program = built_program(Policy::defaults(), 1, Size::small);
  cudiff::SeededRng rng(1);
  std::vector<std::string> applied;
  EXPECT_THROW(apply_variant_transform(program, rng, "no_such_transform", applied), cudiff::Error);
}

TEST(GeneratorVariants, VariantsNameTheirOriginalAndKeepItsChecksums) {
  const Policy policy = Policy::defaults();
  const TestCase batch = generate_batch(policy, {9}, Size::small, 3);
  const std::vector<Sidecar>& tests = batch.sidecar.batch.value().tests;
  ASSERT_EQ(tests.size(), 4u);
  const std::string original = section_of(batch.source, batch_test_label(9));
  ASSERT_FALSE(original.empty());
  std::vector<std::string> sections;
  for (int j = 1; j <= 3; ++j) {
    const Sidecar& variant = tests[static_cast<std::size_t>(j)];
    ASSERT_TRUE(variant.variant_of);
    EXPECT_EQ(variant.variant_of->seed, 9u);
    EXPECT_EQ(variant.variant_of->index, j);
    EXPECT_FALSE(variant.variant_of->transforms.empty());
    const std::vector<Sidecar::Kernel>& kernels = variant.kernels.value();
    ASSERT_EQ(kernels.size(), tests[0].kernels.value().size());
    for (std::size_t k = 0; k < kernels.size(); ++k)
      EXPECT_EQ(kernels[k].expected_checksum, tests[0].kernels.value()[k].expected_checksum);
    sections.push_back(section_of(batch.source, variant_test_label(9, j)));
    EXPECT_NE(sections.back(), original);
    EXPECT_TRUE(contains(batch.source, "// ---- seed 9 variant " + std::to_string(j))) << j;
  }
  // Deterministic, and the variants differ from one another.
  EXPECT_EQ(generate_batch(policy, {9}, Size::small, 3).source, batch.source);
  EXPECT_NE(sections[0], sections[1]);
}

TEST(GeneratorVariants, BatchPutsVariantsAfterTheirOriginal) {
  const Policy policy = Policy::defaults();
  const TestCase batch = generate_batch(policy, {21, 22}, Size::small, 2);
  ASSERT_TRUE(batch.sidecar.batch);
  EXPECT_EQ(batch.sidecar.batch->seeds, (std::vector<std::uint64_t>{21, 22}));
  const std::vector<Sidecar>& tests = batch.sidecar.batch->tests;
  ASSERT_EQ(tests.size(), 6u);
  for (std::size_t i = 0; i < tests.size(); ++i) {
    const std::uint64_t seed = i < 3 ? 21 : 22;
    const int index = static_cast<int>(i % 3);
    EXPECT_EQ(tests[i].seed, seed);
    EXPECT_EQ(tests[i].variant_of.has_value(), index > 0);
    const std::string label = index == 0 ? batch_test_label(seed) : variant_test_label(seed, index);
    EXPECT_TRUE(contains(batch.source, "namespace cudiff_" + label + " {")) << label;
    const std::vector<Sidecar::Kernel>& kernels = tests[i].kernels.value();
    const std::vector<Sidecar::Kernel>& originals = tests[i - static_cast<std::size_t>(index)].kernels.value();
    ASSERT_EQ(kernels.size(), originals.size());
    for (std::size_t k = 0; k < kernels.size(); ++k) {
      EXPECT_EQ(kernels[k].name.rfind(label + "/", 0), 0u) << kernels[k].name;
      EXPECT_EQ(kernels[k].expected_checksum, originals[k].expected_checksum);
    }
  }
  // A variant alone (the IR reduction's start) is the batch's variant: the same predictions.
  const std::vector<Sidecar::Kernel> alone =
      ProgramReduction(policy, 21, Size::small, 2).current().sidecar.kernels.value();
  ASSERT_EQ(alone.size(), tests[2].kernels.value().size());
  for (std::size_t k = 0; k < alone.size(); ++k)
    EXPECT_EQ(alone[k].expected_checksum, tests[2].kernels.value()[k].expected_checksum);
  // Without variants a batch is what it always was.
  EXPECT_EQ(generate_batch(policy, {21, 22}, Size::small, 0).source,
            generate_batch(policy, {21, 22}, Size::small).source);
}

TEST(GeneratorVariants, SidecarRoundTripsTheVariantKey) {
  const Sidecar variant = generate_batch(Policy::defaults(), {5}, Size::small, 1).sidecar.batch.value().tests.at(1);
  const boost::json::object json = to_json(variant);
  ASSERT_TRUE(json.contains("variant_of"));
  EXPECT_EQ(json.at("variant_of").at("seed").as_uint64(), 5u);
  EXPECT_EQ(sidecar_from_json(json), variant);
  EXPECT_THROW(sidecar_from_json(boost::json::object{{"variant_of", boost::json::object{{"index", "one"}}}}),
               cudiff::Error);
}

TEST(GeneratorVariants, AChecksumOtherThanTheOriginalsIsAnInternalErrorNamingTheSeed) {
  // A variant whose kernel computes another value than the original's recorded checksum (here
  // the record is off by one bit, as a broken transform would make the value) is refused.
  Program program = built_program(Policy::defaults(), 17, Size::small);
  program.kernels.front().expected_checksum ^= 1;
  try {
    derive_variant(program, 17, 2);
    ADD_FAILURE() << "a variant with another checksum was accepted";
  } catch (const cudiff::Error& error) {
    EXPECT_EQ(error.kind(), cudiff::ErrorKind::internal);
    EXPECT_TRUE(contains(error.what(), "seed 17 variant 2 (")) << error.what();
    EXPECT_TRUE(contains(error.what(), "expected checksum")) << error.what();
  }
}
