// The spec oracle: compile outcomes judged against what the rules say a program must do
// (oracle/judge_expected.cpp), their triage signatures, and known differences by rule.
#include "support/test_support.h"

#include "oracle/oracle.h"
#include "rules/rules.h"
#include "triage/triage.h"

#include <gtest/gtest.h>

namespace {

using namespace cudiff::oracle;
using cudiff::runners::CompilerKind;
using cudiff::test::contains;

CompileObservation accepted(const std::string& config, CompilerKind compiler) {
  CompileObservation observation;
  observation.config = config;
  observation.compiler = compiler;
  observation.outcome = CompileOutcome::accepted;
  return observation;
}

CompileObservation rejected(const std::string& config, CompilerKind compiler, int line, const std::string& message) {
  CompileObservation observation = accepted(config, compiler);
  observation.outcome = CompileOutcome::rejected;
  Diagnostic error;
  error.severity = Severity::error;
  error.id = message_template(message);
  error.file = "/tmp/x/edge.cu";
  error.line = line;
  error.message = message;
  observation.diagnostics.push_back(error);
  return observation;
}

Verdict judge_with(std::vector<CompileObservation> compiles, std::optional<Expectation> expected) {
  Observations observations;
  observations.compiles = std::move(compiles);
  observations.expected = std::move(expected);
  return judge(observations, JudgeOptions{});
}

const Expectation must_reject{true, "R-MANAGED-DECLTYPE", 184};
// typeid in device code: clang accepts it and documents no relaxation of the rule.
const Expectation must_reject_typeid{true, "R-RTTI-TYPEID", 184};

TEST(SpecOracle, AcceptingAMustRejectProgramIsAMissedDiagnosticNamingTheRule) {
  const Verdict verdict = judge_with({rejected("nvcc-O3", CompilerKind::nvcc, 184, "typeid is not allowed"),
                                      accepted("clang-O3", CompilerKind::clang)},
                                     must_reject_typeid);
  ASSERT_EQ(verdict.findings.size(), 1u);
  const Finding& finding = verdict.findings.front();
  EXPECT_EQ(finding.kind, FindingKind::missed_diagnostic);
  EXPECT_TRUE(contains(finding.summary, "clang-O3")) << finding.summary;
  EXPECT_TRUE(contains(finding.summary, "R-RTTI-TYPEID")) << finding.summary;
  EXPECT_EQ(finding.details.at("rule").as_string(), "R-RTTI-TYPEID");
  EXPECT_EQ(finding.details.at("rule_text").as_string(), "typeid is not supported in device code")
      << "the bucket carries the rule's text";
  EXPECT_FALSE(finding.details.contains("dialect"));
  EXPECT_EQ(finding.details.at("diagnosed_at_line").as_array().size(), 1u) << "nvcc's error is on the planted line";

  const cudiff::triage::Signature signature = cudiff::triage::signature_of(finding, "");
  EXPECT_EQ(signature.kind, "missed_diagnostic");
  EXPECT_EQ(signature.side, "clang");
  EXPECT_TRUE(contains(signature.symptom, "rule R-RTTI-TYPEID")) << signature.symptom;
  EXPECT_TRUE(contains(signature.title, "misses the diagnostic for R-RTTI-TYPEID")) << signature.title;
  EXPECT_EQ(cudiff::triage::KnownDifferences().match(signature), nullptr) << "a missed diagnostic is not known";
}

// The dialect table: a rule the accepting compiler documents as relaxed is a dialect difference,
// with the documentation cited in the finding, and known by default.
TEST(SpecOracle, ARuleClangDocumentsAsRelaxedIsADialectDifferenceCitingItsDocumentation) {
  const Verdict verdict = judge_with({rejected("nvcc-O3", CompilerKind::nvcc, 184,
                                               "a __managed__ variable cannot be used"),
                                      accepted("clang-O3", CompilerKind::clang)},
                                     must_reject);
  ASSERT_EQ(verdict.findings.size(), 1u);
  const Finding& finding = verdict.findings.front();
  EXPECT_EQ(finding.kind, FindingKind::dialect_difference) << finding.summary;
  const auto& dialect = finding.details.at("dialect").as_object();
  EXPECT_EQ(dialect.at("compiler").as_string(), "clang");
  EXPECT_TRUE(dialect.at("url").as_string().starts_with("https://clang.llvm.org/docs/")) << dialect;
  EXPECT_FALSE(dialect.at("quote").as_string().empty());
  EXPECT_FALSE(finding.details.at("rule_text").as_string().empty());
  const cudiff::triage::Signature signature = cudiff::triage::signature_of(finding, "");
  EXPECT_EQ(signature.kind, "dialect_difference");
  EXPECT_TRUE(contains(signature.title, "relaxes R-MANAGED-DECLTYPE on purpose")) << signature.title;
  const cudiff::triage::KnownDifference* known = cudiff::triage::KnownDifferences().match(signature);
  ASSERT_NE(known, nullptr) << "dialect differences are known without any file";
  EXPECT_TRUE(contains(known->reason, "dialect")) << known->reason;

  // The same rule missed by nvcc: nvcc documents no such relaxation, so it is a missed diagnostic.
  const Verdict nvcc_misses = judge_with({accepted("nvcc-O3", CompilerKind::nvcc),
                                          rejected("clang-O3", CompilerKind::clang, 184, "no")},
                                         must_reject);
  ASSERT_EQ(nvcc_misses.findings.size(), 1u);
  EXPECT_EQ(nvcc_misses.findings.front().kind, FindingKind::missed_diagnostic);
  // An extended-lambda rule: the guide ties it to nvcc's placeholder types, clang cites merged parsing.
  const Verdict lambda = judge_with({rejected("nvcc-O3", CompilerKind::nvcc, 3, "no"),
                                     accepted("clang-O3", CompilerKind::clang),
                                     accepted("clang-O0", CompilerKind::clang)},
                                    Expectation{true, "R-EXTLAM-01-NESTED", 3});
  ASSERT_EQ(lambda.findings.size(), 1u);
  EXPECT_EQ(lambda.findings.front().kind, FindingKind::dialect_difference);
  EXPECT_EQ(lambda.findings.front().details.at("dialect").at("basis").as_string(), "compilation model");
}

TEST(SpecOracle, EveryConfigAcceptingIsMissedByAllEvenForADialectRule) {
  const Verdict verdict = judge_with({accepted("nvcc-O3", CompilerKind::nvcc),
                                      accepted("clang-O3", CompilerKind::clang)},
                                     must_reject);
  ASSERT_EQ(verdict.findings.size(), 1u);
  const Finding& finding = verdict.findings.front();
  EXPECT_EQ(finding.kind, FindingKind::missed_by_all) << "nvcc has no dialect for it: both miss it";
  EXPECT_TRUE(contains(finding.summary, "missed by every config")) << finding.summary;
  const cudiff::triage::Signature signature = cudiff::triage::signature_of(finding, "");
  EXPECT_EQ(signature.kind, "missed_by_all");
  EXPECT_EQ(signature.side, "clang+nvcc");
}

TEST(SpecOracle, EveryDialectEntryOfTheCatalogCitesItsCompilersDocumentation) {
  std::size_t dialects = 0;
  for (const cudiff::rules::Rule& rule : cudiff::rules::rule_catalog()) {
    if (!rule.dialect) continue;
    ++dialects;
    EXPECT_EQ(rule.kind, cudiff::rules::RuleKind::must_reject) << rule.id << ": only E rules can be relaxed";
    EXPECT_TRUE(rule.dialect->documentation_url.starts_with("https://")) << rule.id;
    EXPECT_GE(rule.dialect->documentation_quote.size(), 20u) << rule.id;
    EXPECT_TRUE(rule.dialect->basis == "documented" || rule.dialect->basis == "compilation model") << rule.id;
    EXPECT_EQ(cudiff::rules::find_rule(rule.id)->dialect->reason, rule.dialect->reason);
  }
  EXPECT_GE(dialects, 30u) << "the extended-lambda and managed-variable families at least";
  EXPECT_EQ(cudiff::rules::find_rule("R-NOT-A-RULE"), nullptr);
}

TEST(SpecOracle, MissedDiagnosticsOfDifferentRulesAreDifferentBuckets) {
  auto key = [](const std::string& rule) {
    const Verdict verdict = judge_with({accepted("nvcc-O3", CompilerKind::nvcc),
                                        accepted("clang-O3", CompilerKind::clang)},
                                       Expectation{true, rule, 10});
    EXPECT_EQ(verdict.findings.size(), 1u);
    return cudiff::triage::signature_of(verdict.findings.front(), "");
  };
  EXPECT_NE(key("R-A").key, key("R-B").key);
  EXPECT_EQ(key("R-A").key, key("R-A").key);
  EXPECT_EQ(key("R-A").side, "clang+nvcc");
  // The line is where the plant landed in one program, not part of the bug.
  const Verdict elsewhere = judge_with({accepted("nvcc-O3", CompilerKind::nvcc),
                                        accepted("clang-O3", CompilerKind::clang)},
                                       Expectation{true, "R-A", 99});
  EXPECT_EQ(cudiff::triage::signature_of(elsewhere.findings.front(), "").key, key("R-A").key);
}

TEST(SpecOracle, RejectingAMustRejectProgramEverywhereIsAgreementThatNamesTheRule) {
  const Verdict verdict = judge_with({rejected("nvcc-O3", CompilerKind::nvcc, 184, "bad"),
                                      rejected("clang-O3", CompilerKind::clang, 12, "other")},
                                     must_reject);
  EXPECT_TRUE(verdict.agree());
  EXPECT_TRUE(contains(verdict.agreement, "as R-MANAGED-DECLTYPE requires")) << verdict.agreement;
}

TEST(SpecOracle, RejectingAValidProgramIsAFalseRejectionEvenWhenEveryoneDoes) {
  const Verdict one = judge_with({accepted("nvcc-O3", CompilerKind::nvcc),
                                  rejected("clang-O3", CompilerKind::clang, 5, "no 'x'")},
                                 Expectation{});
  ASSERT_EQ(one.findings.size(), 1u);
  EXPECT_EQ(one.findings.front().kind, FindingKind::false_rejection);
  EXPECT_EQ(cudiff::triage::signature_of(one.findings.front(), "").side, "clang");
  const Verdict both = judge_with({rejected("nvcc-O3", CompilerKind::nvcc, 5, "a"),
                                   rejected("clang-O3", CompilerKind::clang, 5, "b")},
                                  Expectation{});
  ASSERT_EQ(both.findings.size(), 1u) << "without an expectation this would be agreement";
  EXPECT_EQ(both.findings.front().kind, FindingKind::false_rejection);
  const Verdict plain = judge_with({rejected("nvcc-O3", CompilerKind::nvcc, 5, "a"),
                                    rejected("clang-O3", CompilerKind::clang, 5, "b")},
                                   std::nullopt);
  EXPECT_TRUE(plain.agree());
}

TEST(SpecOracle, ACrashIsACrashWhateverWasExpected) {
  CompileObservation crashed = accepted("clang-O3", CompilerKind::clang);
  crashed.outcome = CompileOutcome::crashed;
  crashed.crash = Crash{"clang", "backend error", "fatal error: error in backend"};
  const Verdict verdict = judge_with({rejected("nvcc-O3", CompilerKind::nvcc, 3, "x"), crashed}, must_reject);
  ASSERT_EQ(verdict.findings.size(), 1u);
  EXPECT_EQ(verdict.findings.front().kind, FindingKind::crash);
}

// Expectations from sidecars: tests/unit/pipeline/sidecar_expectation_test.cpp.
TEST(SpecOracle, ExpectationsComeFromExpectedErrorComments) {
  const auto marked = expectation_from_source("int a;\n\nint b[0]; // expected-error: R-ZERO-ARRAY\n");
  ASSERT_TRUE(marked);
  EXPECT_EQ(*marked, (Expectation{true, "R-ZERO-ARRAY", 3}));
  EXPECT_FALSE(expectation_from_source("int a; // expected error\n"));
}

TEST(SpecOracle, KnownDifferencesMatchMissedDiagnosticsByRuleAndByRulePrefix) {
  const auto known = cudiff::triage::KnownDifferences::parse(R"({"known": [
      {"kind": "missed_diagnostic", "side": "clang", "id": "R-TMPL-*", "reason": "template arguments"},
      {"kind": "missed_diagnostic", "side": "clang", "id": "R-ONE", "reason": "one rule"}]})",
                                                             "test");
  auto signature = [](const std::string& rule) {
    const Verdict verdict = judge_with({rejected("nvcc-O3", CompilerKind::nvcc, 1, "x"),
                                        accepted("clang-O3", CompilerKind::clang)},
                                       Expectation{true, rule, 1});
    return cudiff::triage::signature_of(verdict.findings.front(), "");
  };
  ASSERT_NE(known.match(signature("R-TMPL-UNNAMED-TYPE")), nullptr);
  EXPECT_EQ(known.match(signature("R-TMPL-UNNAMED-TYPE"))->reason, "template arguments");
  ASSERT_NE(known.match(signature("R-ONE")), nullptr);
  EXPECT_EQ(known.match(signature("R-ONE-MORE")), nullptr) << "only ids ending in * are prefixes";
  EXPECT_EQ(known.match(signature("R-OTHER")), nullptr);
}

} // namespace

