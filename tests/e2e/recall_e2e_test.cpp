// The CI recall check (label compilers): every case of the known-bug suite that needs no GPU is
// checked by `cudiff recall` with the real nvcc and clang-22 under the default configs, and each
// must be found in its bucket. A case that stops showing (a fixed compiler, a changed oracle or
// key) fails here by name.
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <iostream>

using cudiff::test::contains;
using cudiff::test::run_cudiff;
using cudiff::test::source_dir;

namespace {

std::string suite() { return (source_dir() / "corpus" / "known-bugs").string(); }

} // namespace

TEST(RecallE2E, EveryCompileSideKnownBugIsFoundInItsBucket) {
  auto result = run_cudiff({"recall", suite(), "--only", "compile", "--json"}, 600);
  ASSERT_EQ(result.exit_code, 0) << result.out.text << result.err.text;
  const boost::json::value json = boost::json::parse(result.out.text);
  const auto& sets = json.at("sets").as_array();
  ASSERT_EQ(sets.size(), 1u);
  const auto& set = sets[0].as_object();
  EXPECT_EQ(set.at("set").as_string(), "nvcc-O3,clang-O3");
  const auto& cases = set.at("cases").as_array();
  ASSERT_GE(cases.size(), 8u);
  for (const auto& value : cases) {
    const auto& outcome = value.as_object();
    SCOPED_TRACE(std::string(outcome.at("name").as_string()));
    EXPECT_EQ(outcome.at("status").as_string(), "found") << outcome.at("note").as_string();
    EXPECT_TRUE(outcome.at("right_bucket").as_bool()) << outcome.at("found_title").as_string();
    // Stage attribution may not have reached every finding: "no stage" is not a failure, a
    // wrong stage is.
    EXPECT_FALSE(std::string(outcome.at("stage").as_string()).starts_with("wrong")) << outcome.at("stage").as_string();
    EXPECT_GT(outcome.at("compile_seconds").as_double(), 0.0);
  }
  EXPECT_EQ(set.at("recall").as_double(), 1.0);
  EXPECT_EQ(set.at("skipped").as_int64(), 0);
  std::cout << "recall " << set.at("found").as_int64() << "/" << set.at("checked").as_int64() << ", "
            << set.at("seconds_per_case").as_double() << " s of compiles per case\n";
}

// Presets of a newer cudiff named in a set are reported and left out, never an error; a set
// with no known preset checks nothing and says why.
TEST(RecallE2E, UnknownPresetsAreReportedAndLeftOut) {
  auto result = run_cudiff({"recall", suite(), "--only", "compile", "--config", "nvcc-O3-no-such-preset"});
  ASSERT_EQ(result.exit_code, 0) << result.out.text << result.err.text;
  EXPECT_TRUE(contains(result.out.text, "unknown here, left out: nvcc-O3-no-such-preset")) << result.out.text;
  EXPECT_TRUE(contains(result.out.text, "no known config")) << result.out.text;
  EXPECT_FALSE(contains(result.out.text, " found ")) << result.out.text;
}

TEST(RecallE2E, BadRequestsAreOneLineAndExitTwo) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"recall", suite(), "--only", "sometimes"},
        std::vector<std::string>{"recall", suite(), "--case", "no-such-case"},
        std::vector<std::string>{"recall", suite(), "--config", "nvcc-O3", "--compare", "nvcc-O3;clang-O3"},
        std::vector<std::string>{"recall", (source_dir() / "examples").string()}}) {
    auto result = run_cudiff(args);
    EXPECT_EQ(result.exit_code, 2) << args.back() << ": " << result.err.text;
    EXPECT_EQ(cudiff::test::count_lines(result.err.text), 1u) << result.err.text;
  }
}
