// End-to-end: the rules catalog's violation templates against the real nvcc and clang-22, and
// `cudiff rules`.
#include "support/test_support.h"

#include "common/common.h"
#include "generator/generator.h"
#include "rules/rules.h"

#include <gtest/gtest.h>

using cudiff::TempDir;
using cudiff::write_file;
using cudiff::test::run_cudiff;
namespace generator = cudiff::generator;

TEST(RulesE2E, EveryFixedFragmentPlantedIntoAGeneratedProgramIsAcceptedByBoth) {
  // The other half of a violation template's promise: the fragment breaks its rule and
  // nothing else, so without the violation it compiles (object mode: ptxas too) with both
  // compilers, inside a random valid program. All of them at once, in one translation unit.
  const generator::TestCase program = generator::generate_program(generator::Policy::defaults(), 7,
                                                                  generator::Size::small);
  std::string source = program.source;
  std::size_t planted = 0;
  for (const cudiff::rules::Rule& rule : cudiff::rules::rule_catalog())
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
  for (const auto& rule : rules)
    generated += !rule.at("constructs").as_array().empty() || rule.as_object().contains("probe");
  EXPECT_EQ(static_cast<std::int64_t>(generated), report.at("coverage").at("v_generated").as_int64());
  EXPECT_GE(generated * 10, rules.size() * 9) << "the target: 90% of V rules produced";
  auto bad = run_cudiff({"rules", "--kind", "Q"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.text.find("--kind must be E, V or U"), std::string::npos) << bad.err.text;
}

TEST(RulesE2E, MeasureRecordsWhatEachCompilerDidAndRulesShowsIt) {
  // One rule whose violation nvcc rejects and clang accepts (a known difference: clang ignores
  // __managed__), and one probe: the measurement file, then the columns in `cudiff rules`.
  TempDir dir("cudiff-rules-measure");
  const auto results = dir.path() / "conformance.json";
  const std::string known = (cudiff::test::source_dir() / "triage" / "known_differences.json").string();
  auto measured = run_cudiff({"rules", "--measure", "--rule", "R-MANAGED-DECLTYPE", "--results", results.string(),
                              "--known", known, "--json"});
  ASSERT_EQ(measured.exit_code, 0) << measured.err.text;
  const auto json = boost::json::parse(measured.out.text);
  const auto& items = json.at("items").as_array();
  ASSERT_EQ(items.size(), 2u) << "the violation and its fixed form";
  const auto& violation = items[0].as_object();
  EXPECT_EQ(violation.at("program").as_string(), "violation");
  EXPECT_EQ(violation.at("finding_kind").as_string(), "dialect_difference")
      << "clang documents __managed__ as HIP's: the rules catalog cites it";
  EXPECT_NE(violation.at("known").as_string(), "") << "dialect differences are known by default";
  for (const auto& compile : violation.at("compiles").as_array()) {
    const bool nvcc = compile.at("config").as_string().starts_with("nvcc");
    EXPECT_EQ(compile.at("outcome").as_string(), nvcc ? "rejected" : "accepted") << compile;
    if (nvcc) EXPECT_TRUE(compile.at("at_planted_line").as_bool()) << compile;
  }
  EXPECT_EQ(items[1].at("finding").as_string(), "") << "the fixed form is accepted by both";

  auto table = run_cudiff({"rules", "--kind", "E", "--results", results.string()});
  ASSERT_EQ(table.exit_code, 0) << table.err.text;
  bool row = false;
  for (const std::string& line : cudiff::split_lines(table.out.text))
    if (line.starts_with("R-MANAGED-DECLTYPE "))
      row = line.find("reject") != std::string::npos && line.find("accept") != std::string::npos &&
            line.find("dialect_difference (known)") != std::string::npos;
  EXPECT_TRUE(row) << table.out.text;
  auto missing = run_cudiff({"rules", "--results", (dir.path() / "nope.json").string()});
  EXPECT_EQ(missing.exit_code, 2);
  auto unknown = run_cudiff({"rules", "--measure", "--rule", "V-NOT-A-RULE", "--results", results.string()});
  EXPECT_EQ(unknown.exit_code, 2) << unknown.err.text;
}
