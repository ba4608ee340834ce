// Unit: pipeline::generated_origin — a stored finding's reproducer is reduced on the
// generator's IR only when today's generator makes that text again, byte for byte.
#include "pipeline/pipeline.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

namespace cudiff::pipeline {
namespace {

class GeneratedOriginTest : public ::testing::Test {
protected:
  std::optional<pipeline::GeneratedOrigin> origin_of(const std::string& source) {
    triage::StoredFinding finding;
    finding.source = source;
    finding.campaign_id = "no-such-campaign";  // no stored parameters: the default policy
    why_not_.clear();
    return generated_origin(db_, finding, why_not_);
  }
  TempDir dir_{"cudiff-generated-origin"};
  triage::Database db_ = triage::Database::open(dir_.path() / "t.db");
  std::string why_not_;
};

TEST_F(GeneratedOriginTest, AProgramTheGeneratorMakesAgainIsItsSeedAndSize) {
  const generator::TestCase test = generator::generate_program(generator::Policy::defaults(), 7,
                                                               generator::Size::medium);
  const auto origin = origin_of(test.source);
  ASSERT_TRUE(origin) << why_not_;
  EXPECT_EQ(origin->seed, 7u);
  EXPECT_EQ(origin->size, generator::Size::medium);
  EXPECT_EQ(origin->variant, 0);
  EXPECT_EQ(origin->policy.hash(), generator::Policy::defaults().hash());
}

TEST_F(GeneratedOriginTest, ABatchOfSeveralSeedsWithVariantsIsItsSeedsAndItsVariantCount) {
  const auto one = origin_of(
      generator::generate_batch(generator::Policy::defaults(), {9}, generator::Size::small).source);
  ASSERT_TRUE(one) << why_not_;
  EXPECT_TRUE(one->batch);
  EXPECT_EQ(one->seed, 9u);
  EXPECT_EQ(one->variants, 0);
  // `cudiff generate --batch 2 --variants 2`: the variants are counted from the text.
  const auto two = origin_of(
      generator::generate_batch(generator::Policy::defaults(), {9, 10}, generator::Size::small, 2).source);
  ASSERT_TRUE(two) << why_not_;
  EXPECT_EQ(two->seeds, (std::vector<std::uint64_t>{9, 10}));
  EXPECT_EQ(two->variants, 2);
  EXPECT_EQ(program_reduction(*two).current().source,
            generator::generate_batch(generator::Policy::defaults(), {9, 10}, generator::Size::small, 2).source);
}

TEST_F(GeneratedOriginTest, AWrongCodeFindingNamesTheTestItsDifferingKernelIsIn) {
  triage::StoredFinding finding;
  finding.source = generator::generate_batch(generator::Policy::defaults(), {9, 10}, generator::Size::small, 1).source;
  finding.campaign_id = "no-such-campaign";
  finding.details = boost::json::object{{"differing_kernels", boost::json::array{"s10v1/kernel_0"}}};
  const auto origin = generated_origin(db_, finding, why_not_);
  ASSERT_TRUE(origin) << why_not_;
  EXPECT_EQ(origin->seed, 10u);
  EXPECT_EQ(origin->variant, 1);
}

TEST_F(GeneratedOriginTest, AnEditedProgramAPersonsFileAndAnotherVersionAreRefusedWithTheReason) {
  std::string source = generator::generate_program(generator::Policy::defaults(), 7, generator::Size::small).source;
  std::string edited = source;
  edited.replace(edited.rfind('}'), 1, "} ");
  EXPECT_FALSE(origin_of(edited));
  EXPECT_EQ(why_not_, "the generator does not make the same program again");

  EXPECT_FALSE(origin_of("__global__ void k() {}\nint main() {}\n"));
  EXPECT_EQ(why_not_, "not a generated program");

  const std::string version(generator::kGeneratorVersion);
  const std::size_t at = source.find(version);
  ASSERT_NE(at, std::string::npos);
  source.replace(at, version.size(), "0.0.0");
  EXPECT_FALSE(origin_of(source));
  EXPECT_TRUE(test::contains(why_not_, "made by generator 0.0.0")) << why_not_;
}

// A program made with another policy, checked alone (`cudiff check` stores no policy): refused
// with the way out, and reduced from its IR once `--policy FILE` gives that policy; a policy
// whose hash is not the header's changes nothing.
TEST_F(GeneratedOriginTest, AnotherPolicyIsRefusedUntilItIsGivenAndOnlyThatPolicyIsTaken) {
  generator::Policy dense = generator::Policy::defaults();
  dense.set("dense.share", 1);
  const std::string source = generator::generate_program(dense, 7, generator::Size::small).source;
  EXPECT_FALSE(origin_of(source));
  EXPECT_EQ(why_not_, "its policy is not stored with its campaign (give it with --policy FILE)");
  triage::StoredFinding finding;
  finding.source = source;
  finding.campaign_id = "no-such-campaign";
  generator::Policy other = generator::Policy::defaults();
  other.set("dense.share", 0);
  EXPECT_FALSE(generated_origin(db_, finding, why_not_, other));
  const auto origin = generated_origin(db_, finding, why_not_, dense);
  ASSERT_TRUE(origin) << why_not_;
  EXPECT_EQ(origin->policy.hash(), dense.hash());
  EXPECT_EQ(program_reduction(*origin).current().source, source);
}

} // namespace
} // namespace cudiff::pipeline
