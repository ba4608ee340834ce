// gpu-labeled: a short campaign with the full pipeline (build, run on the GPU, judge) on
// seeds that both compilers are known to agree on; skipped, with the reason, without a GPU.
#include "support/test_support.h"
#include "triage/triage.h"

#include <gtest/gtest.h>

using cudiff::test::run_cudiff;

TEST(GpuFuzz, CampaignRunsEveryBatchOnTheGpu) {
  CUDIFF_SKIP_WITHOUT_GPU();
  cudiff::TempDir dir("cudiff-gpu-fuzz");
  const auto db = dir.path() / "gpu.db";
  // Generated programs only: an edge program (edge.share) must be rejected, and the missed
  // diagnostics among them are findings by design (tests/e2e/edge_e2e_test.cpp); nor the
  // constructs and probes one compiler rejects on purpose (test::accepted_by_both), nor long
  // double members, whose device layout clang gives 8 bytes (a layout finding by design).
  const auto policy = dir.path() / "policy.json";
  cudiff::write_file(policy, R"({"edge.share": 0, "construct.managed_memory": 0, "probe.clang_rejects": 0,
                                "construct.long_double_members": 0})");
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
  // The batches ran in executors (the default run path), every run of them clean.
  const auto& executor = summary.at("executor");
  ASSERT_TRUE(executor.is_object()) << result.out.text;
  EXPECT_GT(executor.at("runs").to_number<int>(), 0);
  EXPECT_EQ(executor.at("ran_as_processes").to_number<int>(), 0) << result.out.text;
}