// ---- the rules' evidence (rules/README.md, "Evidence") ---------------------------------------

namespace {

CompileObservation warned(const std::string& config, CompilerKind compiler, const std::string& file, int line) {
  CompileObservation observation = accepted(config, compiler);
  Diagnostic warning;
  warning.severity = Severity::warning;
  warning.file = file;
  warning.line = line;
  warning.message = "attribute ignored";
  warning.id = message_template(warning.message);
  observation.diagnostics.push_back(warning);
  return observation;
}

/// A rule whose evidence says a warning is its diagnostic for both compilers, from the catalog
/// itself (the test follows the catalog rather than naming a rule that may be settled otherwise).
const cudiff::rules::Rule* rule_settled_by_warnings() {
  static const std::vector<cudiff::rules::Rule> catalog = cudiff::rules::rule_catalog();
  for (const cudiff::rules::Rule& rule : catalog)
    if (rule.evidence && rule.evidence->nvcc.why == "warning" && rule.evidence->clang.why == "warning") return &rule;
  return nullptr;
}

const cudiff::rules::Rule* rule_settled_as(const std::string& compiler, const std::string& why) {
  static const std::vector<cudiff::rules::Rule> catalog = cudiff::rules::rule_catalog();
  for (const cudiff::rules::Rule& rule : catalog)
    if (rule.evidence && rule.evidence->of(compiler)->why == why &&
        rule.evidence->of(compiler == "clang" ? "nvcc" : "clang")->diagnoses())
      return &rule;
  return nullptr;
}

} // namespace

