// Edge programs (one planted E-rule violation) and V-rule probes: what the generator promises
// about them, without compilers (tests/e2e/edge_e2e_test.cpp builds them).
#include "support/test_support.h"

#include "generator/generator.h"
#include "rules/rules.h"

#include <gtest/gtest.h>

#include <set>

namespace {

using namespace cudiff::generator;
using namespace cudiff::rules;
using cudiff::test::contains;

std::string line_of(const std::string& text, int line) {
  const auto lines = cudiff::split_lines(text);
  return line >= 1 && static_cast<std::size_t>(line) <= lines.size() ? lines[static_cast<std::size_t>(line - 1)] : "";
}

Policy with(std::initializer_list<std::pair<const char*, double>> knobs) {
  Policy policy = Policy::defaults();
  for (const auto& [name, value] : knobs) policy.set(name, value);
  return policy;
}

TEST(EdgePrograms, TheSidecarNamesTheRuleAndTheLineThatBreaksIt) {
  std::set<std::string> rules_seen;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const TestCase test = generate_edge(Policy::defaults(), seed, Size::small);
    EXPECT_TRUE(test.name.starts_with("cudiff_edge_")) << test.name;
    EXPECT_EQ(test.sidecar.expected_verdict, Sidecar::Verdict::reject);
    ASSERT_TRUE(test.sidecar.edge);
    const Sidecar::Edge& edge = *test.sidecar.edge;
    rules_seen.insert(edge.rule);
    const std::string line = line_of(test.source, edge.line);
    EXPECT_TRUE(contains(line, "expected-error: " + edge.rule)) << "seed " << seed << ": " << line;
    EXPECT_TRUE(contains(line, edge.marker)) << line;
    // The program before the plant is the seed's own program.
    const TestCase plain = generate_program(Policy::defaults(), seed, Size::small);
    EXPECT_TRUE(test.source.starts_with(plain.source)) << "seed " << seed;
  }
  EXPECT_GE(rules_seen.size(), 25u) << "the rule is drawn from the seed";
}

TEST(EdgePrograms, AreDeterministicAndTakeTheRuleAskedFor) {
  EXPECT_EQ(generate_edge(Policy::defaults(), 9, Size::small).source,
            generate_edge(Policy::defaults(), 9, Size::small).source);
  const TestCase chosen = generate_edge(Policy::defaults(), 9, Size::small, "R-HOSTEXT-NODEV");
  EXPECT_EQ(chosen.sidecar.edge.value().rule, "R-HOSTEXT-NODEV");
  EXPECT_TRUE(contains(chosen.source, "// expected-error: R-HOSTEXT-NODEV"));
  try {
    generate_edge(Policy::defaults(), 9, Size::small, "V-GRIDCONST");
    FAIL() << "a V rule has no violation to plant";
  } catch (const cudiff::Error& error) {
    EXPECT_EQ(error.kind(), cudiff::ErrorKind::usage);
    EXPECT_TRUE(contains(error.what(), "V-GRIDCONST")) << error.what();
  }
}

TEST(EdgePrograms, AViolationAloneIsTheFragmentAfterTwoIncludes) {
  const TestCase alone = violation_alone("R-HOSTEXT-NODEV");
  EXPECT_EQ(alone.name, "edge_R-HOSTEXT-NODEV");
  EXPECT_TRUE(alone.source.starts_with("#include <cstdio>\n#include <cuda_runtime.h>\n")) << alone.source;
  EXPECT_LT(alone.source.size(), 1024u);
  EXPECT_EQ(alone.sidecar.expected_verdict, Sidecar::Verdict::reject);
  const std::string line = line_of(alone.source, alone.sidecar.edge.value().line);
  EXPECT_TRUE(contains(line, "expected-error: R-HOSTEXT-NODEV")) << line;
  EXPECT_THROW(violation_alone("R-NO-SUCH-RULE"), cudiff::Error);
}

TEST(EdgePrograms, EveryPlantableRuleIsACheckableERuleWithAMarkedLine) {
  const std::vector<Rule> rules = plantable_rules();
  EXPECT_GE(rules.size(), 100u);
  for (const Rule& rule : rules) {
    EXPECT_EQ(rule.kind, RuleKind::must_reject) << rule.id;
    int line = 0;
    const std::string planted = plant_violation("int x;\n", rule.id, *rule.violation, line);
    EXPECT_TRUE(contains(line_of(planted, line), "expected-error: " + rule.id)) << rule.id << " line " << line;
  }
}

TEST(EdgePrograms, TheCampaignShareFollowsThePolicy) {
  std::size_t edge = 0;
  for (std::uint64_t seed = 0; seed < 2000; ++seed) edge += is_edge_seed(Policy::defaults(), seed);
  const double share = Policy::defaults().get("edge.share");
  EXPECT_NEAR(static_cast<double>(edge) / 2000.0, share, 0.03);
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    EXPECT_FALSE(is_edge_seed(with({{"edge.share", 0}}), seed));
    EXPECT_TRUE(is_edge_seed(with({{"edge.share", 1}}), seed));
  }
}

