// The invalid-tests list (schema 4): a schema-3 database upgraded in place gains it and keeps
// its rows; rows are stored with their report and program, counted by cause, idempotent by id,
// and merged from shards like findings.
#include "triage/triage.h"

#include <gtest/gtest.h>

namespace cudiff {
namespace {

triage::InvalidTest invalid(const std::string& name, const std::string& cause, double time) {
  triage::InvalidTest t;
  t.id = triage::content_key("campaign/" + name);
  t.campaign_id = "campaign";
  t.test_id = triage::content_key("test/" + name);
  t.time = time;
  t.name = name;
  t.seed = "42";
  t.finding_kind = "run_mismatch";
  t.finding_summary = "run mismatch: exit status";
  t.configs = {"nvcc-O0", "clang-O0"};
  t.erring_configs = {"clang-O0"};
  t.tool = "memcheck";
  t.cause = cause;
  t.first_error = cause == "stack overflow" ? "Stack overflow" : "Invalid __global__ read of size 4 bytes";
  t.command = "compute-sanitizer --tool memcheck ./a.out";
  t.report = "========= " + t.first_error + "\n========= ERROR SUMMARY: 1 error\n";
  t.source_name = name + ".cu";
  t.source = "__global__ void k() {}\n// " + name + "\n";
  return t;
}

TEST(InvalidTests, SchemaThreeDatabaseIsUpgradedKeepingItsRows) {
  TempDir dir;
  const auto path = dir.path() / "v3.db";
  {
    auto old = triage::Database::open(path, triage::OpenOptions{.upgrade_to = 3});
    ASSERT_EQ(old.version(), 3);
    triage::Campaign campaign;
    campaign.id = "c3";
    campaign.kind = "fuzz";
    campaign.started = 100;
    old.put_campaign(campaign);
    old.put_campaign_params("c3", "{}");
  }
  auto db = triage::Database::open(path);
  EXPECT_EQ(db.version(), triage::schema_version);
  ASSERT_EQ(db.campaigns().size(), 1u);
  EXPECT_EQ(db.campaign_params("c3"), std::optional<std::string>("{}"));
  EXPECT_EQ(db.invalid_test_count(), 0);
  EXPECT_TRUE(db.add_invalid_test(invalid("cudiff_1", "stack overflow", 10)));
  EXPECT_EQ(db.invalid_test_count(), 1);
  EXPECT_EQ(db.integrity_check(), "ok");
}

TEST(InvalidTests, StoredWithReportAndProgramCountedByCause) {
  TempDir dir;
  auto db = triage::Database::open(dir.path() / "t.db");
  EXPECT_TRUE(db.add_invalid_test(invalid("a", "stack overflow", 1)));
  EXPECT_TRUE(db.add_invalid_test(invalid("b", "out-of-bounds", 2)));
  EXPECT_TRUE(db.add_invalid_test(invalid("c", "stack overflow", 3)));
  EXPECT_FALSE(db.add_invalid_test(invalid("c", "stack overflow", 3))) << "the same id twice is one row";
  EXPECT_EQ(db.invalid_test_count(), 3);
  const auto causes = db.invalid_test_causes();
  ASSERT_EQ(causes.size(), 2u);
  EXPECT_EQ(causes[0], (std::pair<std::string, std::int64_t>{"stack overflow", 2}));
  EXPECT_EQ(causes[1], (std::pair<std::string, std::int64_t>{"out-of-bounds", 1}));
  const auto tests = db.invalid_tests();
  ASSERT_EQ(tests.size(), 3u);
  EXPECT_EQ(tests.front().name, "c") << "newest first";
  EXPECT_EQ(tests.front().source, invalid("c", "stack overflow", 3).source);
  EXPECT_EQ(tests.front().report, invalid("c", "stack overflow", 3).report);
  EXPECT_EQ(tests.front().erring_configs, (std::vector<std::string>{"clang-O0"}));
  EXPECT_EQ(db.invalid_tests(1).size(), 1u);
  const auto json = triage::to_json(tests.front(), false);
  EXPECT_EQ(json.at("cause").as_string(), "stack overflow");
  EXPECT_FALSE(json.contains("report"));
  EXPECT_TRUE(triage::to_json(tests.front(), true).contains("report"));
  EXPECT_NE(triage::render_html_report(db, 10).find("invalid tests (sanitizer gate)"), std::string::npos);
}

TEST(InvalidTests, MergedFromShardsOnce) {
  TempDir dir;
  const auto shard_path = dir.path() / "shard.db";
  {
    auto shard = triage::Database::open(shard_path);
    shard.add_invalid_test(invalid("a", "race", 1));
  }
  auto db = triage::Database::open(dir.path() / "main.db");
  EXPECT_EQ(db.merge_from(shard_path).invalid_tests_added, 1);
  EXPECT_EQ(db.merge_from(shard_path).invalid_tests_added, 0);
  ASSERT_EQ(db.invalid_tests().size(), 1u);
  EXPECT_EQ(db.invalid_tests().front().report, invalid("a", "race", 1).report);
}

} // namespace
} // namespace cudiff
