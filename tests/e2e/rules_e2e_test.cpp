// End-to-end: the rules catalog's violation templates against the real nvcc and clang-22, and
// `cudiff rules`.
#include "support/test_support.h"

#include "common/common.h"
#include "generator/generator.h"
#include "rules/rules.h"

#include <gtest/gtest.h>

#include <map>

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
  // The evidence (rules/README.md, "Evidence"): a column per compiler, per-compiler tallies, and
  // in --json every checkable E rule's evidence, whose whys add up to the tallies.
  EXPECT_NE(table.out.text.find("clang evidence"), std::string::npos) << table.out.text;
  EXPECT_NE(table.out.text.find("evidence for nvcc: "), std::string::npos) << table.out.text;
  auto all_rules = run_cudiff({"rules", "--json"});
  ASSERT_EQ(all_rules.exit_code, 0) << all_rules.err.text;
  const auto all_report = boost::json::parse(all_rules.out.text);
  std::map<std::string, std::map<std::string, std::int64_t>> whys;
  for (const auto& rule : all_report.at("rules").as_array()) {
    if (!rule.as_object().contains("evidence")) {
      EXPECT_FALSE(rule.at("kind").as_string() == "E" && rule.at("checkable").as_bool()) << rule;
      continue;
    }
    for (const char* compiler : {"nvcc", "clang"}) {
      const auto& evidence = rule.at("evidence").at(compiler).as_object();
      EXPECT_FALSE(evidence.at("O0").as_string().empty()) << rule;
      EXPECT_FALSE(evidence.at("O3").as_string().empty()) << rule;
      const std::string why(evidence.at("why").as_string());
      ++whys[compiler][evidence.at("diagnoses").as_bool() ? "diagnoses" : why];
      if (why == "dialect") EXPECT_EQ(rule.at("dialect").at("compiler").as_string(), compiler) << rule;
    }
  }
  for (const auto& [compiler, by_why] : whys)
    for (const auto& [why, count] : by_why)
      EXPECT_EQ(count, all_report.at("coverage").at("evidence").at(compiler).at(why).as_int64())
          << compiler << " " << why;
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
