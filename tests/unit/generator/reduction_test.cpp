// The IR reduction (ProgramReduction, generator/reduction/reduction*.cpp): its start is the generated
// program with the same predictions, every candidate is a program with a fresh prediction,
// edits are deterministic, and a greedy reduction against a simple property ends at a small
// program with the compact host side that keeps the property (and no input once nothing
// reads one).
#include "generator/generator.h"
#include "support/ir_walk.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>

namespace {

using namespace cudiff::generator;
namespace test = cudiff::test;
using test::reduce_greedily;

constexpr std::uint64_t kSeed = test::kReductionSeed;

std::size_t lines(const std::string& text) { return static_cast<std::size_t>(std::ranges::count(text, '\n')); }

TEST(ProgramReduction, StartsFromTheGeneratedProgramAndItsPredictions) {
  const Policy policy = Policy::defaults();
  const ProgramReduction reduction(policy, kSeed, Size::small);
  const TestCase generated = generate_program(policy, kSeed, Size::small);
  EXPECT_EQ(reduction.current().sidecar.kernels, generated.sidecar.kernels);
  // The same text below the header, which says it is a reduction's start.
  const std::string body = generated.source.substr(generated.source.find("#include"));
  EXPECT_NE(reduction.current().source.find(body), std::string::npos);
  EXPECT_NE(reduction.current().source.find("// reduced from seed 1026020699234"), std::string::npos);
  EXPECT_GT(reduction.edits(), 100u);
}

TEST(ProgramReduction, EveryCandidateIsAnotherProgramWithItsOwnPrediction) {
  const ProgramReduction reduction(Policy::defaults(), kSeed, Size::small);
  std::size_t candidates = 0, other_checksums = 0;
  for (std::size_t i = 0; i < reduction.edits(); ++i) {
    const std::optional<TestCase> candidate = reduction.candidate(i);
    if (!candidate) continue;
    ++candidates;
    EXPECT_NE(candidate->source, reduction.current().source) << reduction.describe(i);
    ASSERT_TRUE(candidate->sidecar.kernels.has_value());
    if (candidate->sidecar.kernels != reduction.current().sidecar.kernels) ++other_checksums;
    EXPECT_EQ(candidate->source, reduction.candidate(i)->source) << "edit " << i << " is not deterministic";
  }
  EXPECT_GT(candidates, reduction.edits() / 2);
  // Most edits change what a kernel computes, and the prediction follows.
  EXPECT_GT(other_checksums, candidates / 2);
}

TEST(ProgramReduction, AGreedyReductionEndsSmallAndKeepsWhatItWasAskedToKeep) {
  ProgramReduction reduction(Policy::defaults(), kSeed, Size::small);
  const std::size_t before = lines(reduction.current().source);
  // The property: the dense kernel still calls __vmaxs2 and still predicts a checksum.
  const int accepted = reduce_greedily(reduction, [](const TestCase& test) {
    return test.source.find("__vmaxs2(") != std::string::npos && test.sidecar.kernels && !test.sidecar.kernels->empty();
  });
  const TestCase& result = reduction.current();
  EXPECT_GT(accepted, 10);
  EXPECT_NE(result.source.find("__vmaxs2("), std::string::npos);
  EXPECT_NE(result.source.find("int main() {"), std::string::npos) << "the compact host side";
  EXPECT_EQ(result.source.find("cudiff_print_layout"), std::string::npos);
  EXPECT_LT(lines(result.source), 40u) << result.source;
  EXPECT_LT(lines(result.source) * 5, before);
  ASSERT_EQ(result.sidecar.kernels->size(), 1u);
  EXPECT_EQ(result.sidecar.kernels->front().name, "dense_0");
  EXPECT_EQ(result.sidecar.kernels->front().grid[0], 1u);
  EXPECT_EQ(result.sidecar.kernels->front().block[0], 32u);
}

TEST(ProgramReduction, AKernelThatNoLongerReadsItsInputEndsWithoutOne) {
  // The property: a statement of constants only (`v4 = (signed char)((unsigned)__popc(0x0u));`).
  const std::string text = test::reduced_keeping("__popc(0x0u)").source;
  EXPECT_NE(text.find("__popc(0x0u)"), std::string::npos);
  // The base words, the variable's input word and then the input itself went.
  EXPECT_EQ(text.find("unsigned a = "), std::string::npos) << text;
  EXPECT_EQ(text.find("in["), std::string::npos) << text;
  EXPECT_EQ(text.find("host_in"), std::string::npos) << text;
  EXPECT_NE(text.find("(unsigned long long* __restrict__ out)"), std::string::npos) << text;
  EXPECT_NE(text.find(">>>(out);"), std::string::npos) << text;
  EXPECT_LE(lines(text), 27u) << text;
}

} // namespace
