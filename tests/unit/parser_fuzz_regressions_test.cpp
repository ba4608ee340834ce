// Regression tests for what the parser harnesses of tests/fuzz found (scripts/fuzz_parsers.sh):
// each feeds the input that crashed, overflowed the stack, hung or exhausted memory, and
// checks the parser's contract on it.
#include "campaign/campaign.h"
#include "generator/generator.h"
#include "oracle/oracle.h"
#include "reducer/reducer.h"
#include "reducer/text_units.h"
#include "ubscan/ubscan.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cudiff {
namespace {

/// Each input below took far longer than this (or all memory) before its fix and takes well
/// under a second after: a bound between both catches the regression without being flaky.
constexpr double kSecondsBound = 10;

double seconds_of(const std::function<void()>& body) {
  const auto start = std::chrono::steady_clock::now();
  body();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// The kind of the cudiff::Error `body` throws; anything else escaping fails the test.
std::optional<ErrorKind> error_kind_of(const std::function<void()>& body) {
  try {
    body();
  } catch (const Error& error) {
    return error.kind();
  }
  return std::nullopt;
}

std::string repeated(std::string_view part, std::size_t times) {
  std::string out;
  out.reserve(part.size() * times);
  for (std::size_t i = 0; i < times; ++i) out += part;
  return out;
}

} // namespace

// json_readers_fuzz: a stored campaign whose "size" is not a size made parse_size's
// Error(usage) escape, and fields of the wrong type std::invalid_argument or
// boost::system::system_error; the contract is Error(environment) for a damaged record.
TEST(ParserFuzzRegressions, DamagedFuzzParamsAreEnvironmentErrors) {
  const std::string crash =
      R"json({"first_seed":1000,"batch":8,"time_budgetirst_seed":1000,"batch":8,"time_budget":3.6E3,"size":"small","policy":"{\n  \"const.small\": 5En-}n1\\","configs":["nvcc-O3","clang-O3"],"reduce":true,"reduce_in_parallel":false,"elapsed":0.25E2,"tests":500,"m":3.6E3,"size":"s*all","policy":"{\n  \"const.small\": 5En-}n1\\","configs":["nvcc-O3","clang-O3"],"reduce":true,"reduce_in_parallel":false,"elapsed":0.25E2,"tests":500,"mode":"binary"})json"
      "\n";
  const boost::json::value json = boost::json::parse(crash);
  EXPECT_EQ(error_kind_of([&] { campaign::fuzz_params_from_json(json); }), ErrorKind::environment);

  const std::string good =
      R"({"first_seed":1,"batch":8,"time_budget":0,"size":"small","policy":"{}","configs":["nvcc-O3"],"reduce":true,"elapsed":0})";
  EXPECT_NO_THROW(campaign::fuzz_params_from_json(boost::json::parse(good)));
  const std::vector<std::pair<std::string, boost::json::value>> wrong_types = {
      {"size", 5}, {"first_seed", -1}, {"batch", "8"}, {"time_budget", "soon"},
      {"configs", "nvcc-O3"}, {"reduce", 1}, {"tests", 1.5}, {"mode", nullptr},
      {"mode", "warp-speed"}};  // an unknown mode is damage, not "run with a GPU"
  for (const auto& [key, value] : wrong_types) {
    boost::json::value damaged = boost::json::parse(good);
    damaged.as_object()[key] = value;
    EXPECT_EQ(error_kind_of([&] { campaign::fuzz_params_from_json(damaged); }), ErrorKind::environment) << key;
  }
}

// json_readers_fuzz: expectation_from_source matched its marker with std::regex, which recurses
// once per character matched: a long id or a long run of blanks after `//` overflowed the stack.
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

// reducer_lexer_fuzz: count_tokens counted a directive's line by calling itself, where a leading
// '#' was a directive again: 100000 '#' recursed 100000 deep, copying the line each time (GBs).
TEST(ParserFuzzRegressions, CountTokensOfManyHashesIsLinear) {
  const std::string hashes(100000, '#');
  std::size_t count = 0;
  EXPECT_LT(seconds_of([&] { count = reducer::count_tokens(hashes); }), kSecondsBound);
  EXPECT_EQ(count, hashes.size());
  EXPECT_EQ(reducer::count_tokens("# # // c\n#include <x>\n#define A \\\n  #x\n"), 2u + 5u + 5u);
}

