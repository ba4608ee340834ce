// The IR reduction (ProgramReduction, generator/reduction/reduction*.cpp): its start is the generated
// program with the same predictions, every candidate is a program with a fresh prediction,
// edits are deterministic, and a greedy reduction against a simple property ends at a small
// program with the compact host side that keeps the property (and no input once nothing
// reads one).
#include "generator/generator.h"
#include "support/ir_kinds.h"
#include "support/ir_walk.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>

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
  // The same text, byte for byte; a candidate's header says what it was reduced from.
  EXPECT_EQ(reduction.current().source, generated.source);
  EXPECT_GT(reduction.edits(), 100u);
  const std::optional<TestCase> candidate = reduction.candidate(0);
  ASSERT_TRUE(candidate);
  EXPECT_NE(candidate->source.find("// reduced from seed 1026020699234, generator"), std::string::npos);
}

TEST(ProgramReduction, EveryCandidateIsAnotherProgramWithItsOwnPrediction) {
  const ProgramReduction reduction(test::reduction_policy(), kSeed, Size::small);
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
  // The compact host side is not the harness a launch plan describes: no plan, so the device
  // path never runs it as cubins (docs/pipeline.md, "Build paths").
  EXPECT_FALSE(result.sidecar.kernels->front().launch);
}

TEST(ProgramReduction, AKernelThatNoLongerReadsItsInputEndsWithoutOne) {
  // The property: a statement of constants only (a byte store at `(unsigned)__ffs((int)0x0u) & 1u`).
  const std::string text = test::reduced_keeping("__ffs((int)0x0u)").source;
  EXPECT_NE(text.find("__ffs((int)0x0u)"), std::string::npos);
  // The base words, the variable's input word and then the input itself went.
  EXPECT_EQ(text.find("unsigned a = "), std::string::npos) << text;
  EXPECT_EQ(text.find("in["), std::string::npos) << text;
  EXPECT_EQ(text.find("host_in"), std::string::npos) << text;
  EXPECT_NE(text.find("(unsigned long long* __restrict__ out)"), std::string::npos) << text;
  EXPECT_NE(text.find(">>>(out);"), std::string::npos) << text;
  EXPECT_LE(lines(text), 28u) << text;  // the byte store, its bytes set and hashed
}

TEST(ProgramReduction, FunctionsADeletedStatementLeftUncalledGoLaterInTheSameRound) {
  // A dense kernel with functions: its statements go one by one (the first edit of that kind
  // each time) until some function is called no more. Then an edit that deletes every uncalled
  // function is offered after the statement edits too, since the stage goes on after the edit it
  // kept; its candidate calls every function it still defines and has a prediction.
  Policy policy = Policy::defaults();
  policy.set("dense.share", 1);
  policy.set("dense.family.dense_functions", 1);
  std::size_t checked = 0;
  for (std::uint64_t seed = kSeed; seed < kSeed + 8 && checked == 0; ++seed) {
    ProgramReduction reduction(policy, seed, Size::small);
    for (int step = 0; step < 200; ++step) {
      std::optional<std::size_t> last_statement, cleanup;
      for (std::size_t i = 0; i < reduction.edits(); ++i) {
        if (reduction.describe(i).find(": delete statement ") != std::string::npos) last_statement = i;
        if (reduction.describe(i).ends_with("delete the functions nothing calls")) cleanup = i;
      }
      if (cleanup) {
        ASSERT_TRUE(last_statement);
        EXPECT_GT(*cleanup, *last_statement) << "seed " << seed;
        const std::optional<TestCase> candidate = reduction.candidate(*cleanup);
        ASSERT_TRUE(candidate);
        ASSERT_TRUE(candidate->sidecar.kernels);
        EXPECT_LT(candidate->source.size(), reduction.current().source.size());
        ++checked;
        break;
      }
      if (!last_statement) break;
      // The first statement edit that makes a candidate.
      bool accepted = false;
      for (std::size_t i = 0; i < reduction.edits() && !accepted; ++i)
        if (reduction.describe(i).find(": delete statement ") != std::string::npos && reduction.candidate(i)) {
          reduction.accept(i);
          accepted = true;
        }
      if (!accepted) break;
    }
  }
  EXPECT_EQ(checked, 1u) << "no seed left a function uncalled";
}

