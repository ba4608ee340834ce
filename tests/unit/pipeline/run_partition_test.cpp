// pipeline::run_partition: how a run finding splits the configs, read from its details. A
// wrong-code finding and the run mismatch its program shows without the generator's prediction
// must split alike (that is how a stored wrong-code reproducer is reduced); other kinds, and a
// split into one group, give none.
#include "pipeline/pipeline.h"

#include <gtest/gtest.h>

namespace cudiff::pipeline {
namespace {

boost::json::value parse(std::string_view text) { return boost::json::parse(text); }

TEST(RunPartition, WrongCodeAndTheRunMismatchOfTheSameSplitAreEqual) {
  const RunPartition wrong = run_partition(
      "wrong_code", parse(R"({"matching": ["clang-O3", "nvcc-O3-ptxas0", "clang-O0"], "differing": ["nvcc-O3"],
                             "differing_groups": [["nvcc-O3"]]})"));
  const RunPartition mismatch = run_partition(
      "run_mismatch", parse(R"({"groups": [{"configs": ["nvcc-O3-ptxas0", "clang-O0", "clang-O3"]},
                                                         {"configs": ["nvcc-O3"]}]})"));
  EXPECT_EQ(wrong, (RunPartition{{"clang-O0", "clang-O3", "nvcc-O3-ptxas0"}, {"nvcc-O3"}}));
  EXPECT_EQ(wrong, mismatch);
}

TEST(RunPartition, ADifferentSplitDiffers) {
  const RunPartition ptxas = run_partition(
      "wrong_code", parse(R"({"matching": ["clang-O3", "nvcc-O3-ptxas0"], "differing_groups": [["nvcc-O3"]]})"));
  // The ptxas swap twin now prints what nvcc-O3 prints: the stage evidence is gone.
  const RunPartition moved = run_partition(
      "run_mismatch", parse(R"({"groups": [{"configs": ["clang-O3"]}, {"configs": ["nvcc-O3", "nvcc-O3-ptxas0"]}]})"));
  EXPECT_NE(ptxas, moved);
}

TEST(RunPartition, OtherKindsAndOneGroupGiveNone) {
  EXPECT_TRUE(run_partition("crash", parse(R"({"matching": ["a"], "differing_groups": [["b"]]})")).empty());
  EXPECT_TRUE(run_partition("common_wrong_code", parse(R"({"differing_groups": [["a", "b"]]})")).empty());
  EXPECT_TRUE(run_partition("run_mismatch", parse("[]")).empty());
}

} // namespace
} // namespace cudiff::pipeline
