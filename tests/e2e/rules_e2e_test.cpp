// End-to-end: the rules catalog's violation templates against the real nvcc and clang-22, and
// `cudiff rules`.
#include "support/test_support.h"

#include "common/common.h"
#include "generator/generator.h"

#include <gtest/gtest.h>

using cudiff::TempDir;
using cudiff::write_file;
using cudiff::test::run_cudiff;
namespace generator = cudiff::generator;

TEST(RulesE2E, EveryFixedFragmentPlantedIntoAGeneratedProgramIsAcceptedByBoth) {
  // The other half of a violation template's promise: the fragment breaks its rule and
  // nothing else, so without the violation it compiles (object mode: ptxas too) with both
  // compilers, inside a random valid program. All of them at once, in one translation unit.
  const generator::TestCase program = generator::generate_program(generator::Policy::defaults(), 7, generator::Size::small);
  std::string source = program.source;
  std::size_t planted = 0;
  for (const generator::Rule& rule : generator::rule_catalog())
    if (rule.violation && !rule.violation->fixed.empty()) {
      source += "\n// fixed form of " + rule.id + "\n" + rule.violation->fixed;
      ++planted;
    }
  ASSERT_GE(planted, 100u);
  TempDir dir("cudiff-rules-e2e");
  const auto file = dir.path() / "fixed_fragments.cu";
  write_file(file, source);
  auto result = run_cudiff({"check", file.string(), "--mode", "object", "--json"});
  ASSERT_EQ(result.exit_code, 0) << result.out.text << result.err.text;
  // Agreement alone would include both rejecting: each config must have accepted.
  const auto report = boost::json::parse(result.out.text);
  ASSERT_EQ(report.at("configs").as_array().size(), 2u);
  for (const auto& config : report.at("configs").as_array())
    EXPECT_EQ(config.at("observation").at("outcome").as_string(), "accepted") << config;
}

TEST(RulesE2E, RulesListsTheCatalogWithItsCoverage) {
  auto table = run_cudiff({"rules"});
  ASSERT_EQ(table.exit_code, 0) << table.err.text;
  EXPECT_NE(table.out.text.find("R-HOSTEXT-COMPLEX"), std::string::npos);
  EXPECT_NE(table.out.text.find("with a violation template:"), std::string::npos) << table.out.text;
  auto json = run_cudiff({"rules", "--kind", "V", "--json"});
  ASSERT_EQ(json.exit_code, 0) << json.err.text;
  const auto report = boost::json::parse(json.out.text);
  const auto& rules = report.at("rules").as_array();
  EXPECT_EQ(rules.size(), 159u);
  std::size_t generated = 0;
  for (const auto& rule : rules) generated += !rule.at("constructs").as_array().empty();
  EXPECT_EQ(static_cast<std::int64_t>(generated), report.at("coverage").at("v_generated").as_int64());
  auto bad = run_cudiff({"rules", "--kind", "Q"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.text.find("--kind must be E, V or U"), std::string::npos) << bad.err.text;
}
