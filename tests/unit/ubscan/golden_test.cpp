// ubscan golden files (tests/golden/ubscan): each case is a snippet whose first line says which
// U rules the scan finds in it, and each violation is found on the line its snippet marks.
//
// A case is `<RULE>.violation-<n>.cu` (breaks the rule; its offending line ends in `// <-`) or
// `<RULE>.near-miss-<n>.cu` (valid code close to a violation). The first line is
// `// expect: ID...` (the rule ids the scan reports, in any order) or `// expect: none`; a
// sidecar `<case>.json` next to it, when there is one, is passed to the scan.
#include "rules/rules.h"
#include "support/test_support.h"
#include "ubscan/ubscan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace {

using namespace cudiff::ubscan;
namespace fs = std::filesystem;

struct Case {
  std::string name;  ///< the file name without ".cu"
  std::string source;
  boost::json::object sidecar;
  std::optional<std::set<std::string>> expected;  ///< none: the file has no expect line
  std::set<int> marked_lines;                     ///< lines holding `// <-`
};

std::optional<std::set<std::string>> expect_line(const std::string& source) {
  const std::string first = source.substr(0, source.find('\n'));
  constexpr std::string_view prefix = "// expect:";
  if (!first.starts_with(prefix)) return std::nullopt;
  const std::vector<std::string> words = cudiff::split(cudiff::trim(std::string_view(first).substr(prefix.size())),
                                                       ' ');
  std::set<std::string> ids;
  for (const std::string& word : words)
    if (!word.empty()) ids.insert(word);
  if (ids == std::set<std::string>{"none"}) return std::set<std::string>{};
  if (ids.empty() || ids.contains("none")) return std::nullopt;
  return ids;
}

std::vector<Case> golden_cases() {
  std::vector<Case> cases;
  const fs::path folder = cudiff::test::data("golden/ubscan");
  if (!fs::is_directory(folder)) return cases;
  for (const fs::directory_entry& entry : fs::directory_iterator(folder)) {
    if (entry.path().extension() != ".cu") continue;
    Case c;
    c.name = entry.path().stem().string();
    c.source = cudiff::read_file(entry.path());
    c.expected = expect_line(c.source);
    fs::path sidecar = entry.path();
    sidecar.replace_extension(".json");
    if (fs::exists(sidecar)) c.sidecar = boost::json::parse(cudiff::read_file(sidecar)).as_object();
    const std::vector<std::string> lines = cudiff::split_lines(c.source);
    for (std::size_t i = 0; i < lines.size(); ++i)
      if (lines[i].find("// <-") != std::string::npos) c.marked_lines.insert(static_cast<int>(i + 1));
    cases.push_back(std::move(c));
  }
  std::sort(cases.begin(), cases.end(), [](const Case& a, const Case& b) { return a.name < b.name; });
  return cases;
}

std::string describe(const std::vector<UndefinedUse>& uses) {
  std::string text;
  for (const UndefinedUse& use : uses)
    text += "  " + use.rule_id + " line " + std::to_string(use.line) + ": " + use.excerpt + "\n";
  return text.empty() ? "  (nothing)\n" : text;
}

TEST(UbscanGolden, EveryCaseFindsWhatItsExpectLineSays) {
  const std::vector<Case> cases = golden_cases();
  ASSERT_FALSE(cases.empty()) << "no .cu case in tests/golden/ubscan";
  for (const Case& c : cases) {
    ASSERT_TRUE(c.expected) << c.name << ".cu: the first line must be `// expect: ID...` or `// expect: none`";
    const std::vector<UndefinedUse> uses = scan_undefined(c.source, c.sidecar);
    std::set<std::string> found;
    for (const UndefinedUse& use : uses) found.insert(use.rule_id);
    EXPECT_EQ(found, *c.expected) << c.name << ".cu found:\n" << describe(uses);
    // Each expected rule is found on a line its snippet marks.
    for (const std::string& rule : *c.expected) {
      const bool on_marked_line = std::any_of(uses.begin(), uses.end(), [&](const UndefinedUse& use) {
        return use.rule_id == rule && c.marked_lines.contains(use.line) &&
               use.excerpt.find("// <-") != std::string::npos;
      });
      EXPECT_TRUE(on_marked_line) << c.name << ".cu: " << rule << " not found on a line marked // <-; found:\n"
                                  << describe(uses);
    }
    if (c.expected->empty()) EXPECT_TRUE(c.marked_lines.empty()) << c.name << ".cu: a near miss marks no line";
  }
}

TEST(UbscanGolden, EveryScannedRuleHasAViolationAndANearMiss) {
  std::set<std::string> violated, near_missed;
  for (const Case& c : golden_cases()) {
    const std::string rule = c.name.substr(0, c.name.find('.'));
    if (c.name.find(".violation-") != std::string::npos) {
      violated.insert(rule);
      EXPECT_TRUE(c.expected && c.expected->contains(rule)) << c.name << ".cu does not expect its own rule";
    } else if (c.name.find(".near-miss-") != std::string::npos) {
      near_missed.insert(rule);
      EXPECT_TRUE(c.expected && c.expected->empty()) << c.name << ".cu: a near miss expects none";
    } else {
      ADD_FAILURE() << c.name << ".cu: a case is named <RULE>.violation-<n> or <RULE>.near-miss-<n>";
    }
  }
  for (const std::string& id : undefined_rules_scanned()) {
    EXPECT_TRUE(violated.contains(id)) << id << " has no violation case";
    EXPECT_TRUE(near_missed.contains(id)) << id << " has no near-miss case";
  }
}

} // namespace
