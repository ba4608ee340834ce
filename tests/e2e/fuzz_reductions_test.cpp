// `cudiff fuzz` and its reductions on the real compilers (label compilers), compile-only and
// without running a reduction (tests/e2e stays cheap; the main job's measurement in
// bench/RESULTS.md runs them): a bucket the project knows is not reduced; a new bug the share
// leaves is listed, stored with the campaign, and `--resume` takes the ended campaign up for it.
#include "campaign/campaign.h"
#include "support/test_support.h"
#include "triage/triage.h"

#include <gtest/gtest.h>

namespace {

using cudiff::test::contains;
using cudiff::test::run_cudiff;
namespace fs = std::filesystem;

/// Every program reads a __managed__ array in a kernel: clang-22 rejects it (a difference the
/// shipped knowledge marks known), nvcc accepts it. No edge programs, no probes.
fs::path planted_policy(const fs::path& dir) {
  const fs::path file = dir / "planted.json";
  cudiff::write_file(file, R"({"construct.managed_memory": 1.0, "edge.share": 0, "probe.share": 0})");
  return file;
}

/// The only campaign's stored parameters.
cudiff::campaign::FuzzParams stored(const fs::path& db) {
  auto database = cudiff::triage::Database::open(db, {.create = false, .read_only = true});
  const auto campaigns = database.campaigns();
  EXPECT_EQ(campaigns.size(), 1u);
  return cudiff::campaign::fuzz_params_from_json(boost::json::parse(*database.campaign_params(campaigns.at(0).id)));
}

std::vector<std::string> fuzz_args(const fs::path& dir, const fs::path& db) {
  return {"fuzz",
          "--tests",
          "4",
          "--batch",
          "4",
          "--jobs",
          "1",
          "--seed",
          "300",
          "--gpus",
          "none",
          "--policy",
          planted_policy(dir).string(),
          "--db",
          db.string()};
}

} // namespace

TEST(FuzzReductions, AKnownBucketIsNotReducedAndTheSummaryEndsTheCampaign) {
  cudiff::TempDir dir("cudiff-fuzz-reductions");
  const fs::path db = dir.path() / "known.db";
  auto result = run_cudiff(fuzz_args(dir.path(), db));
  ASSERT_EQ(result.exit_code, 0) << result.out.text << result.err.text;
  EXPECT_TRUE(contains(result.out.text, "1 new bucket is known, reported or dialect: not reduced")) << result.out.text;
  EXPECT_FALSE(contains(result.out.text, "reducing")) << result.out.text;
  EXPECT_FALSE(contains(result.out.text, "reduce 0")) << result.out.text;
  EXPECT_TRUE(contains(result.err.text, "after the tests for at most 25% of the time"))
      << result.err.text;  // the first line says how the campaign reduces
  EXPECT_TRUE(stored(db).pending_reductions.empty());
}

