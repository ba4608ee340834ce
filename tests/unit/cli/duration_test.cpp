// Durations (`--time`, `--timeout`, `--run-timeout`, `--time-limit`, `--baseline-time`): plain
// and compound ("4m30s", "1h30m"), and a clear refusal of anything else.
#include "cli/commands.h"
#include "cli/options.h"

#include <gtest/gtest.h>

namespace cudiff::cli {
namespace {

TEST(Duration, PlainValuesWithAndWithoutUnit) {
  EXPECT_DOUBLE_EQ(parse_duration("90", "--time"), 90);
  EXPECT_DOUBLE_EQ(parse_duration("90s", "--time"), 90);
  EXPECT_DOUBLE_EQ(parse_duration("15m", "--time"), 900);
  EXPECT_DOUBLE_EQ(parse_duration("8h", "--time"), 8 * 3600);
  EXPECT_DOUBLE_EQ(parse_duration("1.5h", "--time"), 5400);
}

TEST(Duration, CompoundValuesAddUp) {
  EXPECT_DOUBLE_EQ(parse_duration("4m30s", "--time"), 270);
  EXPECT_DOUBLE_EQ(parse_duration("1h30m", "--time"), 5400);
  EXPECT_DOUBLE_EQ(parse_duration("2h5m10s", "--time"), 7510);
  EXPECT_DOUBLE_EQ(parse_duration("1h0m", "--time"), 3600);
}

TEST(Duration, RefusesWhatItCannotReadWithTheOptionNamed) {
  for (const char* bad :
       {"", "s", "m5", "4m30", "30s4m", "5m5m", "1h30x", "-5m", "0", "0s", "1e3", "0x10", "4 m", "4m 30s", "abc"}) {
    try {
      parse_duration(bad, "--time");
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const Error& error) {
      EXPECT_NE(std::string(error.what()).find("--time needs a duration like 90s, 15m, 4m30s or 8h"), std::string::npos)
          << error.what();
    }
  }
}

} // namespace
} // namespace cudiff::cli

namespace cudiff::cli {
namespace {

// Every option that takes a duration reads it the same way: --timeout, --run-timeout and
// reduce's --time-limit as much as --time (plain seconds still work).
TEST(Duration, EveryDurationOptionTakesCompoundValues) {
  const ParsedArgs args = parse_args(fuzz_subcommand().spec, {"--time", "1h30m"});
  EXPECT_DOUBLE_EQ(*args.duration("--time"), 5400);
  EXPECT_FALSE(args.duration("--tests").has_value());
  ParsedArgs limits;
  limits.set("--timeout", "2m");
  limits.set("--run-timeout", "90");
  EXPECT_DOUBLE_EQ(read_compile_limits(limits, Defaults{}).wall_seconds, 120);
  EXPECT_DOUBLE_EQ(read_run_limits(limits, Defaults{}).wall_seconds, 90);
  limits.set("--run-timeout", "later");
  EXPECT_THROW(read_run_limits(limits, Defaults{}), Error);
}

} // namespace
} // namespace cudiff::cli
