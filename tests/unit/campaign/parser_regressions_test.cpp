// Regression tests for what the parser harnesses of tests/fuzz found in campaign/ (scripts/fuzz_parsers.sh):
// each feeds the input that crashed, overflowed the stack, hung or exhausted memory, and
// checks the parser's contract on it.
#include "campaign/campaign.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

namespace cudiff {
namespace {

using test::error_kind_of;
using test::kRegressionSecondsBound;
using test::repeated;
using test::seconds_of;

} // namespace

TEST(ParserFuzzRegressions, DamagedFuzzParamsAreEnvironmentErrors) {
  const std::string crash =
      R"json({"first_seed":1000,"batch":8,"time_budgetirst_seed":1000,"batch":8,"time_budget":3.6E3,"size":"small","policy":"{\n  \"const.small\": 5En-}n1\\","configs":["nvcc-O3","clang-O3"],"reduce":true,"reduce_in_parallel":false,"elapsed":0.25E2,"tests":500,"m":3.6E3,"size":"s*all","policy":"{\n  \"const.small\": 5En-}n1\\","configs":["nvcc-O3","clang-O3"],"reduce":true,"reduce_in_parallel":false,"elapsed":0.25E2,"tests":500,"mode":"binary"})json"
      "\n";
  const boost::json::value json = boost::json::parse(crash);
  EXPECT_EQ(error_kind_of([&] { campaign::fuzz_params_from_json(json); }), ErrorKind::environment);

  const std::string good =
      R"({"first_seed":1,"batch":8,"time_budget":0,"size":"small","policy":"{}","configs":["nvcc-O3"],"reduce":true,"elapsed":0})";
  EXPECT_NO_THROW(campaign::fuzz_params_from_json(boost::json::parse(good)));
  const std::vector<std::pair<std::string, boost::json::value>>
      wrong_types = {{"size", 5},
                     {"first_seed", -1},
                     {"batch", "8"},
                     {"time_budget", "soon"},
                     {"configs", "nvcc-O3"},
                     {"reduce", 1},
                     {"tests", 1.5},
                     {"mode", nullptr},
                     {"mode", "warp-speed"}};  // an unknown mode is damage, not "run with a GPU"
  for (const auto& [key, value] : wrong_types) {
    boost::json::value damaged = boost::json::parse(good);
    damaged.as_object()[key] = value;
    EXPECT_EQ(error_kind_of([&] { campaign::fuzz_params_from_json(damaged); }), ErrorKind::environment) << key;
  }
}

} // namespace cudiff
