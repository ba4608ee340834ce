// gpu-labeled: a short campaign with the full pipeline (build, run on the GPU, judge) on
// seeds that both compilers are known to agree on; skipped, with the reason, without a GPU.
#include "support/test_support.h"
#include "triage/triage.h"

#include <gtest/gtest.h>

using cudiff::test::run_cudiff;

TEST(GpuFuzz, CampaignRunsEveryBatchOnTheGpu) {
  if (auto why = cudiff::test::no_gpu()) GTEST_SKIP() << *why;
  cudiff::TempDir dir("cudiff-gpu-fuzz");
  const auto db = dir.path() / "gpu.db";
  // Generated programs only: an edge program (edge.share) must be rejected, and the missed
  // diagnostics among them are findings by design (tests/e2e/edge_e2e_test.cpp).
  const auto policy = dir.path() / "policy.json";
  cudiff::write_file(policy, R"({"edge.share": 0})");
  auto result = run_cudiff({"fuzz", "--tests", "32", "--batch", "8", "--seed", "0", "--no-reduce", "--db", db.string(),
                            "--policy", policy.string(), "--json"},
                           600);
  ASSERT_EQ(result.exit_code, 0) << result.out.text << result.err.text;
  std::cout << result.err.text << result.out.text;  // the campaign's own lines, for the record
  const auto summary = boost::json::parse(result.out.text);
  EXPECT_FALSE(summary.at("compile_only").as_bool());
  EXPECT_EQ(summary.at("tests").to_number<int>(), 32);
  // Seeds 0..499 agree under both compilers (bench/RESULTS.md): any finding here is new.
  EXPECT_EQ(summary.at("findings").to_number<int>(), 0) << result.out.text;
  const auto campaigns = cudiff::triage::Database::open(db, {.create = false, .read_only = true}).campaigns();
  ASSERT_EQ(campaigns.size(), 1u);
  EXPECT_EQ(campaigns[0].mode, "run");
  EXPECT_FALSE(campaigns[0].gpus.empty());
}
