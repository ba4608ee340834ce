// The known-bug recall suite without compilers: every case.json of corpus/known-bugs reads, a
// malformed one is refused naming its field, config sets keep unknown presets, and a check is
// judged found / right bucket / right stage as the case says.
#include "campaign/campaign.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <set>

using cudiff::campaign::CaseOutcome;
using cudiff::campaign::KnownBugCase;
using cudiff::test::contains;
using cudiff::test::error_kind_of;
using cudiff::test::source_dir;

namespace {

std::filesystem::path suite() { return source_dir() / "corpus" / "known-bugs"; }

/// A case directory with `case_json` and an empty reproducer, in `temp`.
std::filesystem::path write_case(const cudiff::TempDir& temp, const std::string& name, const std::string& case_json) {
  const auto dir = temp.path() / name;
  std::filesystem::create_directories(dir);
  cudiff::write_file(dir / "repro.cu", "__global__ void k() {}\n");
  cudiff::write_file(dir / "case.json", case_json);
  return dir;
}

const std::string valid_case = R"({
  "title": "t", "file": "repro.cu", "source": "cudiff finding: x", "licence": "l",
  "reproduces_with": {"nvcc": "13.0.88", "clang": "22.1.8"}, "needs_gpu": false, "confirmed": true,
  "mode": "syntax", "configs": ["nvcc-O3", "clang-O3-future-preset"],
  "expect": {"kind": ["missed_diagnostic", "missed_by_all"], "stage": "frontend",
             "title_contains": "R-KPARAM-REF", "verdict": "discrepancy"}
})";

std::string message_of(const std::function<void()>& body) {
  try {
    body();
  } catch (const cudiff::Error& error) {
    return error.what();
  }
  return {};
}

KnownBugCase sample_case() {
  cudiff::TempDir temp("cudiff-recall-test");
  return cudiff::campaign::read_known_bug(write_case(temp, "sample", valid_case));
}

cudiff::oracle::Finding finding(cudiff::oracle::FindingKind kind, std::optional<std::string> stage = std::nullopt) {
  cudiff::oracle::Finding out;
  out.kind = kind;
  if (stage) out.details["stage"] = *stage;
  return out;
}

cudiff::triage::Signature signature(const std::string& title,
                                    const std::string& key = "00112233445566778899aabbccddeeff") {
  cudiff::triage::Signature out;
  out.title = title;
  out.key = key;
  return out;
}

} // namespace

TEST(RecallSuite, EveryCaseOfTheShippedSuiteReadsAndNamesAnExistingReproducer) {
  const std::vector<KnownBugCase> cases = cudiff::campaign::read_known_bugs(suite());
  std::size_t confirmed_compile_side = 0;
  std::set<std::string> titles;
  for (const KnownBugCase& bug : cases) {
    SCOPED_TRACE(bug.name);
    EXPECT_TRUE(std::filesystem::is_regular_file(bug.file));
    EXPECT_FALSE(bug.source.empty());
    EXPECT_FALSE(bug.licence.empty());
    EXPECT_FALSE(bug.configs.empty());
    // Each case's bucket is its own: two cases with one title pattern would count one bug twice.
    EXPECT_TRUE(titles.insert(bug.expect.title_contains + bug.expect.key_prefix).second);
    if (!bug.needs_gpu && bug.confirmed && bug.does_not_reproduce.empty()) ++confirmed_compile_side;
    // A case that needs no GPU can be confirmed here, so it must be.
    if (!bug.needs_gpu && bug.does_not_reproduce.empty()) EXPECT_TRUE(bug.confirmed);
  }
  EXPECT_GE(confirmed_compile_side, 8u);
}

TEST(RecallSuite, ACaseReadsEveryField) {
  const KnownBugCase bug = sample_case();
  EXPECT_EQ(bug.name, "sample");
  EXPECT_EQ(bug.mode, cudiff::runners::Mode::syntax);
  EXPECT_EQ(bug.reproduces_with.at("clang"), "22.1.8");
  EXPECT_EQ(bug.expect.kinds, (std::vector<std::string>{"missed_diagnostic", "missed_by_all"}));
  EXPECT_EQ(bug.expect.stage, "frontend");
  EXPECT_EQ(bug.expect.title_contains, "R-KPARAM-REF");
  EXPECT_TRUE(bug.confirmed);
  EXPECT_FALSE(bug.needs_gpu);
}

