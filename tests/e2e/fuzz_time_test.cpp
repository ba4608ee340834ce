// `cudiff fuzz --time` on the real compilers (label compilers, compile-only): a campaign ends
// within a minute of its time even when a batch is still being built (the batch is dropped,
// not committed), its progress line comes at least every 10 s and says what is happening, and
// `--resume --time D` continues the same campaign with more time.
#include "support/test_support.h"

#include <boost/json.hpp>
#include <gtest/gtest.h>

namespace {

using cudiff::test::contains;
using cudiff::test::run_cudiff;

boost::json::object summary_of(const cudiff::runners::SubprocessResult& result) {
  const std::string& text = result.out.text;
  const auto start = text.find('{');
  if (start == std::string::npos) return {};
  return boost::json::parse(text.substr(start)).as_object();
}

std::vector<std::string> progress_lines(const std::string& err) {
  std::vector<std::string> lines;
  for (const std::string& line : cudiff::split(err, '\n'))
    if (line.starts_with("tests ")) lines.push_back(line);
  return lines;
}

TEST(FuzzTime, ACampaignEndsWithinAMinuteOfItsTimeAndResumeGivesItMore) {
  cudiff::TempDir dir("cudiff-fuzz-time");
  const std::string db = (dir.path() / "time.db").string();
  std::string campaign;
  // One batch of 64 programs takes both compilers far longer than 4 s + the 30 s drain here.
  const double seconds = cudiff::test::seconds_of([&] {
    const auto first = run_cudiff({"fuzz", "--time", "4s", "--batch", "64", "--jobs", "1", "--gpus", "none", "--seed",
                                   "700", "--no-reduce", "--db", db, "--json"});
    ASSERT_EQ(first.exit_code, 0) << first.err.text;
    const boost::json::object summary = summary_of(first);
    campaign = std::string(summary.at("campaign").as_string());
    EXPECT_EQ(summary.at("dropped_batches").as_int64(), 1) << first.out.text;
    EXPECT_EQ(summary.at("tests").as_int64(), 0);
    EXPECT_EQ(summary.at("findings").as_int64(), 0);  // nothing a stopped compile left is filed
    const auto lines = progress_lines(first.err.text);
    EXPECT_GE(lines.size(), 3u) << first.err.text;  // one every 10 s or less over ~34 s
    EXPECT_TRUE(std::any_of(lines.begin(), lines.end(), [](const std::string& line) {
      return contains(line, "now: time is up, finishing batches in flight");
    })) << first.err.text;
    EXPECT_TRUE(std::any_of(lines.begin(), lines.end(), [](const std::string& line) {
      return contains(line, "now: checking batch") || contains(line, "now: 1 checking") ||
             contains(line, "checking edge seed");
    })) << first.err.text;
  });
  EXPECT_LT(seconds, 4 + 60);

  const auto resumed = run_cudiff({"fuzz", "--resume", "--time", "3s", "--db", db, "--json"});
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err.text;
  EXPECT_TRUE(contains(resumed.err.text, "resuming ")) << resumed.err.text;
  const boost::json::object again = summary_of(resumed);
  EXPECT_EQ(std::string(again.at("campaign").as_string()), campaign);
  EXPECT_EQ(again.at("dropped_batches").as_int64(), 1);  // the same batch, first again
}

TEST(FuzzTime, ResumeWithTimeRefusesACampaignThatCountsTests) {
  cudiff::TempDir dir("cudiff-fuzz-time-tests");
  const std::string db = (dir.path() / "tests.db").string();
  const auto first = run_cudiff(
      {"fuzz", "--tests", "1", "--gpus", "none", "--seed", "5", "--no-reduce", "--quiet", "--db", db});
  ASSERT_EQ(first.exit_code, 0) << first.err.text;
  const auto resumed = run_cudiff({"fuzz", "--resume", "--time", "1m", "--db", db});
  EXPECT_EQ(resumed.exit_code, 2);
  EXPECT_TRUE(contains(resumed.err.text, "counts tests, not time")) << resumed.err.text;
}

TEST(FuzzTime, CompoundDurationsAreAcceptedAndNonsenseIsOneLine) {
  const auto bad = run_cudiff({"fuzz", "--time", "4m30", "--gpus", "none"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_TRUE(contains(bad.err.text, "--time needs a duration like 90s, 15m, 4m30s or 8h, got '4m30'")) << bad.err.text;
  EXPECT_EQ(cudiff::test::count_lines(bad.err.text), 1u) << bad.err.text;
}

} // namespace
