// Campaign shards on the real compilers (label compilers), compile-only, without Slurm: two
// shards of a named campaign test, between them, exactly the programs one unsharded campaign
// with the same seed tests, and merge into one campaign with the same buckets; a named
// campaign's command run again continues it, or has nothing to do.
#include "support/test_support.h"
#include "triage/triage.h"

#include <gtest/gtest.h>

#include <set>

namespace {

using cudiff::test::contains;
using cudiff::test::run_cudiff;
namespace fs = std::filesystem;

/// Half the programs read a __managed__ array in a kernel: clang-22 rejects those (a false
/// rejection), so both shards have findings, all of one signature. No edge programs or probes.
fs::path planted_policy(const fs::path& dir) {
  const fs::path file = dir / "planted.json";
  cudiff::write_file(file, "{\"construct.managed_memory\": 1, \"edge.share\": 0, \"probe.share\": 0}");
  return file;
}

std::vector<std::string> campaign_args(const fs::path& policy, const fs::path& db) {
  return {"fuzz", "--tests", "8",    "--batch",     "2",        "--seed",        "900",  "--jobs",
          "1",    "--gpus",  "none", "--no-reduce", "--policy", policy.string(), "--db", db.string()};
}

std::set<std::string> seeds_of(const fs::path& db) {
  const auto database = cudiff::triage::Database::open(db, {.create = false, .read_only = true});
  std::set<std::string> seeds;
  for (const auto& campaign : database.campaigns())
    for (const auto& seed : database.tested_seeds(campaign.id)) EXPECT_TRUE(seeds.insert(seed).second) << seed;
  return seeds;
}

std::map<std::string, std::int64_t> bucket_counts(const fs::path& db) {
  const auto database = cudiff::triage::Database::open(db, {.create = false, .read_only = true});
  std::map<std::string, std::int64_t> counts;
  for (const auto& bucket : database.buckets()) counts[bucket.key] = bucket.count;
  return counts;
}

} // namespace

TEST(ShardE2E, TwoShardsTestWhatOneCampaignTestsAndMergeIntoIt) {
  cudiff::TempDir dir("cudiff-shard-e2e");
  const fs::path policy = planted_policy(dir.path());
  std::vector<fs::path> shards;
  for (int index = 0; index < 2; ++index) {
    shards.push_back(dir.path() / ("shard-" + std::to_string(index) + ".db"));
    auto args = campaign_args(policy, shards.back());
    for (const char* extra : {"--campaign", "nightly", "--shard"}) args.push_back(extra);
    args.push_back(std::to_string(index) + "/2");
    const auto result = run_cudiff(args);
    ASSERT_EQ(result.exit_code, 0) << result.out.text << result.err.text;
  }
  const fs::path whole = dir.path() / "whole.db";
  const auto unsharded = run_cudiff(campaign_args(policy, whole));
  ASSERT_EQ(unsharded.exit_code, 0) << unsharded.out.text << unsharded.err.text;

  const fs::path merged = dir.path() / "merged.db";
  const auto merge = run_cudiff({"triage", "merge", merged.string(), shards[0].string(), shards[1].string()});
  ASSERT_EQ(merge.exit_code, 0) << merge.out.text << merge.err.text;
  EXPECT_TRUE(contains(merge.out.text, "4 tests")) << merge.out.text;  // 8 split in batches of 2
  EXPECT_TRUE(contains(merge.out.text, "1 joined")) << merge.out.text;
  EXPECT_FALSE(contains(merge.out.text, "were here already")) << merge.out.text;

  // Each shard tested 4 seeds, none of the other's; together the unsharded campaign's 8.
  const auto first = seeds_of(shards[0]), second = seeds_of(shards[1]);
  EXPECT_EQ(first.size(), 4u);
  EXPECT_EQ(second.size(), 4u);
  for (const auto& seed : first) EXPECT_FALSE(second.count(seed)) << "seed " << seed << " tested by both shards";
  EXPECT_EQ(seeds_of(merged), seeds_of(whole));
  EXPECT_EQ(seeds_of(whole).size(), 8u);

  // Both shards found something, and the merged buckets are the unsharded campaign's.
  EXPECT_FALSE(bucket_counts(shards[0]).empty());
  EXPECT_FALSE(bucket_counts(shards[1]).empty());
  EXPECT_EQ(bucket_counts(merged), bucket_counts(whole));

  const auto database = cudiff::triage::Database::open(merged, {.create = false, .read_only = true});
  const auto campaigns = database.campaigns();
  ASSERT_EQ(campaigns.size(), 1u);
  EXPECT_EQ(campaigns[0].tests, 8);
  EXPECT_GT(campaigns[0].ended, 0);
  EXPECT_EQ(campaigns[0].findings, database.totals().findings);
}

