// End-to-end: `cudiff triage reduce ID` reduces a bucket's best reproducer with the real
// compilers and stores the result as the bucket's best reproducer.
#include "support/test_support.h"

#include "common/common.h"

#include <gtest/gtest.h>

using cudiff::read_file;
using cudiff::TempDir;
using cudiff::write_file;
using cudiff::test::contains;
using cudiff::test::run_cudiff;
using cudiff::test::source_dir;

TEST(ReduceTriageE2E, ABucketsReproducerIsReducedAndStoredAsItsBest) {
  TempDir dir("cudiff-reduce-triage");
  const auto file = dir.path() / "managed_counter.cu";
  write_file(file, read_file(source_dir() / "examples" / "managed_counter.cu"));
  const std::string db = (dir.path() / "t.db").string();
  auto check = run_cudiff({"check", file.string(), "--mode", "syntax", "--db", db});
  ASSERT_EQ(check.exit_code, 1) << check.out.text << check.err.text;

  const auto schedule = dir.path() / "quick.json";
  write_file(schedule, R"({"first": ["comments"], "main": ["hdd"]})");  // coarse: this test is about storing
  auto reduce = run_cudiff({"triage", "reduce", "1", "--db", db, "--jobs", "2", "--schedule", schedule.string()});
  ASSERT_EQ(reduce.exit_code, 0) << reduce.out.text << reduce.err.text;
  EXPECT_TRUE(contains(reduce.out.text, "now the best reproducer")) << reduce.out.text;

  auto show = run_cudiff({"triage", "show", "1", "--db", db, "--json"});
  ASSERT_EQ(show.exit_code, 0) << show.err.text;
  const auto bucket = boost::json::parse(show.out.text);
  EXPECT_EQ(bucket.at("count").as_int64(), 1);  // a reduction is not another sighting
  EXPECT_LT(bucket.at("best_size").as_int64(), static_cast<std::int64_t>(read_file(file).size()) / 2);
  EXPECT_EQ(bucket.at("smallest_findings").as_array().size(), 2u);

  // The report a person files now shows the small reproducer.
  auto exported = run_cudiff({"triage", "export", "1", (dir.path() / "report").string(), "--db", db});
  ASSERT_EQ(exported.exit_code, 0) << exported.err.text;
  const std::string report = read_file(dir.path() / "report" / "report.md");
  EXPECT_TRUE(contains(report, "__global__")) << report;
  EXPECT_FALSE(contains(report, "printf")) << report;

  // Reducing again finds nothing smaller and stores nothing.
  auto again = run_cudiff({"triage", "reduce", "1", "--db", db, "--jobs", "2", "--schedule", schedule.string()});
  ASSERT_EQ(again.exit_code, 0) << again.out.text << again.err.text;
  EXPECT_TRUE(contains(again.out.text, "nothing stored")) << again.out.text;
}

TEST(ReduceTriageE2E, AMissingBucketIsRefusedWithOneLine) {
  TempDir dir("cudiff-reduce-triage");
  const std::string db = (dir.path() / "t.db").string();
  ASSERT_EQ(run_cudiff({"triage", "synthetic", "1", "--db", db}).exit_code, 0);
  auto result = run_cudiff({"triage", "reduce", "999", "--db", db});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(std::count(result.err.text.begin(), result.err.text.end(), '\n'), 1) << result.err.text;
  EXPECT_TRUE(contains(result.err.text, "no bucket '999'")) << result.err.text;
}
