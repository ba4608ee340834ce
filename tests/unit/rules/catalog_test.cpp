// The rules catalog compiled into cudiff (rules/catalog.json): well formed, and consistent
// with the violation-template conventions.
#include "common/common.h"
#include "rules/rules.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

using namespace cudiff::rules;
using cudiff::test::contains;

TEST(RulesCatalog, ParsesWithUniqueIdsAndAllThreeKinds) {
  const std::vector<Rule> rules = rule_catalog();
  std::set<std::string> ids;
  std::size_t kinds[3] = {0, 0, 0};
  for (const Rule& rule : rules) {
    EXPECT_TRUE(ids.insert(rule.id).second) << "duplicate id " << rule.id;
    EXPECT_FALSE(rule.text.empty()) << rule.id;
    EXPECT_FALSE(rule.section.empty()) << rule.id;
    ++kinds[static_cast<int>(rule.kind)];
  }
  // rules/spec/rules.md: 339 items, E 141, V 159, U 39.
  EXPECT_EQ(rules.size(), 339u);
  EXPECT_EQ(kinds[static_cast<int>(RuleKind::must_reject)], 141u);
  EXPECT_EQ(kinds[static_cast<int>(RuleKind::valid)], 159u);
  EXPECT_EQ(kinds[static_cast<int>(RuleKind::undefined)], 39u);
}

TEST(RulesCatalog, ViolationTemplatesFollowTheirConventions) {
  std::size_t templates = 0;
  for (const Rule& rule : rule_catalog()) {
    if (!rule.violation) {
      EXPECT_FALSE(rule.kind == RuleKind::must_reject && rule.checkable)
          << rule.id << " is checkable but has no template";
      continue;
    }
    ++templates;
    const RuleViolation& v = *rule.violation;
    EXPECT_EQ(rule.kind, RuleKind::must_reject) << rule.id;
    EXPECT_TRUE(rule.checkable) << rule.id;
    // The offending line holds the marker and says which rule it breaks, as clang's
    // `// expected-error` tests do.
    bool marked = false;
    for (const std::string& line : cudiff::split_lines(v.fragment))
      marked = marked || (contains(line, v.marker) && contains(line, "// expected-error: " + rule.id));
    EXPECT_TRUE(marked) << rule.id << ": no line with the marker '" << v.marker << "' and its expected-error comment";
    EXPECT_TRUE(contains(v.fragment, "cudiff_edge_")) << rule.id;
    if (!v.fixed.empty()) EXPECT_FALSE(contains(v.fixed, "expected-error")) << rule.id;
  }
  EXPECT_GE(templates, 100u);
}

// ---- evidence (rules/README.md, "Evidence") ------------------------------------------------

TEST(RulesCatalog, EveryCheckableERuleIsSettledWithEvidence) {
  // What the build's check enforces, seen from the parsed values: each compiler measured at both
  // levels, and for each that lets the violation through at some level, a why with its proof.
  std::size_t settled = 0;
  for (const Rule& rule : rule_catalog()) {
    if (rule.kind != RuleKind::must_reject || !rule.checkable) continue;
    ASSERT_TRUE(rule.evidence.has_value()) << rule.id;
    ++settled;
    EXPECT_FALSE(rule.evidence->measured.empty()) << rule.id;
    for (const CompilerEvidence* evidence : {&rule.evidence->nvcc, &rule.evidence->clang}) {
      EXPECT_EQ(rule.evidence->of(evidence->compiler), evidence) << rule.id;
      if (evidence->diagnoses()) continue;
      EXPECT_FALSE(evidence->why.empty()) << rule.id << " " << evidence->compiler;
      EXPECT_FALSE(evidence->reason.empty()) << rule.id << " " << evidence->compiler;
      if (evidence->why == "dialect") {
        ASSERT_TRUE(rule.dialect.has_value()) << rule.id;
        EXPECT_EQ(rule.dialect->compiler, evidence->compiler) << rule.id;
      }
      if (evidence->why == "upstream") EXPECT_TRUE(evidence->url.starts_with("https://")) << rule.id;
      if (evidence->why == "bug") EXPECT_FALSE(evidence->searched.empty()) << rule.id;
      if (evidence->why == "warning") EXPECT_FALSE(evidence->warning.empty()) << rule.id;
    }
  }
  EXPECT_GE(settled, 100u);
  // The file in the tree is what was compiled in (the build reconfigures when it changes), and it
  // parses the same way when read as text: what the build's check (rules/check_catalog.cpp) runs.
  const std::vector<Rule> from_file = parse_rule_catalog(
      cudiff::read_file(cudiff::test::source_dir() / "rules" / "catalog.json"));
  const std::vector<Rule> compiled = rule_catalog();
  ASSERT_EQ(from_file.size(), compiled.size());
  for (std::size_t i = 0; i < from_file.size(); ++i)
    EXPECT_EQ(from_file[i].evidence.has_value(), compiled[i].evidence.has_value()) << from_file[i].id;
}

namespace {

// A one-rule catalog: a checkable E rule with `extra` spliced into its object.
std::string one_rule(const std::string& extra) {
  return R"([{"id": "R-TEST-ONE", "kind": "E", "section": "s", "text": "t", "checkable": true,
             "violation": {"fragment": "int cudiff_edge_x; // expected-error: R-TEST-ONE\n",
                           "marker": "cudiff_edge_x"})" +
         extra + "}]";
}

const std::string kBothReject =
    R"("nvcc": {"O0": "reject", "O3": "reject"}, "clang": {"O0": "reject_elsewhere", "O3": "reject"})";

// The message of the Error parsing `json` throws, or "" when it parses.
std::string parse_error(const std::string& json) {
  try {
    parse_rule_catalog(json);
  } catch (const cudiff::Error& error) {
    return error.what();
  }
  return {};
}

} // namespace