TEST(ShardE2E, ANamedCampaignRunAgainContinuesThenHasNothingToDo) {
  cudiff::TempDir dir("cudiff-shard-again");
  const fs::path policy = planted_policy(dir.path());
  const fs::path db = dir.path() / "shard.db";
  auto args = campaign_args(policy, db);
  for (const char* extra : {"--campaign", "again", "--shard", "0/2"}) args.push_back(extra);

  // Killed early (a cancelled or preempted Slurm task): the campaign exists, unfinished.
  std::vector<std::string> killed = {"timeout", "-s", "KILL", "2", cudiff::test::cudiff_binary().string()};
  killed.insert(killed.end(), args.begin(), args.end());
  cudiff::runners::Command command;
  command.argv = killed;
  command.limits.wall_seconds = 60;
  const auto first = cudiff::runners::run_subprocess(command);
  ASSERT_NE(first.exit_code, 0) << "the campaign finished within 2 s; this test needs it killed";

  const auto again = run_cudiff(args);
  ASSERT_EQ(again.exit_code, 0) << again.out.text << again.err.text;
  EXPECT_TRUE(contains(again.err.text, "resuming")) << again.err.text;
  EXPECT_TRUE(contains(again.err.text, "'again', shard 0/2")) << again.err.text;
  EXPECT_EQ(seeds_of(db).size(), 4u);

  const auto third = run_cudiff(args);
  ASSERT_EQ(third.exit_code, 0) << third.err.text;
  EXPECT_TRUE(contains(third.err.text, "has finished already")) << third.err.text;
  EXPECT_EQ(seeds_of(db).size(), 4u);

  // Another shard's command on this database is a mistake, said in one line.
  args.back() = "1/2";
  const auto wrong = run_cudiff(args);
  EXPECT_EQ(wrong.exit_code, 2);
  EXPECT_TRUE(contains(wrong.err.text, "holds shard 0/2 of campaign 'again', not shard 1/2")) << wrong.err.text;
}

TEST(ShardE2E, SlurmArrayVariablesMakeTheShard) {
  cudiff::TempDir dir("cudiff-shard-env");
  const fs::path db = dir.path() / "task.db";
  auto args = campaign_args(planted_policy(dir.path()), db);
  args.push_back("--json");
  const auto result = run_cudiff(args, 300,
                                 {{"SLURM_ARRAY_JOB_ID", "4242"},
                                  {"SLURM_ARRAY_TASK_ID", "1"},
                                  {"SLURM_ARRAY_TASK_COUNT", "2"},
                                  {"SLURM_ARRAY_TASK_MIN", "0"},
                                  {"SLURM_ARRAY_TASK_MAX", "1"},
                                  {"SLURM_CLUSTER_NAME", "lab"}});
  ASSERT_EQ(result.exit_code, 0) << result.out.text << result.err.text;
  const auto summary = boost::json::parse(result.out.text);
  EXPECT_EQ(summary.at("name").as_string(), "slurm-lab-4242");
  EXPECT_EQ(summary.at("shard").as_string(), "1/2");
  EXPECT_EQ(summary.at("tests").to_number<int>(), 4);
  // Batches 1 and 3 of the seeds from 900, in batches of 2.
  EXPECT_EQ(seeds_of(db), (std::set<std::string>{"902", "903", "906", "907"}));
}
