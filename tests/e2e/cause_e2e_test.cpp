// End-to-end: cause keys with the real compilers (docs/triage.md, "Cause keys"). The known-bug
// suite's stored cause keys are what cudiff computes from the cases now; a bucket whose reduced
// reproducer has a known bug's cause is labelled known with that case.
#include "support/test_support.h"
#include "triage/triage.h"

#include <gtest/gtest.h>

using cudiff::read_file;
using cudiff::TempDir;
using cudiff::write_file;
using cudiff::test::contains;
using cudiff::test::run_cudiff;
using cudiff::test::source_dir;

namespace {

std::filesystem::path known_bug(const std::string& name) { return source_dir() / "corpus/known-bugs" / name; }

/// The cause key scripts/known_bug_causes.sh stored in a case's case.json.
std::string stored_cause(const std::string& name) {
  const auto json = boost::json::parse(read_file(known_bug(name) / "case.json"));
  return std::string(json.at("cause").at("key").as_string());
}

std::string computed_cause(const std::vector<std::string>& args) {
  const auto result = run_cudiff(args);
  EXPECT_EQ(result.exit_code, 0) << result.out.text << result.err.text;
  if (result.exit_code != 0) return {};
  return std::string(boost::json::parse(result.out.text).at("causes").at(0).at("key").as_string());
}

TEST(CauseE2E, TheKnownBugsStoredCauseKeysAreWhatCudiffComputesNow) {
  // The ptxas bug (a run-side case): nvcc-O3's PTX of its reproducer, no GPU needed. It is the
  // kernel of tests/golden/causes/vadd2.cu, whose captured PTX gives the same key.
  const auto vadd2 = known_bug("ptxas-vadd2-short-reduced") / "repro.cu";
  const std::string ptx = computed_cause({"triage", "cause", vadd2.string(), "--guilty", "nvcc-O3", "--json"});
  EXPECT_EQ(ptx, stored_cause("ptxas-vadd2-short-reduced"));
  EXPECT_EQ(ptx, cudiff::triage::make_cause("ptx", cudiff::triage::normalize_ptx(
                                                       read_file(cudiff::test::data("golden/causes/vadd2.nvcc.ptx"))))
                     .key);
  // A crash of clang's code generator: its frames, from a check as the case says.
  const auto crash = known_bug("clang-thread-local-device-crash") / "repro.cu";
  EXPECT_EQ(computed_cause(
                {"triage", "cause", crash.string(), "--config", "nvcc-O3,clang-O3", "--mode", "ptx", "--json"}),
            stored_cause("clang-thread-local-device-crash"));
}

TEST(CauseE2E, AReducedReproducerWithAKnownBugsCauseLabelsItsBucketKnown) {
  TempDir dir("cudiff-cause-e2e");
  const auto file = dir.path() / "tls.cu";
  write_file(file, read_file(known_bug("clang-thread-local-device-crash") / "repro.cu"));
  const std::string db = (dir.path() / "t.db").string();
  // --no-known: the check files it as new (the case's title would label it known at once).
  const auto check = run_cudiff({"check", file.string(), "--mode", "ptx", "--db", db, "--no-known"});
  ASSERT_EQ(check.exit_code, 1) << check.out.text << check.err.text;
  const auto schedule = dir.path() / "quick.json";
  write_file(schedule, R"({"first": ["comments"], "main": ["hdd"]})");  // coarse: the cause is what is tested
  const auto reduce = run_cudiff({"triage", "reduce", "1", "--db", db, "--jobs", "2", "--schedule", schedule.string()});
  ASSERT_EQ(reduce.exit_code, 0) << reduce.out.text << reduce.err.text;
  EXPECT_TRUE(
      contains(reduce.out.text, "cause " + stored_cause("clang-thread-local-device-crash").substr(0, 12) + " (crash)"))
      << reduce.out.text;
  EXPECT_TRUE(contains(reduce.out.text, "known: known bug, corpus/known-bugs/clang-thread-local-device-crash"))
      << reduce.out.text;

  const auto show = run_cudiff({"triage", "show", "1", "--db", db, "--json"});
  ASSERT_EQ(show.exit_code, 0) << show.err.text;
  const auto bucket = boost::json::parse(show.out.text);
  EXPECT_EQ(bucket.at("status").as_string(), "known");
  EXPECT_TRUE(contains(std::string(bucket.at("known_reason").as_string()), "clang-thread-local-device-crash"));
  const auto& causes = bucket.at("causes").as_array();
  ASSERT_EQ(causes.size(), 1u);
  EXPECT_EQ(causes[0].at("key").as_string(), stored_cause("clang-thread-local-device-crash"));
  EXPECT_EQ(causes[0].at("findings").as_int64(), 2);  // the reduction and the finding it came from
  const auto list = run_cudiff({"triage", "list", "--db", db});
  EXPECT_TRUE(contains(list.out.text, stored_cause("clang-thread-local-device-crash").substr(0, 8) + " crash"))
      << list.out.text;
}

} // namespace
