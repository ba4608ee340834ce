// Regression tests for what the parser harnesses of tests/fuzz found in ubscan/ (scripts/fuzz_parsers.sh):
// each feeds the input that crashed, overflowed the stack, hung or exhausted memory, and
// checks the parser's contract on it.
#include "support/test_support.h"
#include "ubscan/ubscan.h"

#include <gtest/gtest.h>

namespace cudiff {
namespace {

using test::error_kind_of;
using test::kRegressionSecondsBound;
using test::repeated;
using test::seconds_of;

} // namespace

TEST(ParserFuzzRegressions, UndefinedScanOfManyAnglesIsLinear) {
  for (std::size_t times : {32768, 131072}) {
    const std::string angles = repeated("a<", times);
    std::vector<ubscan::UndefinedUse> uses;
    EXPECT_LT(seconds_of([&] { uses = ubscan::scan_undefined(angles, {}); }), kRegressionSecondsBound) << times;
    EXPECT_TRUE(uses.empty());
  }
}

} // namespace cudiff