TEST(Probes, LeaveEveryExpectedChecksumAsItWas) {
  // A probe returns its argument: the interpreter's checksums must not move, and the program
  // without probes is the program as it was before probes existed (they draw from a stream of
  // their own).
  const Policy none = with({{"probe.share", 0}});
  const Policy all = with({{"probe.share", 1}, {"probe.count.max", 6}});
  std::size_t with_probes = 0;
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    for (Size size : {Size::small, Size::medium}) {
      const TestCase plain = generate_program(none, seed, size);
      const TestCase probed = generate_program(all, seed, size);
      EXPECT_EQ(plain.sidecar.kernels, probed.sidecar.kernels) << "seed " << seed;
      EXPECT_TRUE(plain.sidecar.probes.value().empty());
      with_probes += !probed.sidecar.probes.value().empty();
    }
  }
  EXPECT_EQ(with_probes, 120u);
}

TEST(Probes, EveryPlantedProbeIsDefinedOnceAndCalled) {
  const Policy all = with({{"probe.share", 1}, {"probe.count.max", 8}});
  std::set<std::string> rules_planted;
  for (std::uint64_t seed = 1; seed <= 80; ++seed) {
    const TestCase test = generate_program(all, seed, Size::small);
    for (const Sidecar::Probe& probe : test.sidecar.probes.value()) {
      const std::string& rule = probe.rule;
      const std::string& function = probe.function;
      rules_planted.insert(rule);
      EXPECT_TRUE(contains(test.source, "// cudiff probe " + rule + " begin\n")) << seed << " " << rule;
      EXPECT_TRUE(contains(test.source, "// cudiff probe " + rule + " end\n")) << seed << " " << rule;
      if (probe.host) {
        EXPECT_TRUE(contains(test.source, "if (" + function + "(")) << seed << " " << rule;
      } else {
        EXPECT_GE(probe.sites, 1);
        EXPECT_TRUE(contains(test.source, function + "((unsigned long long)")) << seed << " " << rule;
      }
    }
  }
  std::size_t probes = 0, off = 0;
  for (const Rule& rule : rule_catalog()) {
    probes += rule.probe.has_value();
    off += rule.probe && !rule.probe->clang_rejects.empty();
  }
  EXPECT_GE(rules_planted.size(), (probes - off) / 2) << "80 programs of up to 8 probes reach most probes";
}

// On by default since generator 0.6.0 (every construct on, known differences labelled), but
// only with probe.clang_rejects: off, no program carries one.
TEST(Probes, ThoseClangRejectsOnPurposeAreOffOnlyWithTheirKnob) {
  std::set<std::string> rejected;
  for (const Rule& rule : rule_catalog())
    if (rule.probe && !rule.probe->clang_rejects.empty()) rejected.insert(rule.id);
  const Policy off = with({{"probe.share", 1}, {"probe.count.max", 16}, {"probe.clang_rejects", 0}});
  const Policy on = with({{"probe.share", 1}, {"probe.count.max", 16}});
  int seen = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const TestCase without = generate_program(off, seed, Size::small);
    for (const Sidecar::Probe& probe : without.sidecar.probes.value())
      EXPECT_FALSE(rejected.count(probe.rule)) << probe.rule;
    const TestCase with_them = generate_program(on, seed, Size::small);
    for (const Sidecar::Probe& probe : with_them.sidecar.probes.value()) seen += rejected.count(probe.rule) ? 1 : 0;
  }
  EXPECT_GT(seen, 0);
}

TEST(Probes, BatchesCarryEachTestsProbesInsideItsNamespace) {
  const Policy all = with({{"probe.share", 1}});
  const TestCase batch = generate_batch(all, {3, 4, 5}, Size::small);
  for (const Sidecar& test : batch.sidecar.batch.value().tests)
    for (const Sidecar::Probe& probe : test.probes.value())
      EXPECT_TRUE(contains(batch.source, "// cudiff probe " + probe.rule + " begin"));
  // Headers go once, at global scope, before the first namespace.
  const std::size_t first_namespace = batch.source.find("namespace cudiff_s3");
  for (const std::string& line : cudiff::split_lines(batch.source))
    if (line.starts_with("#include")) EXPECT_LT(batch.source.find(line + "\n"), first_namespace) << line;
}

// The generator names catalog rules: every id a construct names is one.
TEST(RulesCatalog, EveryRuleIdAConstructNamesIsInTheCatalog) {
  std::set<std::string> ids;
  for (const Rule& rule : rule_catalog()) ids.insert(rule.id);
  for (const ConstructInfo& construct : construct_catalog())
    for (const std::string& id : construct.rule_ids) EXPECT_TRUE(ids.contains(id)) << construct.name << ": " << id;
  EXPECT_TRUE(constructs_by_rule().contains("V-GRIDCONST"));
}

} // namespace
