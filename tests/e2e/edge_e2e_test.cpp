// End-to-end: edge programs against the real nvcc and clang-22. Each violation template,
// planted into a random program, is rejected by at least one compiler, or the rule's evidence
// says both accept it and the verdict follows the evidence (a warning it takes as the
// diagnostic; else a missed diagnostic that is a recorded known difference); the same programs without the plant are accepted
// by both. And a campaign of edge programs files missed diagnostics, with rule ids, in the
// triage database.
#include "support/test_support.h"

#include "generator/generator.h"
#include "pipeline/pipeline.h"
#include "rules/rules.h"
#include "triage/triage.h"

#include <gtest/gtest.h>

namespace {

using namespace cudiff;
using test::contains;

/// The program each template is planted into: one of six seeds, chosen by the rule's index, so
/// neighbouring rules get other host programs and the six plain programs (checked below) cover
/// every plant. (Two programs a template took 1,100 s of wall time on 2 cores for the 118
/// templates, a quarter of the test command's ctest time, bench/RESULTS.md; whether a compiler
/// rejects a plant depends on the template, not on the program around it.)
std::vector<std::uint64_t> seeds_for(std::size_t rule_index) { return {1 + rule_index % 6}; }

pipeline::TestCheck check_source(const std::string& name, const std::string& source, const generator::Sidecar& sidecar,
                                 const std::filesystem::path& dir) {
  pipeline::CheckRequest request;
  request.input = pipeline::TestInput{name + ".cu", source, std::nullopt, sidecar, {}, {}};
  request.mode = runners::Mode::object;
  request.configs = runners::default_configs();
  request.compile_limits.wall_seconds = 180;
  static const runners::Toolchain toolchain = runners::Toolchain::from(runners::discover_toolchain({}));
  // check_test writes under a work directory its caller owns: it must exist.
  std::filesystem::create_directories(dir / (name + "_build"));
  return pipeline::check_test(request, toolchain, runners::GpuDiscovery{}, dir / (name + "_build"));
}

const triage::KnownDifferences& known_differences() {
  static const triage::KnownDifferences known = triage::KnownDifferences::load(test::source_dir() / "triage" /
                                                                               "known_differences.json");
  return known;
}

class EveryViolationTemplate : public testing::TestWithParam<std::size_t> {};

TEST_P(EveryViolationTemplate, IsRejectedByACompilerOrIsAKnownDifference) {
  const rules::Rule rule = generator::plantable_rules().at(GetParam());
  TempDir dir("cudiff-edge-e2e");
  for (std::uint64_t seed : seeds_for(GetParam())) {
    const generator::TestCase test = generator::generate_edge(generator::Policy::defaults(), seed,
                                                              generator::Size::small, rule.id);
    const pipeline::TestCheck run = check_source(test.name, test.source, test.sidecar, dir.path());
    ASSERT_TRUE(run.expected && run.expected->reject) << "the sidecar says the program must be rejected";
    bool rejected = false;
    for (const pipeline::ConfigCheck& config : run.configs)
      rejected = rejected || config.observation.outcome == oracle::CompileOutcome::rejected;
    if (rejected) continue;
    // Accepted by both: the rule's evidence must have measured that (planted into a generated
    // program as into the verifier's), and say why for each compiler.
    ASSERT_TRUE(rule.evidence.has_value()) << rule.id;
    for (const pipeline::ConfigCheck& config : run.configs) {
      const rules::CompilerEvidence* evidence = rule.evidence->of(runners::to_string(config.observation.compiler));
      ASSERT_NE(evidence, nullptr) << rule.id;
      EXPECT_FALSE(evidence->diagnoses()) << rule.id << " (seed " << seed << "): " << config.observation.config
                                          << " accepts it, the evidence says it rejects it";
    }
    if (run.verdict.findings.empty()) {
      // Every config warned at the marker's line, which the evidence takes as the diagnostic.
      EXPECT_TRUE(contains(run.verdict.agreement, "takes as its diagnostic"))
          << rule.id << ": " << run.verdict.agreement;
      continue;
    }
    const oracle::Finding& finding = run.verdict.findings.front();
    if (finding.kind == oracle::FindingKind::missed_diagnostic) {
      // One compiler's warning diagnosed it, the other's silence is the finding.
      EXPECT_TRUE(finding.details.contains("warned")) << rule.id << ": " << finding.summary;
      continue;
    }
    // Missed by both: only a recorded known difference may excuse it.
    EXPECT_EQ(finding.kind, oracle::FindingKind::missed_by_all) << finding.summary;
    const triage::KnownDifference* known = known_differences().match(triage::signature_of(finding, ""));
    EXPECT_NE(known, nullptr) << rule.id << " (seed " << seed << "): no compiler rejects it and no known difference "
                              << "says why: " << finding.summary;
  }
}

std::string rule_test_name(const testing::TestParamInfo<std::size_t>& info) {
  std::string name = generator::plantable_rules().at(info.param).id;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(EdgeE2E, EveryViolationTemplate,
                         testing::Range<std::size_t>(0, generator::plantable_rules().size()), rule_test_name);

TEST(EdgeE2E, TheProgramsTheTemplatesArePlantedIntoAreAcceptedByBoth) {
  // The six programs as one batch (each in its own namespace): one compile per config.
  TempDir dir("cudiff-edge-e2e");
  const generator::TestCase test = generator::generate_batch(generator::Policy::defaults(), {1, 2, 3, 4, 5, 6},
                                                             generator::Size::small);
  const pipeline::TestCheck run = check_source(test.name, test.source, test.sidecar, dir.path());
  for (const pipeline::ConfigCheck& config : run.configs)
    EXPECT_EQ(config.observation.outcome, oracle::CompileOutcome::accepted)
        << config.compile.config.name << ": " << run.verdict.headline();
  EXPECT_TRUE(run.verdict.agree()) << run.verdict.headline();
}

TEST(EdgeE2E, ACampaignOfEdgeProgramsFilesMissedDiagnosticsWithRuleIds) {
  TempDir dir("cudiff-edge-campaign");
  const auto policy = dir.path() / "policy.json";
  write_file(policy, R"({"edge.share": 1})");
  const auto db = dir.path() / "edge.db";
  auto result = test::run_cudiff({"fuzz", "--tests", "6", "--seed", "200", "--policy", policy.string(), "--db",
                                  db.string(), "--no-reduce", "--quiet", "--json"},
                                 900);
  ASSERT_EQ(result.exit_code, 0) << result.err.text;
  auto list = test::run_cudiff({"triage", "list", "--db", db.string(), "--json"});
  ASSERT_EQ(list.exit_code, 0) << list.err.text;
  const auto buckets = boost::json::parse(list.out.text);
  std::vector<std::string> missed;
  for (const auto& bucket : buckets.as_array()) {
    // The three classes of an accepted must-reject program (docs/oracle.md, "Dialect or bug").
    const std::string kind(bucket.at("kind").as_string());
    if (kind != "missed_diagnostic" && kind != "dialect_difference" && kind != "missed_by_all") continue;
    missed.push_back(std::to_string(bucket.at("id").as_int64()));
    const std::string title(bucket.at("title").as_string());
    EXPECT_TRUE(contains(title, kind == "dialect_difference" ? " on purpose" : "misses the diagnostic for R-"))
        << bucket;
    EXPECT_TRUE(contains(std::string(bucket.at("symptom").as_string()), "\nrule R-")) << bucket;
  }
  ASSERT_GE(missed.size(), 1u) << list.out.text;
  // The exported reproducer is the violation fragment alone (when that shows the same
  // signature): a few lines with the marked line, not the whole generated program.
  const auto exported = dir.path() / "export";
  auto report = test::run_cudiff({"triage", "export", missed.front(), exported.string(), "--db", db.string()});
  ASSERT_EQ(report.exit_code, 0) << report.err.text;
  bool small_marked_reproducer = false;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(exported)) {
    if (entry.path().extension() != ".cu") continue;
    const std::string text = read_file(entry.path());
    small_marked_reproducer = small_marked_reproducer || (contains(text, "expected-error: R-") && text.size() < 4096);
  }
  EXPECT_TRUE(small_marked_reproducer) << report.out.text;
}

}  // namespace