TEST(RulesCatalog, EvidenceIsParsedPerCompilerAndLevel) {
  const std::vector<Rule> rules = parse_rule_catalog(one_rule(
      R"(, "evidence": {"measured": "2026-11-27, nvcc 13.0.88, clang 22.1.8",
           "nvcc": {"O0": "reject", "O3": "reject_elsewhere"},
           "clang": {"O0": "accept", "O3": "accept_warns", "why": "upstream", "reason": "known",
                     "url": "https://github.com/llvm/llvm-project/issues/1"}})"));
  ASSERT_EQ(rules.size(), 1u);
  ASSERT_TRUE(rules[0].evidence.has_value());
  const RuleEvidence& evidence = *rules[0].evidence;
  EXPECT_EQ(evidence.measured, "2026-11-27, nvcc 13.0.88, clang 22.1.8");
  EXPECT_TRUE(evidence.nvcc.diagnoses());
  EXPECT_EQ(evidence.nvcc.at_o3, "reject_elsewhere");
  EXPECT_FALSE(evidence.clang.diagnoses());
  EXPECT_EQ(evidence.clang.at_o0, "accept");
  EXPECT_EQ(evidence.clang.why, "upstream");
  EXPECT_EQ(evidence.clang.url, "https://github.com/llvm/llvm-project/issues/1");
  EXPECT_EQ(evidence.of("clang"), &evidence.clang);
  EXPECT_EQ(evidence.of("gcc"), nullptr);
}

TEST(RulesCatalog, ACheckableRuleWithoutEvidenceFailsNamingIt) {
  EXPECT_TRUE(contains(parse_error(one_rule("")), "R-TEST-ONE is a checkable E rule without evidence"))
      << parse_error(one_rule(""));
  EXPECT_EQ(parse_error(one_rule(R"(, "evidence": {"measured": "m", )" + kBothReject + "}")), "");
  // A rule that is not checkable needs none.
  EXPECT_EQ(parse_error(R"([{"id": "R-TEST-TWO", "kind": "E", "section": "s", "text": "t", "checkable": false,
                            "why_not": "several TUs"}])"),
            "");
}

TEST(RulesCatalog, EvidenceThatDoesNotSettleTheRuleFailsNamingIt) {
  auto with_clang = [](const std::string& clang) {
    return one_rule(R"(, "evidence": {"measured": "m", "nvcc": {"O0": "reject", "O3": "reject"}, "clang": )" + clang +
                    "}");
  };
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"O0": "accept", "O3": "accept"})", "no \"why\""},
      {R"({"O0": "accept", "O3": "reject"})", "no \"why\""},  // one level is enough to need a why
      {R"({"O0": "rejected", "O3": "reject"})", "O0 and O3 must each be"},
      {R"({"O0": "accept", "O3": "accept", "why": "guess", "reason": "r"})", "why 'guess'"},
      {R"({"O0": "accept", "O3": "accept", "why": "bug"})", "without a reason"},
      {R"({"O0": "accept", "O3": "accept", "why": "bug", "reason": "r"})", "without what was searched"},
      {R"({"O0": "accept", "O3": "accept", "why": "upstream", "reason": "r"})", "without the issue's url"},
      {R"({"O0": "accept", "O3": "accept", "why": "dialect", "reason": "r"})", "no dialect entry for clang"},
      {R"({"O0": "accept", "O3": "accept", "why": "warning", "reason": "r", "warning": "w"})",
       "a warning on the marker's line"},
  };
  for (const auto& [clang, expected] : cases) {
    const std::string message = parse_error(with_clang(clang));
    EXPECT_TRUE(contains(message, "R-TEST-ONE")) << clang << ": " << message;
    EXPECT_TRUE(contains(message, expected)) << clang << ": " << message;
  }
  EXPECT_TRUE(
      contains(parse_error(one_rule(R"(, "evidence": {"measured": "m", "nvcc": {"O0": "reject", "O3": "reject"}})")),
               "evidence of R-TEST-ONE lacks \"clang\""));
  EXPECT_TRUE(contains(parse_error(one_rule(R"(, "evidence": {)" + kBothReject + "}")),
                       "evidence of R-TEST-ONE does not say when it was measured"));
  EXPECT_EQ(parse_error(with_clang(R"({"O0": "accept_warns", "O3": "accept_warns", "why": "warning",
                                      "reason": "r", "warning": "attribute ignored"})")),
            "");
}

TEST(RulesCatalog, ADialectWithoutItsCitationFailsNamingTheRule) {
  const std::string evidence = R"(, "evidence": {"measured": "m", "nvcc": {"O0": "reject", "O3": "reject"},
      "clang": {"O0": "accept", "O3": "accept", "why": "dialect", "reason": "r"}})";
  const std::string cited = R"(, "dialect": {"compiler": "clang", "basis": "documented", "reason": "r",
      "documentation": {"title": "t", "url": "https://clang.llvm.org/docs/x.html", "quote": "the words"}})";
  EXPECT_EQ(parse_error(one_rule(cited + evidence)), "");
  const std::string no_quote = R"(, "dialect": {"compiler": "clang", "basis": "documented", "reason": "r",
      "documentation": {"title": "t", "url": "https://clang.llvm.org/docs/x.html"}})";
  const std::string no_url = R"(, "dialect": {"compiler": "clang", "basis": "documented", "reason": "r",
      "documentation": {"title": "t", "quote": "the words"}})";
  for (const std::string& dialect : {no_quote, no_url}) {
    const std::string message = parse_error(one_rule(dialect + evidence));
    EXPECT_TRUE(contains(message, "dialect of R-TEST-ONE needs")) << message;
  }
}