TEST(RecallSuite, MalformedCasesAreRefusedNamingTheFileAndField) {
  cudiff::TempDir temp("cudiff-recall-test");
  auto with = [&](const std::string& name, const std::string& from, const std::string& to) {
    std::string text = valid_case;
    text.replace(text.find(from), from.size(), to);
    return write_case(temp, name, text);
  };
  const auto not_json = write_case(temp, "not_json", "{ \"title\": ");
  const auto bad_kind = with("bad_kind", "\"missed_by_all\"", "\"no_such_kind\"");
  const auto bad_stage = with("bad_stage", "\"frontend\"", "\"cicc\"");
  const auto both_buckets = with("both_buckets", "\"title_contains\"", "\"key_prefix\": \"ab\", \"title_contains\"");
  const auto no_file = with("no_file", "\"repro.cu\"", "\"missing.cu\"");
  const auto bad_mode = with("bad_mode", "\"syntax\"", "\"link\"");
  const auto no_gpu_flag = with("no_gpu_flag", "\"needs_gpu\": false,", "");
  for (const auto& [dir, field] :
       std::vector<std::pair<std::filesystem::path, std::string>>{{not_json, "not JSON"},
                                                                  {bad_kind, "no_such_kind"},
                                                                  {bad_stage, "cicc"},
                                                                  {both_buckets, "exactly one of"},
                                                                  {no_file, "missing.cu"},
                                                                  {bad_mode, "link"},
                                                                  {no_gpu_flag, "needs_gpu"}}) {
    SCOPED_TRACE(dir.filename().string());
    const std::string message = message_of([&] { cudiff::campaign::read_known_bug(dir); });
    EXPECT_TRUE(contains(message, (dir / "case.json").string())) << message;
    EXPECT_TRUE(contains(message, field)) << message;
    EXPECT_EQ(error_kind_of([&] { cudiff::campaign::read_known_bug(dir); }), cudiff::ErrorKind::usage);
  }
  EXPECT_EQ(error_kind_of([&] { cudiff::campaign::read_known_bugs(temp.path() / "nothing"); }),
            cudiff::ErrorKind::usage);
}

TEST(RecallSuite, ConfigSetsKeepUnknownPresetsAsAReportNotAnError) {
  const auto set = cudiff::campaign::config_set("nvcc-O3, clang-O9-rdc ,clang-O0,nvcc-O3", std::string("sm_80"));
  ASSERT_EQ(set.configs.size(), 2u);  // the repeated nvcc-O3 once
  EXPECT_EQ(set.configs[0].name, "nvcc-O3");
  EXPECT_EQ(set.configs[1].name, "clang-O0");
  EXPECT_EQ(set.configs[0].arch, "sm_80");
  EXPECT_EQ(set.unknown, (std::vector<std::string>{"clang-O9-rdc"}));
  EXPECT_FALSE(set.per_case);
  const auto per_case = cudiff::campaign::config_set("case", std::string("sm_80"));
  EXPECT_TRUE(per_case.per_case);
  EXPECT_EQ(per_case.arch, "sm_80");  // given on to each case's own presets
}

TEST(RecallJudge, AFindingOfTheKindInTheBucketWithoutAStageIsFoundWithNoStage) {
  cudiff::oracle::Verdict verdict;
  verdict.findings = {finding(cudiff::oracle::FindingKind::missed_diagnostic)};
  const CaseOutcome outcome = cudiff::campaign::judge_known_bug(
      sample_case(), verdict, {signature("clang+nvcc misses the diagnostic for R-KPARAM-REF (no compiler rejects)")});
  EXPECT_EQ(outcome.status, "found");
  EXPECT_TRUE(outcome.found);
  EXPECT_TRUE(outcome.right_bucket);
  EXPECT_EQ(outcome.stage, "no stage");
  EXPECT_EQ(outcome.found_kind, "missed_diagnostic");
}