// ptx_layout_fuzz: declared sizes are zero-filled, so 1 MiB of PTX declaring 23301 arrays of
// 2^20 .b64 elements asked for 195 GB; the values read are now bounded (2^20 in all).
TEST(ParserFuzzRegressions, PtxWithManyLargeLayoutArraysIsBoundedInMemory) {
  std::string ptx;
  for (std::size_t i = 0; i < (std::size_t{1} << 20) / 45; ++i)
    ptx += ".global .b64 cudiff_layout_a" + std::to_string(i) + "[1048576];\n";
  std::map<std::string, std::vector<std::uint64_t>> arrays;
  EXPECT_LT(seconds_of([&] { arrays = oracle::read_ptx_layout(ptx); }), kSecondsBound);
  std::size_t values = 0;
  for (const auto& [name, read] : arrays) values += read.size();
  EXPECT_LE(values, std::size_t{1} << 20);
  ASSERT_EQ(arrays.count("cudiff_layout_a0"), 1u);
  EXPECT_EQ(arrays.at("cudiff_layout_a0"), std::vector<std::uint64_t>(std::size_t{1} << 20, 0));
}

// ptx_layout_fuzz: each cudiff_layout_ name searched back to its line start and on to the next
// ';', so 65536 names on one line (1 MiB) took over a minute under the sanitizers, 24 s without.
TEST(ParserFuzzRegressions, PtxWithManyLayoutNamesInOneStatementIsLinear) {
  for (const std::string& ptx : {repeated("cudiff_layout_x ", 65536) + ";",
                                 ".global .b8 cudiff_layout_x[8] = {" + repeated("cudiff_layout_x ", 65536) + "};",
                                 repeated("cudiff_layout_x;", 65536)}) {
    std::map<std::string, std::vector<std::uint64_t>> arrays;
    EXPECT_LT(seconds_of([&] { arrays = oracle::read_ptx_layout(ptx); }), kSecondsBound);
    EXPECT_TRUE(arrays.empty());
  }
  // Declarations that follow a ';' on the same line are read.
  const auto arrays = oracle::read_ptx_layout("ret; .global .b8 cudiff_layout_A[8] = {1, 2};\n");
  ASSERT_EQ(arrays.count("cudiff_layout_A"), 1u);
  EXPECT_EQ(arrays.at("cudiff_layout_A"), std::vector<std::uint64_t>{0x201});
}

// ubscan_fuzz (then undefined_scan_fuzz): each '<' of a declarator looked for its '>' up to the
// end of the text and the search was retried one token on, so "a<a<a<..." (64 KiB) made the
// harness time out (30 s) under the sanitizers. Without them it took 3 s, and 12 s for twice as much: the time
// bound is checked on four times as much (256 KiB).
TEST(ParserFuzzRegressions, UndefinedScanOfManyAnglesIsLinear) {
  for (std::size_t times : {32768, 131072}) {
    const std::string angles = repeated("a<", times);
    std::vector<ubscan::UndefinedUse> uses;
    EXPECT_LT(seconds_of([&] { uses = ubscan::scan_undefined(angles, {}); }), kSecondsBound) << times;
    EXPECT_TRUE(uses.empty());
  }
}

// reducer_lexer_fuzz: balanced_pairs looked for the '>' of every '<' up to the end of the text,
// so "a<a<a<..." (64 KiB) made the harness time out (30 s) under the sanitizers. Without them
// it took 2.5 s, and 10 s for twice as much: the time bound is checked on four times as much.
TEST(ParserFuzzRegressions, BalancedPairsOfManyAnglesIsLinear) {
  for (std::size_t times : {32768, 131072}) {
    const std::string angles = repeated("a<", times);
    const std::vector<reducer::Token> tokens = reducer::tokenize(angles);
    std::vector<reducer::Pair> pairs;
    EXPECT_LT(seconds_of([&] { pairs = reducer::balanced_pairs(angles, tokens); }), kSecondsBound) << times;
    EXPECT_TRUE(pairs.empty());
  }
  const std::string templates = "f<int, g<T> >(x);";
  EXPECT_EQ(reducer::balanced_pairs(templates, reducer::tokenize(templates)).size(), 3u);
}

} // namespace cudiff
