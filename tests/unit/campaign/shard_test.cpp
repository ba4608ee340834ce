// Campaign shards: --shard parsing, what a Slurm array task's environment means, how the
// seeds are split, the stored parameters, and options after "--".
#include "cli/commands.h"
#include "common/common.h"
#include "runners/runners.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

namespace cudiff::cli {
namespace {

using namespace cudiff::campaign;

Environment environment(std::map<std::string, std::string> values) {
  return [values = std::move(values)](const std::string& name) -> std::optional<std::string> {
    const auto found = values.find(name);
    if (found == values.end()) return std::nullopt;
    return found->second;
  };
}

void expect_usage_error(const std::function<void()>& body, const std::string& part) {
  try {
    body();
    ADD_FAILURE() << "no error; expected one saying '" << part << "'";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::usage);
    EXPECT_NE(std::string(error.what()).find(part), std::string::npos) << error.what();
  }
}

TEST(Shard, ParsesIndexAndCount) {
  EXPECT_EQ(parse_shard("0/1"), (Shard{0, 1}));
  EXPECT_EQ(parse_shard("3/4"), (Shard{3, 4}));
  EXPECT_EQ(parse_shard("3/4").text(), "3/4");
  for (const char* bad : {"", "1", "/2", "1/", "a/2", "1/b", "-1/2", "1/0", "1 /2", "1/2/3", "99999999999999999999/2"})
    expect_usage_error([&] { parse_shard(bad); }, "--shard needs I/N");
  expect_usage_error([&] { parse_shard("2/2"); }, "from 0 to 1");
}

TEST(Shard, SlurmArrayTaskGivesShardAndASharedName) {
  EXPECT_FALSE(slurm_array_task(environment({})));
  EXPECT_FALSE(slurm_array_task(environment({{"SLURM_JOB_ID", "17"}})));  // a job, not an array
  const std::map<std::string, std::string> base{{"SLURM_ARRAY_JOB_ID", "1200"},  {"SLURM_ARRAY_TASK_ID", "2"},
                                                {"SLURM_ARRAY_TASK_COUNT", "4"}, {"SLURM_ARRAY_TASK_MIN", "0"},
                                                {"SLURM_ARRAY_TASK_MAX", "3"},   {"SLURM_CLUSTER_NAME", "gpu"}};
  const auto task = slurm_array_task(environment(base));
  ASSERT_TRUE(task);
  EXPECT_EQ(task->shard, (Shard{2, 4}));
  EXPECT_EQ(task->campaign_name, "slurm-gpu-1200");

  // --array=1-7:2 is tasks 1, 3, 5, 7: task 5 is the third shard.
  auto stepped = base;
  stepped["SLURM_ARRAY_TASK_ID"] = "5";
  stepped["SLURM_ARRAY_TASK_MIN"] = "1";
  stepped["SLURM_ARRAY_TASK_MAX"] = "7";
  stepped["SLURM_ARRAY_TASK_STEP"] = "2";
  stepped.erase("SLURM_CLUSTER_NAME");
  const auto third = slurm_array_task(environment(stepped));
  ASSERT_TRUE(third);
  EXPECT_EQ(third->shard, (Shard{2, 4}));
  EXPECT_EQ(third->campaign_name, "slurm-1200");

  // --array=1,4,9: three tasks whose ids no step fits; their order is not in the environment.
  auto list = base;
  list["SLURM_ARRAY_TASK_ID"] = "4";
  list["SLURM_ARRAY_TASK_COUNT"] = "3";
  list["SLURM_ARRAY_TASK_MIN"] = "1";
  list["SLURM_ARRAY_TASK_MAX"] = "9";
  expect_usage_error([&] { slurm_array_task(environment(list)); }, "a range with one step");
  auto missing = base;
  missing.erase("SLURM_ARRAY_TASK_COUNT");
  expect_usage_error([&] { slurm_array_task(environment(missing)); }, "SLURM_ARRAY_TASK_COUNT");
  auto garbage = base;
  garbage["SLURM_ARRAY_TASK_ID"] = "2x";
  expect_usage_error([&] { slurm_array_task(environment(garbage)); }, "not a number");
}

/// Every seed the shard's batches hold, as the campaign's BatchSource hands them out.
std::vector<std::uint64_t> shard_seeds(FuzzParams params) {
  std::vector<std::uint64_t> seeds;
  const std::uint64_t end = params.first_seed + *params.tests;
  for (std::uint64_t k = 0;; ++k) {
    const std::uint64_t start = shard_batch_start(params, k);
    if (start >= end) break;
    for (std::uint64_t seed = start; seed < std::min(start + params.batch, end); ++seed) seeds.push_back(seed);
  }
  return seeds;
}

TEST(Shard, ShardsSplitTheCampaignsSeedsWithoutOverlap) {
  for (std::uint64_t tests : {1u, 7u, 8u, 100u, 203u})
    for (std::uint64_t batch : {1u, 8u, 16u})
      for (std::uint64_t count : {1u, 2u, 3u, 5u}) {
        std::set<std::uint64_t> all;
        std::size_t total = 0;
        for (std::uint64_t index = 0; index < count; ++index) {
          FuzzParams params;
          params.first_seed = 1000;
          params.tests = tests;
          params.batch = batch;
          params.shard = Shard{index, count};
          const auto seeds = shard_seeds(params);
          EXPECT_EQ(seeds.size(), shard_test_count(params).value())
              << tests << " " << batch << " " << index << "/" << count;
          total += seeds.size();
          all.insert(seeds.begin(), seeds.end());
        }
        EXPECT_EQ(total, tests) << "a seed tested twice or not at all: " << tests << " " << batch << " " << count;
        ASSERT_EQ(all.size(), tests);
        EXPECT_EQ(*all.begin(), 1000u);
        EXPECT_EQ(*all.rbegin(), 1000u + tests - 1);
      }
}

TEST(Shard, BatchesInterleaveSoThatATimeBudgetKeepsEveryShardBusy) {
  FuzzParams params;
  params.first_seed = 50;
  params.batch = 8;
  params.shard = Shard{1, 3};
  EXPECT_EQ(shard_batch_start(params, 0), 58u);
  EXPECT_EQ(shard_batch_start(params, 1), 82u);
  EXPECT_FALSE(shard_test_count(params));  // a --time campaign has no count
}

// That two processes agree is what tests/e2e/shard_e2e_test.cpp shows (two shards, one campaign).
TEST(Shard, NamedCampaignsHaveTheirOwnIdAndSeed) {
  EXPECT_NE(named_campaign_id("nightly"), named_campaign_id("nightly2"));
  EXPECT_EQ(named_campaign_id("nightly").size(), 32u);
  EXPECT_NE(named_campaign_seed("nightly"), named_campaign_seed("nightly2"));
  EXPECT_LT(named_campaign_seed("nightly"), 1ull << 40);
}

TEST(Shard, StoredParametersKeepNameAndShard) {
  FuzzParams params;
  params.tests = 40;
  params.configs = {"nvcc-O3"};
  params.name = "slurm-9";
  params.shard = Shard{1, 2};
  const FuzzParams back = fuzz_params_from_json(fuzz_params_json(params));
  EXPECT_EQ(back.name, "slurm-9");
  EXPECT_EQ(back.shard, (Shard{1, 2}));
  // A record from before shards is the whole of an unnamed campaign.
  auto json = fuzz_params_json(FuzzParams{});
  EXPECT_FALSE(json.contains("shard"));
  EXPECT_EQ(fuzz_params_from_json(json).shard, (Shard{0, 1}));
  json["shard"] = "3/2";
  try {
    fuzz_params_from_json(json);
    ADD_FAILURE() << "a damaged shard was accepted";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::environment) << error.what();
  }
}

