// reducer: the schedule as data, and the driver's contract around it (phases, time limit,
// progress, improvements, formatting).
#include "reducer/reducer.h"

#include "common/common.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

using namespace cudiff::reducer;

namespace {

bool has(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

} // namespace

TEST(ReducerSchedule, TheDefaultRoundTripsThroughJson) {
  const Schedule schedule = default_schedule();
  EXPECT_FALSE(schedule.main.empty());
  EXPECT_EQ(parse_schedule(schedule_json(schedule), "dump"), schedule);
  // Every pass of the table is used somewhere in the default.
  for (const std::string& name : pass_names()) {
    const bool used = std::ranges::count(schedule.first, name) + std::ranges::count(schedule.main, name) +
                          std::ranges::count(schedule.last, name) >
                      0;
    EXPECT_TRUE(used) << name;
  }
}

TEST(ReducerSchedule, BadSchedulesAreRefusedWithOneLine) {
  EXPECT_EQ(
      cudiff::test::error_message_of([] { parse_schedule("{\"main\": [\"lines\", \"tokenz\"]}", "my.json"); }),
      "unknown reducer pass 'tokenz' (known: focus, comments, whitespace, includes, host, uses, hdd, unused, blocks, "
      "commas, arguments, simplify, asm, lines, tokens, constants, rename)");
  EXPECT_EQ(cudiff::test::error_message_of([] { parse_schedule("{\"middle\": []}", "my.json"); }),
            "my.json: unknown phase \"middle\" (first, main, last)");
  EXPECT_EQ(cudiff::test::error_message_of([] { parse_schedule("{\"main\": \"lines\"}", "my.json"); }),
            "my.json: \"main\" must be a list of pass names");
  EXPECT_TRUE(
      cudiff::test::error_message_of([] { parse_schedule("{main", "my.json"); }).starts_with("my.json is not JSON: "));
  EXPECT_TRUE(cudiff::test::error_message_of([] {
                parse_schedule("[]", "my.json");
              }).starts_with("my.json: a schedule is an object"));
}

TEST(ReducerSchedule, PhasesRunInOrderAndMainRepeatsUntilNothingChanges) {
  Options options;
  options.schedule = Schedule{{"comments"}, {"lines"}, {"rename"}};
  std::vector<std::string> passes_seen;
  options.on_progress = [&](const Progress& progress) {
    if (passes_seen.empty() || passes_seen.back() != progress.pass) passes_seen.push_back(progress.pass);
  };
  const Result result = reduce(
      "// c\nint value;\nint other;\n", [](const std::string& t) { return has(t, "int"); }, options);
  EXPECT_EQ(result.text, "int a;\n");
  EXPECT_EQ(passes_seen, (std::vector<std::string>{"comments", "lines", "rename"}));
  EXPECT_EQ(result.rounds, 2u);  // the second round of "lines" finds nothing more
  ASSERT_EQ(result.log.size(), 3u);
  EXPECT_EQ(result.log[0].pass, "comments");
  EXPECT_EQ(result.log[0].bytes_saved, 5u);
  EXPECT_EQ(result.log[1].pass, "lines");
  EXPECT_EQ(result.log[1].runs, 2u);
}

TEST(ReducerSchedule, ImprovementsAreReportedAsTheyHappen) {
  Options options;
  options.schedule = Schedule{{}, {"lines"}, {}};
  std::vector<std::string> improvements;
  options.on_improvement = [&](const std::string& text) { improvements.push_back(text); };
  const Result result = reduce("a\nb\nc\nd\n", [](const std::string& t) { return has(t, "c"); }, options);
  EXPECT_EQ(result.text, "c\n");
  ASSERT_FALSE(improvements.empty());
  EXPECT_EQ(improvements.back(), "c\n");
  EXPECT_EQ(improvements.size() + 1, result.accepted.size());
}

TEST(ReducerSchedule, TheTimeLimitStopsWithTheBestSoFar) {
  Options options;
  options.time_limit_seconds = 0.05;
  std::string input;
  for (int i = 0; i < 200; ++i) input += "int v" + std::to_string(i) + ";\n";
  const Result result = reduce(
      input,
      [](const std::string& t) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        return has(t, "int v7;");
      },
      options);
  EXPECT_TRUE(result.stopped_early);
  EXPECT_LT(result.seconds, 1.0);
}

TEST(ReducerSchedule, TheFormattedTextIsTakenOnlyWhenStillInteresting) {
  Options options;
  options.schedule = Schedule{};
  options.formatter = [](const std::string& text, std::string& note) -> std::optional<std::string> {
    note = "test formatter";
    return text + "// formatted\n";
  };
  Result kept = reduce("int a;\n", [](const std::string& t) { return has(t, "int a;"); }, options);
  EXPECT_EQ(kept.text, "int a;\n// formatted\n");
  EXPECT_EQ(kept.format_note, "formatted with test formatter");

  Result refused = reduce("int a;\n", [](const std::string& t) { return !has(t, "formatted"); }, options);
  EXPECT_EQ(refused.text, "int a;\n");
  EXPECT_EQ(refused.format_note, "the formatted text was not interesting: left unformatted");
}

TEST(ReducerSchedule, ClangFormatFormatsOrSaysWhyNot) {
  std::string note;
  const auto formatted = clang_format("int   main( ){return 0 ;}\n", note);
  if (!formatted) {
    EXPECT_TRUE(has(note, "clang-format")) << note;
    GTEST_SKIP() << note;
  }
  EXPECT_EQ(*formatted, "int main() { return 0; }\n");
}
