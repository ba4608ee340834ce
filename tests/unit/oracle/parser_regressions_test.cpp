// Regression tests for what the parser harnesses of tests/fuzz found in oracle/ (scripts/fuzz_parsers.sh):
// each feeds the input that crashed, overflowed the stack, hung or exhausted memory, and
// checks the parser's contract on it.
#include "oracle/oracle.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

namespace cudiff {
namespace {

using test::error_kind_of;
using test::kRegressionSecondsBound;
using test::repeated;
using test::seconds_of;

} // namespace

TEST(ParserFuzzRegressions, ExpectedErrorMarkerOnALongLineDoesNotOverflowTheStack) {
  const std::string long_id = "// expected-error: A" + std::string(200000, 'b');
  const auto marked = oracle::expectation_from_source(long_id);
  ASSERT_TRUE(marked);
  EXPECT_EQ(*marked, (oracle::Expectation{true, "A" + std::string(200000, 'b'), 1}));
  EXPECT_FALSE(oracle::expectation_from_source("//" + std::string(200000, ' ') + "x"));

  // What the regex accepted, it still does: blanks around the marker, the first marker that
  // has an id, ids of letters, digits, '_' and '-' starting with a letter.
  EXPECT_EQ(oracle::expectation_from_source("x;\n///\t expected-error:\tR-A_b-1 rest"),
            (oracle::Expectation{true, "R-A_b-1", 2}));
  EXPECT_EQ(oracle::expectation_from_source("// expected-error: 9x // expected-error: OK"),
            (oracle::Expectation{true, "OK", 1}));
  EXPECT_FALSE(oracle::expectation_from_source("/ / expected-error: X\n// expected-error:\n// expected-error X"));
}

TEST(ParserFuzzRegressions, PtxWithManyLargeLayoutArraysIsBoundedInMemory) {
  std::string ptx;
  for (std::size_t i = 0; i < (std::size_t{1} << 20) / 45; ++i)
    ptx += ".global .b64 cudiff_layout_a" + std::to_string(i) + "[1048576];\n";
  std::map<std::string, std::vector<std::uint64_t>> arrays;
  EXPECT_LT(seconds_of([&] { arrays = oracle::read_ptx_layout(ptx); }), kRegressionSecondsBound);
  std::size_t values = 0;
  for (const auto& [name, read] : arrays) values += read.size();
  EXPECT_LE(values, std::size_t{1} << 20);
  ASSERT_EQ(arrays.count("cudiff_layout_a0"), 1u);
  EXPECT_EQ(arrays.at("cudiff_layout_a0"), std::vector<std::uint64_t>(std::size_t{1} << 20, 0));
}

TEST(ParserFuzzRegressions, PtxWithManyLayoutNamesInOneStatementIsLinear) {
  for (const std::string& ptx : {repeated("cudiff_layout_x ", 65536) + ";",
                                 ".global .b8 cudiff_layout_x[8] = {" + repeated("cudiff_layout_x ", 65536) + "};",
                                 repeated("cudiff_layout_x;", 65536)}) {
    std::map<std::string, std::vector<std::uint64_t>> arrays;
    EXPECT_LT(seconds_of([&] { arrays = oracle::read_ptx_layout(ptx); }), kRegressionSecondsBound);
    EXPECT_TRUE(arrays.empty());
  }
  // Declarations that follow a ';' on the same line are read.
  const auto arrays = oracle::read_ptx_layout("ret; .global .b8 cudiff_layout_A[8] = {1, 2};\n");
  ASSERT_EQ(arrays.count("cudiff_layout_A"), 1u);
  EXPECT_EQ(arrays.at("cudiff_layout_A"), std::vector<std::uint64_t>{0x201});
}

} // namespace cudiff