TEST(SpecOracle, AWarningOnTheMarkersLineIsTheDiagnosticWhereTheEvidenceSaysSo) {
  const cudiff::rules::Rule* rule = rule_settled_by_warnings();
  ASSERT_NE(rule, nullptr) << "the catalog settles some rule by the warnings of both";
  const Expectation expected{true, rule->id, 40};
  // Both warn at the line: no finding, and the agreement says why.
  const Verdict both = judge_with({warned("nvcc-O3", CompilerKind::nvcc, "/tmp/x/edge.cu", 40),
                                   warned("clang-O3", CompilerKind::clang, "/tmp/x/edge.cu", 40)},
                                  expected);
  EXPECT_TRUE(both.findings.empty()) << both.headline();
  EXPECT_TRUE(contains(both.agreement, "each with a warning at line 40")) << both.agreement;
  // clang warns at the line, nvcc rejects: clang diagnosed it too.
  const Verdict one = judge_with({rejected("nvcc-O3", CompilerKind::nvcc, 40, "not allowed"),
                                  warned("clang-O3", CompilerKind::clang, "/tmp/x/edge.cu", 40)},
                                 expected);
  EXPECT_TRUE(one.findings.empty()) << one.headline();
  // A warning on another line, in a header, or no warning at all diagnoses nothing.
  for (const CompileObservation& clang :
       {warned("clang-O3", CompilerKind::clang, "/tmp/x/edge.cu", 41),
        warned("clang-O3", CompilerKind::clang, "/usr/include/x.h", 40), accepted("clang-O3", CompilerKind::clang)}) {
    const Verdict verdict = judge_with({rejected("nvcc-O3", CompilerKind::nvcc, 40, "not allowed"), clang}, expected);
    ASSERT_EQ(verdict.findings.size(), 1u);
    EXPECT_EQ(verdict.findings.front().kind, FindingKind::missed_diagnostic);
    EXPECT_FALSE(verdict.findings.front().details.contains("warned"));
  }
  // A compiler whose evidence does not settle the rule by a warning gets nothing for one.
  const cudiff::rules::Rule* bug = rule_settled_as("clang", "bug");
  ASSERT_NE(bug, nullptr);
  const Verdict not_enough = judge_with({rejected("nvcc-O3", CompilerKind::nvcc, 40, "not allowed"),
                                         warned("clang-O3", CompilerKind::clang, "/tmp/x/edge.cu", 40)},
                                        Expectation{true, bug->id, 40});
  ASSERT_EQ(not_enough.findings.size(), 1u);
  EXPECT_EQ(not_enough.findings.front().kind, FindingKind::missed_diagnostic);
  const auto& why = not_enough.findings.front().details.at("why_accepted").as_array();
  ASSERT_EQ(why.size(), 1u);
  EXPECT_EQ(why.front().at("why").as_string(), "bug");
  EXPECT_FALSE(why.front().at("searched").as_string().empty());
}

