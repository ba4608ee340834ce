// campaign::isolate_findings with the sanitizer gate's verdict on a seed alone (fuzz_batch
// runs the gate while the binaries exist; here a scripted check says what it found): an
// invalid program's run-time findings are never filed, its compile-time ones still are, and
// a clean or unchecked gate leaves its note on the filed finding.
#include "campaign/batch_parts.h"

#include <gtest/gtest.h>

namespace cudiff::campaign {
namespace {

oracle::Finding finding(oracle::FindingKind kind) {
  oracle::Finding f;
  f.kind = kind;
  f.summary = oracle::to_string(kind);
  return f;
}

triage::Signature signature(const std::string& key) {
  triage::Signature s;
  s.key = key;
  s.title = "finding " + key;
  return s;
}

/// Seed 21 of 20..23 shows a run mismatch (and, when asked, a layout mismatch too); the
/// gate's verdict on it alone is `gate`.
struct GatedPrograms {
  std::optional<pipeline::GateResult> gate;
  std::string note;
  bool layout_too = false;

  BatchCheck check(const std::vector<std::uint64_t>& seeds) const {
    BatchCheck result;
    if (std::ranges::count(seeds, 21) == 0) return result;
    result.findings.push_back(finding(oracle::FindingKind::run_mismatch));
    result.signatures.push_back(signature("run"));
    result.named_seeds.push_back({21});
    if (layout_too) {
      result.findings.push_back(finding(oracle::FindingKind::layout_mismatch));
      result.signatures.push_back(signature("layout"));
      result.named_seeds.push_back({21});
    }
    result.source_name = seeds.size() == 1 ? "cudiff_21.cu" : "batch.cu";
    result.source = "// program";
    if (seeds.size() == 1 && gate) {
      result.gate = pipeline::GateOutcome{*gate, {}, {}, {}, note};
      if (*gate == pipeline::GateResult::invalid) {
        result.invalid = triage::InvalidTest{};
        result.invalid->tool = "memcheck";
        result.invalid->cause = "stack overflow";
      }
    }
    return result;
  }
};

std::map<std::uint64_t, SeedOutcome> isolate(const GatedPrograms& programs, std::vector<std::string>& notes) {
  const std::vector<std::uint64_t> batch = {20, 21, 22, 23};
  const BatchChecker check = [&](const std::vector<std::uint64_t>& part) { return programs.check(part); };
  return isolate_findings(batch, programs.check(batch), check, notes);
}

TEST(IsolationGate, AnInvalidProgramsRunMismatchIsNotFiledAndTheTestIsListed) {
  GatedPrograms programs{pipeline::GateResult::invalid, "sanitizer gate: INVALID program, not a compiler bug: ...",
                         false};
  std::vector<std::string> notes;
  const auto pinned = isolate(programs, notes);
  ASSERT_EQ(pinned.count(21), 1u);
  const SeedOutcome& outcome = pinned.at(21);
  EXPECT_TRUE(outcome.findings.empty());
  EXPECT_FALSE(outcome.discrepancy);
  ASSERT_TRUE(outcome.invalid.has_value());
  EXPECT_EQ(outcome.invalid->cause, "stack overflow");
  EXPECT_EQ(outcome.invalid->seed, "21");
  EXPECT_EQ(outcome.source_name, "cudiff_21.cu");
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes.front().find("not filed"), std::string::npos) << notes.front();
}

TEST(IsolationGate, AnInvalidProgramsCompileTimeFindingsAreStillFiled) {
  GatedPrograms programs{pipeline::GateResult::invalid, "sanitizer gate: INVALID program", true};
  std::vector<std::string> notes;
  const auto pinned = isolate(programs, notes);
  const SeedOutcome& outcome = pinned.at(21);
  ASSERT_EQ(outcome.findings.size(), 1u);
  EXPECT_EQ(outcome.findings.front().kind, oracle::FindingKind::layout_mismatch);
  EXPECT_TRUE(outcome.discrepancy);
  EXPECT_TRUE(outcome.invalid.has_value());
}

TEST(IsolationGate, ACleanOrUncheckedGateFilesTheFindingWithItsNote) {
  for (const auto& [result, note] : std::vector<std::pair<pipeline::GateResult, std::string>>{
           {pipeline::GateResult::clean, "sanitizer gate: clean (memcheck, initcheck on nvcc-O3, clang-O3)"},
           {pipeline::GateResult::not_checked, "not sanitizer-checked: compute-sanitizer not found"}}) {
    GatedPrograms programs{result, note, false};
    std::vector<std::string> notes;
    const auto pinned = isolate(programs, notes);
    const SeedOutcome& outcome = pinned.at(21);
    ASSERT_EQ(outcome.findings.size(), 1u);
    EXPECT_FALSE(outcome.invalid.has_value());
    const auto* gate = outcome.findings.front().details.if_contains("sanitizer_gate");
    ASSERT_NE(gate, nullptr);
    EXPECT_EQ(gate->as_string(), note);
  }
}

} // namespace
} // namespace cudiff::campaign
