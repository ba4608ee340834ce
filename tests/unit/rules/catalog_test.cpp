// The rules catalog compiled into cudiff (rules/catalog.json): well formed, and consistent
// with the violation-template conventions.
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
  // rules/spec/rules.md: 339 items, E 142, V 159, U 38.
  EXPECT_EQ(rules.size(), 339u);
  EXPECT_EQ(kinds[static_cast<int>(RuleKind::must_reject)], 142u);
  EXPECT_EQ(kinds[static_cast<int>(RuleKind::valid)], 159u);
  EXPECT_EQ(kinds[static_cast<int>(RuleKind::undefined)], 38u);
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