TEST(Options, WhatFollowsADoubleDashIsPassedOnUntouched) {
  const CommandSpec takes{"slurm", "", "", {{"--shards", "N", ""}}, true};
  const ParsedArgs parsed = parse_args(takes, {"submit", "--shards", "2", "--", "--tests", "8", "--help", "x"});
  EXPECT_EQ(parsed.value("--shards"), "2");
  EXPECT_FALSE(parsed.has("--help"));
  EXPECT_EQ(parsed.rest, (std::vector<std::string>{"--tests", "8", "--help", "x"}));
  EXPECT_EQ(split_flags("  -max_len=8192   -seed=3 "), (std::vector<std::string>{"-max_len=8192", "-seed=3"}));
  EXPECT_TRUE(split_flags("   ").empty());
  const CommandSpec refuses{"check", "", "", {}};
  expect_usage_error([&] { parse_args(refuses, {"--", "a"}); }, "takes nothing after '--'");
}

TEST(Gpus, AChildSeesTheGpuThroughTheParentsOwnDeviceList) {
  EXPECT_EQ(runners::visible_device(std::nullopt, 3), "3");
  // Slurm gave this job physical GPUs 2 and 5: driver ordinal 1 is GPU 5.
  EXPECT_EQ(runners::visible_device(std::string("2,5"), 0), "2");
  EXPECT_EQ(runners::visible_device(std::string("2,5"), 1), "5");
  EXPECT_EQ(runners::visible_device(std::string("GPU-8f1e, GPU-77aa"), 1), "GPU-77aa");
  runners::GpuInfo gpu;
  gpu.index = 0;
  gpu.visible_device = "3";
  gpu.name = "NVIDIA H200";
  gpu.cc_major = 9;
  EXPECT_EQ(gpu.describe(), "0: NVIDIA H200 (sm_90), CUDA_VISIBLE_DEVICES=3");
  gpu.visible_device = "0";
  EXPECT_EQ(gpu.describe(), "0: NVIDIA H200 (sm_90)");
}

} // namespace
} // namespace cudiff::cli