// ptxas sees only PTX: its warning about an extern __device__ variable in whole-program mode
// names no source line. It settles the rule when it is the evidence's warning, names masked.
TEST(SpecOracle, AnUnlocatedToolWarningIsTheDiagnosticWhenItIsTheEvidencesWarning) {
  const cudiff::rules::Rule* rule = cudiff::rules::find_rule("R-MEMSPACE-EXTERN-WP");
  ASSERT_NE(rule, nullptr);
  ASSERT_EQ(rule->evidence->clang.why, "warning");
  auto ptxas_warned = [](const std::string& message) {
    CompileObservation observation = accepted("clang-O3", CompilerKind::clang);
    Diagnostic warning;
    warning.severity = Severity::warning;
    warning.tool = Tool::ptxas;
    warning.message = message;
    warning.id = message_template(message);
    observation.diagnostics.push_back(warning);
    return observation;
  };
  const Expectation expected{true, rule->id, 7};
  // Another variable's name: the same warning, so the same diagnostic.
  const Verdict settled = judge_with(
      {rejected("nvcc-O3", CompilerKind::nvcc, 7, "not allowed"),
       ptxas_warned("Unresolved extern variable 'g_other' in whole program compilation, ignoring extern qualifier")},
      expected);
  EXPECT_TRUE(settled.findings.empty()) << settled.headline();
  // Another unlocated warning is not the rule's diagnostic.
  const Verdict other = judge_with({rejected("nvcc-O3", CompilerKind::nvcc, 7, "not allowed"),
                                    ptxas_warned("Stack size for entry 'k' too big")},
                                   expected);
  ASSERT_EQ(other.findings.size(), 1u);
  EXPECT_EQ(other.findings.front().kind, FindingKind::missed_diagnostic);
}