TEST(RecallJudge, TheStageIsComparedWhenTheFindingCarriesOne) {
  const KnownBugCase bug = sample_case();
  cudiff::oracle::Verdict verdict;
  verdict.findings = {finding(cudiff::oracle::FindingKind::missed_by_all, "frontend")};
  EXPECT_EQ(cudiff::campaign::judge_known_bug(bug, verdict, {signature("R-KPARAM-REF")}).stage, "right");
  verdict.findings = {finding(cudiff::oracle::FindingKind::missed_by_all, "ptxas")};
  EXPECT_EQ(cudiff::campaign::judge_known_bug(bug, verdict, {signature("R-KPARAM-REF")}).stage, "wrong (ptxas)");
  // Before attribution a crash names the tool that died: not a stage, so not counted wrong.
  verdict.findings = {finding(cudiff::oracle::FindingKind::missed_by_all, "clang")};
  EXPECT_EQ(cudiff::campaign::judge_known_bug(bug, verdict, {signature("R-KPARAM-REF")}).stage, "no stage");
}

TEST(RecallJudge, TheFindingInTheRightBucketIsPreferredAndOtherKindsDoNotCount) {
  const KnownBugCase bug = sample_case();
  cudiff::oracle::Verdict verdict;
  verdict.findings = {finding(cudiff::oracle::FindingKind::crash),
                      finding(cudiff::oracle::FindingKind::missed_diagnostic),
                      finding(cudiff::oracle::FindingKind::missed_diagnostic)};
  const CaseOutcome outcome = cudiff::campaign::judge_known_bug(bug, verdict,
                                                                {signature("R-KPARAM-REF crash"), signature("R-OTHER"),
                                                                 signature("misses R-KPARAM-REF")});
  EXPECT_TRUE(outcome.found);
  EXPECT_TRUE(outcome.right_bucket);
  EXPECT_EQ(outcome.found_title, "misses R-KPARAM-REF");

  verdict.findings = {finding(cudiff::oracle::FindingKind::missed_diagnostic)};
  const CaseOutcome wrong_bucket = cudiff::campaign::judge_known_bug(bug, verdict, {signature("R-OTHER")});
  EXPECT_TRUE(wrong_bucket.found);
  EXPECT_FALSE(wrong_bucket.right_bucket);
  EXPECT_TRUE(contains(wrong_bucket.note, "R-OTHER")) << wrong_bucket.note;

  verdict.findings = {finding(cudiff::oracle::FindingKind::crash)};
  const CaseOutcome missed = cudiff::campaign::judge_known_bug(bug, verdict, {signature("R-KPARAM-REF")});
  EXPECT_EQ(missed.status, "missed");
  EXPECT_FALSE(missed.found);
  EXPECT_TRUE(contains(missed.note, "crash")) << missed.note;

  verdict.findings.clear();
  verdict.agreement = "all accept";
  EXPECT_TRUE(contains(cudiff::campaign::judge_known_bug(bug, verdict, {}).note, "all accept"));
}

TEST(RecallJudge, ABucketNamedByKeyPrefixMatchesTheKey) {
  cudiff::TempDir temp("cudiff-recall-test");
  std::string text = valid_case;
  const std::string from = "\"title_contains\": \"R-KPARAM-REF\"";
  text.replace(text.find(from), from.size(), "\"key_prefix\": \"0011\"");
  const KnownBugCase bug = cudiff::campaign::read_known_bug(write_case(temp, "by_key", text));
  cudiff::oracle::Verdict verdict;
  verdict.findings = {finding(cudiff::oracle::FindingKind::missed_diagnostic)};
  EXPECT_TRUE(cudiff::campaign::judge_known_bug(bug, verdict, {signature("anything")}).right_bucket);
  EXPECT_FALSE(cudiff::campaign::judge_known_bug(bug, verdict, {signature("anything", "ff00")}).right_bucket);
}