TEST(FuzzReductions, WhatTheShareLeavesIsListedAndResumeTakesItUp) {
  cudiff::TempDir dir("cudiff-fuzz-reductions");
  const fs::path db = dir.path() / "new.db";
  std::vector<std::string> args = fuzz_args(dir.path(), db);
  args.insert(args.end(), {"--no-known", "--reduce-share", "0"});
  auto result = run_cudiff(args);
  ASSERT_EQ(result.exit_code, 0) << result.out.text << result.err.text;
  EXPECT_TRUE(contains(result.out.text, "1 new bug to reduce (--reduce-share 0): cudiff fuzz --resume --db " +
                                            db.string() + " reduces them"))
      << result.out.text;
  // The summary comes first, and the report's line ends it: nothing ran after it.
  EXPECT_TRUE(contains(result.out.text, "1 new bug (1 rejects valid)")) << result.out.text;
  const auto pending = stored(db).pending_reductions;
  ASSERT_EQ(pending.size(), 1u);
  {
    auto database = cudiff::triage::Database::open(db, {.create = false, .read_only = true});
    EXPECT_EQ(database.bucket(pending[0]).kind, "false_rejection");
  }

  // The campaign has ended, but a bug is left: --resume takes it up (here without reducing).
  // Like every command, it applies the knowledge its own command line gives (without
  // --no-known the shipped entries would label this bucket known, and nothing would be left).
  auto resumed = run_cudiff({"fuzz", "--resume", "--no-reduce", "--no-known", "--db", db.string(), "--json"});
  ASSERT_EQ(resumed.exit_code, 0) << resumed.out.text << resumed.err.text;
  const auto summary = boost::json::parse(resumed.out.text);
  EXPECT_EQ(summary.at("tests").to_number<int>(), 4);
  ASSERT_EQ(summary.at("unreduced").as_array().size(), 1u) << resumed.out.text;
  EXPECT_EQ(summary.at("unreduced").as_array()[0].as_string(), pending[0]);
  EXPECT_TRUE(contains(resumed.err.text, "tests are done; 1 new bug left to reduce")) << resumed.err.text;
  EXPECT_EQ(stored(db).pending_reductions, pending);  // still there for the next --resume

  // A campaign without anything left is not resumed.
  auto again = run_cudiff({"fuzz", "--tests", "1", "--gpus", "none", "--seed", "9", "--no-reduce", "--db",
                           (dir.path() / "done.db").string()});
  ASSERT_EQ(again.exit_code, 0) << again.err.text;
  auto nothing = run_cudiff({"fuzz", "--resume", "--db", (dir.path() / "done.db").string()});
  EXPECT_EQ(nothing.exit_code, 2);
  EXPECT_TRUE(contains(nothing.err.text, "nor one with new bugs left to reduce")) << nothing.err.text;
}

// A bucket filed before this cudiff knew it (here: with --no-known) is labelled by the next
// campaign on its database: clang's miss of R-TMPL-UNNAMED-TYPE is a rules catalog verdict.
TEST(FuzzReductions, ACampaignLabelsTheBucketsAlreadyThereWithWhatItKnows) {
  cudiff::TempDir dir("cudiff-fuzz-relabel");
  const fs::path db = dir.path() / "old.db";
  const fs::path file = dir.path() / "unnamed.cu";
  cudiff::write_file(file, "template <typename T> __global__ void k(T v) { (void)v; }\n"
                           "enum { e0 = 1 };\n"
                           "void host() {\n"
                           "  k<<<1, 1>>>(e0); // expected-error: R-TMPL-UNNAMED-TYPE\n"
                           "}\n");
  const auto checked = run_cudiff({"check", file.string(), "--mode", "syntax", "--db", db.string(), "--no-known"});
  ASSERT_EQ(checked.exit_code, 1) << checked.out.text << checked.err.text;
  const auto status_of_missed = [&] {
    auto database = cudiff::triage::Database::open(db, {.create = false, .read_only = true});
    for (const auto& bucket : database.buckets({}))
      if (bucket.kind == "missed_diagnostic") return std::pair{bucket.status, bucket.known_reason};
    return std::pair{cudiff::triage::Status::fresh, std::string("no missed diagnostic")};
  };
  ASSERT_EQ(status_of_missed().first, cudiff::triage::Status::fresh);
  std::vector<std::string> args = fuzz_args(dir.path(), db);
  args.insert(args.end(), {"--reduce-share", "0"});
  args[2] = "1";  // --tests 1
  args[4] = "1";  // --batch 1
  const auto fuzzed = run_cudiff(args);
  ASSERT_EQ(fuzzed.exit_code, 0) << fuzzed.out.text << fuzzed.err.text;
  const auto [status, reason] = status_of_missed();
  EXPECT_EQ(status, cudiff::triage::Status::known) << reason;
  EXPECT_TRUE(reason.starts_with("rules catalog R-TMPL-UNNAMED-TYPE: ")) << reason;
}