TEST(SpecOracle, AMissedDiagnosticAlreadyReportedUpstreamIsRecordedReportedWithItsLink) {
  const cudiff::rules::Rule* rule = rule_settled_as("clang", "upstream");
  ASSERT_NE(rule, nullptr) << "the catalog settles some clang rule as reported upstream";
  const std::string url = rule->evidence->clang.url;
  const Verdict verdict = judge_with({rejected("nvcc-O3", CompilerKind::nvcc, 12, "not allowed"),
                                      accepted("clang-O3", CompilerKind::clang)},
                                     Expectation{true, rule->id, 12});
  ASSERT_EQ(verdict.findings.size(), 1u);
  const Finding& finding = verdict.findings.front();
  EXPECT_EQ(finding.kind, FindingKind::missed_diagnostic);
  EXPECT_EQ(finding.details.at("upstream").at("url").as_string(), url);
  // The summary names it (a long URL may be shortened there; details keep it whole).
  EXPECT_TRUE(contains(finding.summary, "(reported upstream: https://")) << finding.summary;

  cudiff::TempDir dir;
  auto db = cudiff::triage::Database::open(dir.path() / "t.db");
  cudiff::triage::Campaign campaign;
  campaign.id = cudiff::triage::content_key("upstream");
  campaign.kind = "test";
  db.put_campaign(campaign);
  auto record = [&](const Finding& f, int index) {
    cudiff::triage::NewFinding n;
    n.id = cudiff::triage::content_key("upstream/" + std::to_string(index));
    n.campaign_id = campaign.id;
    n.test_id = cudiff::triage::content_key("test/" + std::to_string(index));
    n.finding = f;
    n.signature = cudiff::triage::signature_of(f);
    n.source = "// test " + std::to_string(index) + "\n";
    return db.add_finding(n);
  };
  const auto first = record(finding, 1);
  EXPECT_TRUE(first.new_bucket);
  EXPECT_EQ(first.bucket.status, cudiff::triage::Status::reported) << "from its first finding";
  EXPECT_EQ(db.facts(first.bucket.key).link, url);
  // A link a person set stays; later findings count in the same reported bucket.
  db.set_link(first.bucket.key, "https://github.com/llvm/llvm-project/issues/1");
  const auto second = record(finding, 2);
  EXPECT_EQ(second.bucket.count, 2);
  EXPECT_EQ(second.bucket.status, cudiff::triage::Status::reported);
  EXPECT_EQ(db.facts(first.bucket.key).link, "https://github.com/llvm/llvm-project/issues/1");

  // Both compilers accepting is not that bug alone: no upstream link, a new bucket.
  const Verdict both = judge_with({accepted("nvcc-O3", CompilerKind::nvcc), accepted("clang-O3", CompilerKind::clang)},
                                  Expectation{true, rule->id, 12});
  ASSERT_EQ(both.findings.size(), 1u);
  EXPECT_FALSE(both.findings.front().details.contains("upstream"));
  EXPECT_EQ(record(both.findings.front(), 3).bucket.status, cudiff::triage::Status::fresh);
}