TEST(ProgramReduction, ACopyIsAPlaceToGoBackTo) {
  ProgramReduction reduction(Policy::defaults(), kSeed, Size::small);
  const ProgramReduction before = reduction;
  reduction.accept(0);
  EXPECT_NE(reduction.current().source, before.current().source);
  ProgramReduction back = before;
  EXPECT_EQ(back.current().source, generate_program(Policy::defaults(), kSeed, Size::small).source);
  EXPECT_EQ(back.edits(), before.edits());
  EXPECT_EQ(back.candidate(0)->source, reduction.current().source);
}

} // namespace

namespace {

/// The first candidate of an edit of `kind`, with its description.
std::optional<std::pair<std::string, TestCase>> first_of_kind(const ProgramReduction& reduction,
                                                              const std::string& kind) {
  for (std::size_t i = 0; i < reduction.edits(); ++i)
    if (reduction.kind(i) == kind)
      if (std::optional<TestCase> candidate = reduction.candidate(i))
        return std::pair{reduction.describe(i), *candidate};
  return std::nullopt;
}

/// A program of seed `seed` that carries the ABI family (abi.share 1).
ProgramReduction with_abi(std::uint64_t seed) {
  Policy policy = Policy::defaults();
  policy.set("abi.share", 1);
  return ProgramReduction(policy, seed, Size::small);
}

TEST(ProgramReduction, ABatchStartsAsGenerateBatchMakesItAndItsTestsGoOneByOne) {
  const Policy policy = Policy::defaults();
  ProgramReduction reduction(policy, std::vector<std::uint64_t>{5, 6}, Size::small, 2);
  EXPECT_EQ(reduction.current().source, generate_batch(policy, {5, 6}, Size::small, 2).source);
  ASSERT_EQ(reduction.kind(0), "delete a test of the batch");
  EXPECT_EQ(reduction.describe(0), "delete test s5");
  // Every test but the last goes; the batch of one becomes the program alone.
  for (int gone = 0; gone < 5; ++gone) reduction.accept(0);
  ASSERT_TRUE(reduction.current().sidecar.batch);
  EXPECT_EQ(reduction.current().sidecar.batch->tests.size(), 1u);
  EXPECT_TRUE(test::contains(reduction.current().source, "// reduced from seed 6 variant 2, generator"));
  const auto alone = first_of_kind(reduction, "one program instead of a batch");
  ASSERT_TRUE(alone);
  EXPECT_FALSE(alone->second.sidecar.batch);
  EXPECT_FALSE(test::contains(alone->second.source, "namespace cudiff_s6v2"));
}

TEST(ProgramReduction, AVariantFoldsBackIntoItsOriginal) {
  const Policy policy = Policy::defaults();
  const ProgramReduction reduction(policy, std::vector<std::uint64_t>{21}, Size::small, 1);
  const auto folded = first_of_kind(reduction, "fold a variant back into its original");
  ASSERT_TRUE(folded);
  const Sidecar& variant = folded->second.sidecar.batch->tests.at(1);
  ASSERT_TRUE(variant.variant_of);
  EXPECT_TRUE(variant.variant_of->transforms.empty());
  // The variant's kernels print what the original's do, by the original's own IR.
  const std::vector<Sidecar::Kernel>& original = folded->second.sidecar.batch->tests.at(0).kernels.value();
  const std::vector<Sidecar::Kernel>& now = variant.kernels.value();
  ASSERT_EQ(original.size(), now.size());
  for (std::size_t k = 0; k < now.size(); ++k) EXPECT_EQ(now[k].expected_checksum, original[k].expected_checksum);
  EXPECT_FALSE(test::contains(folded->second.source, "emi_"));
}

TEST(ProgramReduction, AnAbiFunctionGoesWithItsCall) {
  const ProgramReduction reduction = with_abi(11);
  ASSERT_TRUE(test::contains(reduction.current().source, "cudiff_abi_0(")) << "seed 11 has no ABI family";
  // All of them: no kernel calls one any more (nvcc: `identifier "cudiff_abi_0" is undefined`).
  const auto all = first_of_kind(reduction, "delete the ABI functions");
  ASSERT_TRUE(all);
  EXPECT_FALSE(test::contains(all->second.source, "cudiff_abi_")) << all->second.source;
  // One of them: its definition and its call go, the others stay.
  const auto one = first_of_kind(reduction, "abi: delete a function");
  ASSERT_TRUE(one);
  EXPECT_EQ(one->first, "delete ABI function cudiff_abi_0 with its call");
  EXPECT_FALSE(test::contains(one->second.source, "cudiff_abi_0"));
  // A parameter: the function takes one fewer, and its call passes one fewer.
  const auto parameter = first_of_kind(reduction, "abi: delete a parameter");
  ASSERT_TRUE(parameter);
  EXPECT_FALSE(test::contains(parameter->second.source, "abi0_0)")) << parameter->first;
  EXPECT_FALSE(test::contains(parameter->second.source, "abi0_0,")) << parameter->first;
}

TEST(ProgramReduction, ACoreKernelGoesAloneWhileTheAbiFamilyIsThere) {
  const ProgramReduction reduction = with_abi(11);
  const auto kernel = first_of_kind(reduction, "delete a core kernel");
  ASSERT_TRUE(kernel) << "no core kernel can go alone";
  EXPECT_LT(kernel->second.sidecar.kernels->size(), reduction.current().sidecar.kernels->size());
}

TEST(ProgramReduction, CoreKernelsHaveEditsInsideThemEachWithAFreshPrediction) {
  const ProgramReduction reduction(Policy::defaults(), kSeed, Size::small);
  std::map<std::string, std::size_t> kinds;
  std::size_t changed = 0, candidates = 0;
  for (std::size_t i = 0; i < reduction.edits(); ++i) {
    if (!reduction.kind(i).starts_with("core: ")) continue;
    ++kinds[reduction.kind(i)];
    const std::optional<TestCase> candidate = reduction.candidate(i);
    if (!candidate || ++candidates > 200) continue;
    if (candidate->sidecar.kernels != reduction.current().sidecar.kernels) ++changed;
  }
  for (const char* kind :
       {"core: delete a statement", "core: an expression as 0", "core: an expression as its operand"})
    EXPECT_GT(kinds[kind], 0u) << kind;
  EXPECT_GT(candidates, 50u);
  EXPECT_GT(changed, 10u) << "the prediction follows the edits";
}

TEST(ProgramReduction, InlinePtxBlocksLoseInstructions) {
  Policy policy = Policy::defaults();
  policy.set("dense.share", 1);
  policy.set("dense.family.dense_inline_ptx", 1);
  for (std::uint64_t seed = 1; seed < 20; ++seed) {
    const ProgramReduction reduction(policy, seed, Size::small);
    const auto fewer = first_of_kind(reduction, "ptx: delete an instruction");
    if (!fewer) continue;
    // Each instruction is one line of the asm string, ending in `\n\t"`.
    auto instructions = [](const std::string& text) {
      std::size_t n = 0;
      for (std::size_t at = text.find("\\n\\t\""); at != std::string::npos; at = text.find("\\n\\t\"", at + 1)) ++n;
      return n;
    };
    EXPECT_LT(instructions(fewer->second.source), instructions(reduction.current().source)) << fewer->first;
    return;
  }
  FAIL() << "no seed of 1..19 offers a PTX instruction to delete";
}

TEST(ProgramReduction, TheSamplesShowEveryKindOfEdit) {
  std::set<std::string> kinds;
  for (const test::IrSample& sample : test::ir_samples({1, 2, 3, 4}, 1)) kinds.insert(sample.kind);
  for (const std::string& kind : test::ir_edit_kinds()) EXPECT_TRUE(kinds.contains(kind)) << kind;
  for (const std::string& kind : kinds) EXPECT_TRUE(test::ir_edit_kinds().contains(kind)) << kind;
}

} // namespace
