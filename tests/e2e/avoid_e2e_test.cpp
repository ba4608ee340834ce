// End-to-end: avoid rules (docs/campaign.md, "Avoid rules") with the real generator and real
// compilers (front ends only: --mode syntax). A campaign applies the known-bug suite's rules by
// default and the database's always: none of its programs uses the avoided construct, and it
// says so at its start; with --rediscover its programs use it again. A rule naming an unknown
// knob is refused with one line and the stored rules stay as they were.
#include "generator/generator.h"
#include "support/test_support.h"
#include "triage/triage.h"

#include <gtest/gtest.h>

#include <regex>

using cudiff::read_file;
using cudiff::TempDir;
using cudiff::test::contains;
using cudiff::test::run_cudiff;
namespace fs = std::filesystem;
namespace generator = cudiff::generator;

namespace {

/// The dense family the known-bug case ptxas-vadd2-short-reduced yields a rule for: its
/// SIMD-in-word intrinsics (__vadd2, __vcmpgeu4 ...).
const std::regex simd_in_word(R"(\b__v[a-z]+[24]\s*\()");

struct Generated {
  std::size_t programs = 0, with_simd = 0;
  std::string policy_hash;
};

/// Every program the database's one campaign tested, generated again from its seed with the
/// policy the campaign stored (the one its workers generate with, resumed or not).
Generated programs_of(const fs::path& db_path) {
  auto db = cudiff::triage::Database::open(db_path, {.create = false, .read_only = true});
  const auto campaigns = db.campaigns();
  EXPECT_EQ(campaigns.size(), 1u);
  const auto params = boost::json::parse(*db.campaign_params(campaigns.at(0).id));
  const generator::Policy policy = generator::Policy::load(params.at("policy").as_string());
  Generated generated;
  generated.policy_hash = policy.hash();
  for (const std::string& seed_text : db.tested_seeds(campaigns[0].id)) {
    const std::uint64_t seed = std::stoull(seed_text);
    const generator::TestCase test = generator::is_edge_seed(policy, seed)
                                         ? generator::generate_edge(policy, seed, generator::Size::small)
                                         : generator::generate_batch(policy, {seed}, generator::Size::small);
    ++generated.programs;
    if (std::regex_search(test.source, simd_in_word)) ++generated.with_simd;
  }
  return generated;
}

cudiff::runners::SubprocessResult campaign(const fs::path& db, std::vector<std::string> more) {
  std::vector<std::string> args = {"fuzz",   "--tests", "16",       "--batch",          "8",      "--jobs",
                                   "2",      "--seed",  "7100",     "--no-reduce",      "--gpus", "none",
                                   "--mode", "syntax",  "--config", "nvcc-O0,clang-O0", "--db",   db.string()};
  args.insert(args.end(), more.begin(), more.end());
  return run_cudiff(args, 600);
}

TEST(AvoidE2E, TheSuitesRulesByDefaultNoneWithRediscover) {
  TempDir dir("cudiff-avoid-e2e");
  // The same seeds twice: with the shipped knowledge's rules (the vadd2 case's among them) ...
  const fs::path avoiding = dir.path() / "avoiding.db";
  const auto first = campaign(avoiding, {});
  ASSERT_EQ(first.exit_code, 0) << first.out.text << first.err.text;
  EXPECT_TRUE(contains(first.err.text, "avoiding ")) << first.err.text;
  EXPECT_TRUE(contains(first.err.text, "dense.family.dense_simd=0")) << first.err.text;
  EXPECT_TRUE(contains(first.err.text, "case ptxas-vadd2-short-reduced")) << first.err.text;
  const Generated with_rules = programs_of(avoiding);
  EXPECT_EQ(with_rules.programs, 16u);
  EXPECT_EQ(with_rules.with_simd, 0u);
  // ... and with --rediscover: the same seeds under the default policy use the family again.
  const fs::path rediscovering = dir.path() / "rediscover.db";
  const auto second = campaign(rediscovering, {"--rediscover"});
  ASSERT_EQ(second.exit_code, 0) << second.out.text << second.err.text;
  EXPECT_TRUE(contains(second.err.text, "avoiding no known cause (--rediscover)")) << second.err.text;
  const Generated without_rules = programs_of(rediscovering);
  EXPECT_EQ(without_rules.programs, 16u);
  EXPECT_GE(without_rules.with_simd, 1u);
  EXPECT_EQ(without_rules.policy_hash, generator::Policy::defaults().hash());
}

TEST(AvoidE2E, TheDatabasesRuleAppliesWithoutTheSuiteAndABadRuleIsRefusedWithOneLine) {
  TempDir dir("cudiff-avoid-e2e");
  const fs::path db = dir.path() / "t.db";
  // An empty database to hold the rule (a campaign of one test makes it).
  const auto made = run_cudiff({"fuzz", "--tests", "1", "--seed", "1", "--no-reduce", "--gpus", "none", "--mode",
                                "syntax", "--config", "nvcc-O0", "--db", db.string(), "--quiet"});
  ASSERT_EQ(made.exit_code, 0) << made.err.text;
  const auto set = run_cudiff({"triage", "avoid", "set", "feedbeeffeedbeeffeedbeeffeedbeef",
                               "dense.family.dense_simd=0", "--reason", "a SIMD bug", "--db", db.string()});
  ASSERT_EQ(set.exit_code, 0) << set.out.text << set.err.text;
  // A knob this generator does not have: refused, one line, nothing stored.
  const auto bad = run_cudiff(
      {"triage", "avoid", "set", "0123456789abcdef", "dense.family.no_such_family=0", "--db", db.string()});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_TRUE(contains(bad.err.text, "no_such_family")) << bad.err.text;
  EXPECT_EQ(cudiff::test::count_lines(bad.err.text), 1u) << bad.err.text;
  const auto listed = run_cudiff({"triage", "avoid", "--db", db.string(), "--no-known", "--json"});
  ASSERT_EQ(listed.exit_code, 0) << listed.err.text;
  const auto rules = boost::json::parse(listed.out.text).at("rules").as_array();
  ASSERT_EQ(rules.size(), 1u) << listed.out.text;
  EXPECT_EQ(rules[0].at("cause").as_string(), "feedbeeffeedbeeffeedbeeffeedbeef");
  const auto table = run_cudiff({"triage", "avoid", "--db", db.string()});
  ASSERT_EQ(table.exit_code, 0) << table.err.text;
  EXPECT_TRUE(contains(table.out.text, "feedbeeffeed")) << table.out.text;
  EXPECT_TRUE(contains(table.out.text, "case ptxas-vadd2-short-reduced")) << table.out.text;  // the suite's too

  // Its campaign, without the shipped knowledge: the database's rule alone.
  const auto run = campaign(db, {"--no-known", "--campaign", "with-rule"});
  ASSERT_EQ(run.exit_code, 0) << run.out.text << run.err.text;
  EXPECT_TRUE(contains(run.err.text, "avoiding 1 known cause")) << run.err.text;
  EXPECT_TRUE(contains(run.err.text, "by hand")) << run.err.text;

  // A stored rule whose knob this cudiff does not know (a newer or older generator's): the
  // campaign refuses to start with one line, and the rule is still there.
  {
    auto writable = cudiff::triage::Database::open(db, {.create = false});
    writable.put_avoid_rule({"abcdabcdabcdabcd", "by hand", {{"dense.family.gone", 0}}, "", "", 1, true});
  }
  const auto refused = campaign(db, {"--no-known"});
  EXPECT_EQ(refused.exit_code, 2) << refused.out.text << refused.err.text;
  EXPECT_TRUE(contains(refused.err.text, "avoid rule abcdabcdabcd")) << refused.err.text;
  EXPECT_EQ(cudiff::test::count_lines(refused.err.text), 1u) << refused.err.text;
  auto after = cudiff::triage::Database::open(db, {.create = false, .read_only = true});
  EXPECT_EQ(after.avoid_rules().size(), 2u);
  // A corrupt database: one line, exit 2.
  const fs::path corrupt = dir.path() / "corrupt.db";
  cudiff::write_file(corrupt, "not a database at all, just text\n");
  const auto broken = run_cudiff({"triage", "avoid", "--db", corrupt.string()});
  EXPECT_EQ(broken.exit_code, 2);
  EXPECT_EQ(cudiff::test::count_lines(broken.err.text), 1u) << broken.err.text;
  EXPECT_EQ(read_file(corrupt), "not a database at all, just text\n");
}

} // namespace
