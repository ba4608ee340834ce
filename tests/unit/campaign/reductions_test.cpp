// campaign/reductions.h: which new buckets a campaign reduces and in what order, how it splits
// its cores, and how long its reductions may take (issue 39: `cudiff fuzz --tests 300` on two
// cores must end with its summary within 15 minutes).
#include "campaign/campaign.h"
#include "pipeline/limits.h"

#include <gtest/gtest.h>

namespace cudiff::campaign {
namespace {

triage::Bucket bucket(const std::string& key, const std::string& kind, triage::Status status = triage::Status::fresh,
                      std::int64_t size = 20000) {
  triage::Bucket b;
  b.key = key;
  b.kind = kind;
  b.status = status;
  b.best_size = size;
  return b;
}

TEST(Reductions, KnownReportedAndDialectBucketsAreNotReducedByDefault) {
  EXPECT_FALSE(reduction_rank(bucket("k", "false_rejection", triage::Status::known)));
  EXPECT_FALSE(reduction_rank(bucket("r", "missed_diagnostic", triage::Status::reported)));
  EXPECT_FALSE(reduction_rank(bucket("f", "crash", triage::Status::fixed)));
  EXPECT_FALSE(reduction_rank(bucket("i", "crash", triage::Status::invalid)));
  EXPECT_FALSE(reduction_rank(bucket("d", "dialect_difference")));
  EXPECT_TRUE(reduction_rank(bucket("n", "false_rejection")));
}

TEST(Reductions, WrongCodeAndCrashesFirstThenRejectsValidThenMissedDiagnostics) {
  EXPECT_EQ(reduction_rank(bucket("a", "wrong_code")), 0);
  EXPECT_EQ(reduction_rank(bucket("a", "run_mismatch")), 0);
  EXPECT_EQ(reduction_rank(bucket("a", "metamorphic")), 0);
  EXPECT_EQ(reduction_rank(bucket("a", "crash")), 1);
  EXPECT_EQ(reduction_rank(bucket("a", "hang")), 1);
  EXPECT_EQ(reduction_rank(bucket("a", "false_rejection")), 2);
  EXPECT_EQ(reduction_rank(bucket("a", "compile_status_mismatch")), 2);
  EXPECT_EQ(reduction_rank(bucket("a", "missed_diagnostic")), 3);
  EXPECT_EQ(reduction_rank(bucket("a", "late_rejection")), 3);
  EXPECT_EQ(reduction_rank(bucket("a", "layout_mismatch")), 4);
  EXPECT_EQ(reduction_rank(bucket("a", "a_kind_from_a_newer_cudiff")), 5);
}

TEST(Reductions, TheQueueIsByClassThenSmallestReproducerThenOrderFound) {
  const std::vector<triage::Bucket> found{
      bucket("missed", "missed_diagnostic", triage::Status::fresh, 8000),
      bucket("managed", "false_rejection", triage::Status::known, 5768),  // issue 39's first reduction
      bucket("dialect", "dialect_difference"),
      bucket("rejects", "false_rejection", triage::Status::fresh, 9000),
      bucket("crash-big", "crash", triage::Status::fresh, 25000),
      bucket("crash-small", "crash", triage::Status::fresh, 7000),
      bucket("wrong", "wrong_code", triage::Status::fresh, 20000),
      bucket("crash-small-2", "slow_compile", triage::Status::fresh, 7000),
  };
  std::vector<std::string> keys;
  for (const ReductionItem& item : reduction_order(found)) keys.push_back(item.key);
  EXPECT_EQ(keys,
            (std::vector<std::string>{"wrong", "crash-small", "crash-small-2", "crash-big", "rejects", "missed"}));
  EXPECT_EQ(reduction_order(found).front().what, "wrong code");
}

TEST(Reductions, AReproducerOfAFewLinesIsNotReduced) {
  // An edge program's violation alone (the campaigns of bench/RESULTS.md: 239 to 477 bytes,
  // each reduction 20 to 160 s on two cores, one of eight smaller).
  const triage::Bucket tiny = bucket("tiny", "missed_diagnostic", triage::Status::fresh, 239);
  EXPECT_TRUE(already_small(tiny));
  EXPECT_TRUE(reduction_rank(tiny));  // a bug, in its class's place
  EXPECT_FALSE(reduction_item(tiny));  // but not queued
  EXPECT_FALSE(already_small(bucket("late", "late_rejection", triage::Status::fresh, 17452)));
  EXPECT_TRUE(reduction_item(bucket("late", "late_rejection", triage::Status::fresh, 17452)));
  EXPECT_FALSE(already_small(bucket("edge", "missed_diagnostic", triage::Status::fresh, kSmallReproducerBytes)));
  EXPECT_TRUE(reduction_order({tiny}).empty());
}

TEST(Reductions, OnTwoCoresTheReductionsWaitForTheTests) {
  const CorePlan plan = plan_cores(2, 0, kDefaultReduceShare, true, false);
  EXPECT_EQ(plan.workers, 1u);
  EXPECT_EQ(plan.alongside_jobs, 0u);
  EXPECT_EQ(plan.after_jobs, 2u);
  // A 4-core machine too: its reductions' 2 cores would leave one worker.
  EXPECT_EQ(plan_cores(4, 0, kDefaultReduceShare, true, false).alongside_jobs, 0u);
  EXPECT_EQ(plan_cores(4, 0, kDefaultReduceShare, true, false).workers, 2u);
  // --reduce-in-parallel forces them alongside.
  EXPECT_EQ(plan_cores(2, 0, kDefaultReduceShare, true, true).alongside_jobs, 2u);
}

TEST(Reductions, WhereTheCoresAllowTheyRunAlongsideOnTheirShare) {
  // A 16-core GPU host: a quarter of the cores reduce, the rest fuzz.
  CorePlan plan = plan_cores(16, 0, 0.25, true, false);
  EXPECT_EQ(plan.alongside_jobs, 4u);
  EXPECT_EQ(plan.workers, 6u);
  EXPECT_EQ(plan.after_jobs, 16u);
  plan = plan_cores(6, 0, 0.25, true, false);  // the least that allows it
  EXPECT_EQ(plan.alongside_jobs, 2u);
  EXPECT_EQ(plan.workers, 2u);
  plan = plan_cores(128, 0, 0.25, true, false);
  EXPECT_EQ(plan.alongside_jobs, 32u);
  EXPECT_EQ(plan.workers, 48u);
  // --jobs given: the cores its workers leave, when at least 2.
  EXPECT_EQ(plan_cores(16, 4, 0.25, true, false).alongside_jobs, 8u);
  EXPECT_EQ(plan_cores(16, 4, 0.25, true, false).workers, 4u);
  EXPECT_EQ(plan_cores(16, 8, 0.25, true, false).alongside_jobs, 0u);
  // No reductions: every core fuzzes, as before.
  EXPECT_EQ(plan_cores(16, 0, 0.25, false, false).workers, 8u);
  EXPECT_EQ(plan_cores(16, 0, 0.25, false, false).alongside_jobs, 0u);
  EXPECT_EQ(plan_cores(16, 0, 0, true, false).workers, 8u);
}

TEST(Reductions, ATestsCampaignKeepsItsShareAfterItsTests) {
  // Issue 39: 7 min 16 s of tests on two cores; a quarter of the whole is a third of the tests.
  EXPECT_NEAR(reductions_window(0.25, 436), 436.0 / 3, 1e-9);
  EXPECT_LE(436 + reductions_window(kDefaultReduceShare, 436) + kReductionStopSeconds, 15 * 60);
  EXPECT_NEAR(reductions_window(0.5, 300), 300, 1e-9);
  // A short campaign still gets a minute; a share of 0 nothing.
  EXPECT_EQ(reductions_window(0.25, 10), kLeastReductionSeconds);
  EXPECT_EQ(reductions_window(0, 1000), 0);
}

TEST(Reductions, ATimeCampaignStopsItsTestsEarlyOnlyWhileBugsWait) {
  EXPECT_EQ(tests_time_limit(3600, 0, 0.25, false), 3600);
  EXPECT_EQ(tests_time_limit(3600, 0, 0.25, true), 2700);
  // Resumed with 600 s more after 3000 s: the share is of this start's time.
  EXPECT_EQ(tests_time_limit(3600, 3000, 0.25, true), 3450);
  EXPECT_EQ(tests_time_limit(3600, 0, 0, true), 3600);
}

TEST(Reductions, AReductionStopsBeforeItsWindowEndsToStoreWhatItHas) {
  EXPECT_EQ(reduction_time_limit(-1), pipeline::kBucketReductionSeconds);
  EXPECT_EQ(reduction_time_limit(100000), pipeline::kBucketReductionSeconds);
  EXPECT_EQ(reduction_time_limit(300), 300 - kReductionFinalCheckSeconds);
  EXPECT_EQ(reduction_time_limit(30), 20);  // a third of a short window for the final check
  EXPECT_GE(reduction_time_limit(0.5), 1);
}

TEST(Reductions, TheShareAndWhatIsLeftAreStoredForResume) {
  FuzzParams params;
  params.tests = 300;
  params.reduce_share = 0.4;
  params.pending_reductions = {"bbbb", "aaaa"};
  const FuzzParams back = fuzz_params_from_json(fuzz_params_json(params));
  EXPECT_EQ(back.reduce_share, 0.4);
  EXPECT_EQ(back.pending_reductions, (std::vector<std::string>{"bbbb", "aaaa"}));
  // A record from before: the default share, nothing pending.
  auto json = fuzz_params_json(FuzzParams{});
  EXPECT_FALSE(json.contains("pending_reductions"));
  json.erase("reduce_share");
  EXPECT_EQ(fuzz_params_from_json(json).reduce_share, kDefaultReduceShare);
  EXPECT_TRUE(fuzz_params_from_json(json).pending_reductions.empty());
  json["pending_reductions"] = 3;
  EXPECT_THROW(fuzz_params_from_json(json), Error);
}

TEST(Reductions, FurtherSightingsOfWrongCodeAndCrashesAreReducedForTheirCausesAfterTheFirst) {
  triage::CauseSampling sampling{"base", 1, {"f2", "f3", "f4"}};
  const auto item = cause_sample(bucket("base", "wrong_code"), sampling, {});
  ASSERT_TRUE(item);
  EXPECT_EQ(item->key, "base");
  EXPECT_EQ(item->finding, "f2");  // the smallest not yet reduced
  EXPECT_EQ(item->rank, kCauseSampleRank);
  // After every first reduction, whatever its class.
  EXPECT_TRUE(reduced_before(*reduction_item(bucket("m", "missed_diagnostic")), *item));
  // The next one not queued yet; none when each is queued.
  EXPECT_EQ(cause_sample(bucket("base", "crash"), sampling, {"f2"})->finding, "f3");
  EXPECT_EQ(cause_sample(bucket("base", "crash"), sampling, {"f2"})->rank, 1 + kCauseSampleRank);
  EXPECT_FALSE(cause_sample(bucket("base", "crash"), sampling, {"f2", "f3", "f4"}));
  // Not before the first reduction has given a cause, nor past kCauseSamples.
  EXPECT_FALSE(cause_sample(bucket("base", "wrong_code"), {"base", 0, {"f2"}}, {}));
  EXPECT_FALSE(cause_sample(bucket("base", "wrong_code"), {"base", kCauseSamples, {"f2"}}, {}));
  // Only new wrong-code and crash buckets: a rejection's sightings are one diagnostic.
  EXPECT_TRUE(samples_causes(bucket("base", "metamorphic")));
  EXPECT_TRUE(samples_causes(bucket("base", "hang")));
  EXPECT_FALSE(samples_causes(bucket("base", "false_rejection")));
  EXPECT_FALSE(samples_causes(bucket("base", "crash", triage::Status::reported)));
  EXPECT_FALSE(cause_sample(bucket("base", "false_rejection"), sampling, {}));
  EXPECT_FALSE(cause_sample(bucket("base", "missed_diagnostic"), sampling, {}));
  EXPECT_FALSE(cause_sample(bucket("base", "wrong_code", triage::Status::known), sampling, {}));
}

} // namespace
} // namespace cudiff::campaign
