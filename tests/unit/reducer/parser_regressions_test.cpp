// Regression tests for what the parser harnesses of tests/fuzz found in reducer/ (scripts/fuzz_parsers.sh):
// each feeds the input that crashed, overflowed the stack, hung or exhausted memory, and
// checks the parser's contract on it.
#include "reducer/reducer.h"
#include "reducer/text_units.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

namespace cudiff {
namespace {

using test::error_kind_of;
using test::kRegressionSecondsBound;
using test::repeated;
using test::seconds_of;

} // namespace

TEST(ParserFuzzRegressions, CountTokensOfManyHashesIsLinear) {
  const std::string hashes(100000, '#');
  std::size_t count = 0;
  EXPECT_LT(seconds_of([&] { count = reducer::count_tokens(hashes); }), kRegressionSecondsBound);
  EXPECT_EQ(count, hashes.size());
  EXPECT_EQ(reducer::count_tokens("# # // c\n#include <x>\n#define A \\\n  #x\n"), 2u + 5u + 5u);
}

TEST(ParserFuzzRegressions, BalancedPairsOfManyAnglesIsLinear) {
  for (std::size_t times : {32768, 131072}) {
    const std::string angles = repeated("a<", times);
    const std::vector<reducer::Token> tokens = reducer::tokenize(angles);
    std::vector<reducer::Pair> pairs;
    EXPECT_LT(seconds_of([&] { pairs = reducer::balanced_pairs(angles, tokens); }), kRegressionSecondsBound) << times;
    EXPECT_TRUE(pairs.empty());
  }
  const std::string templates = "f<int, g<T> >(x);";
  EXPECT_EQ(reducer::balanced_pairs(templates, reducer::tokenize(templates)).size(), 3u);
}

} // namespace cudiff
