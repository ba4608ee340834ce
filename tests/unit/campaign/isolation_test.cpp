// campaign::isolate_findings with a scripted check: which seeds a batch's findings are pinned
// on, how many checks it takes, and what is not filed.
#include "campaign/batch_parts.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace cudiff::campaign {
namespace {

oracle::Finding finding(oracle::FindingKind kind) {
  oracle::Finding f;
  f.kind = kind;
  f.summary = oracle::to_string(kind);
  return f;
}

/// A pretend set of programs: each seed in `culprits` shows the finding `key` (of `kind`),
/// alone or with others; a check of seeds shows every culprit's finding once per key. Run
/// and layout findings name their culprits, as the batch's sidecar lets a real check do.
struct ScriptedPrograms {
  std::map<std::uint64_t, std::string> culprits;  ///< seed -> key
  oracle::FindingKind kind = oracle::FindingKind::compile_status_mismatch;
  std::set<std::uint64_t> shows_only_together;  ///< these show "together" only when all are checked at once
  std::vector<std::vector<std::uint64_t>> checked;  ///< every check, in order

  BatchCheck check(const std::vector<std::uint64_t>& seeds) {
    checked.push_back(seeds);
    BatchCheck result;
    std::map<std::string, std::set<std::uint64_t>> by_key;
    for (std::uint64_t seed : seeds)
      if (auto found = culprits.find(seed); found != culprits.end()) by_key[found->second].insert(seed);
    if (!shows_only_together.empty() &&
        std::ranges::all_of(shows_only_together, [&](std::uint64_t s) { return std::ranges::count(seeds, s) > 0; }))
      by_key["together"];
    for (const auto& [key, seeds_with_it] : by_key) {
      result.findings.push_back(finding(key == "together" ? oracle::FindingKind::compile_status_mismatch : kind));
      triage::Signature signature;
      signature.key = key;
      signature.title = "finding " + key;
      result.signatures.push_back(signature);
      const bool names = kind == oracle::FindingKind::run_mismatch || kind == oracle::FindingKind::layout_mismatch;
      result.named_seeds.push_back(names && key != "together" ? seeds_with_it : std::set<std::uint64_t>{});
    }
    result.source_name = "batch_" + std::to_string(seeds.front()) + "_" + std::to_string(seeds.size()) + ".cu";
    result.source = "// seeds";
    for (std::uint64_t seed : seeds) result.source += " " + std::to_string(seed);
    return result;
  }
};

std::vector<std::uint64_t> seeds(std::uint64_t first, std::uint64_t count) {
  std::vector<std::uint64_t> all;
  for (std::uint64_t s = first; s < first + count; ++s) all.push_back(s);
  return all;
}

std::map<std::uint64_t, SeedOutcome> isolate(ScriptedPrograms& programs, const std::vector<std::uint64_t>& batch,
                                             std::vector<std::string>& notes) {
  const BatchCheck whole = programs.check(batch);
  const BatchChecker check = [&](const std::vector<std::uint64_t>& part) { return programs.check(part); };
  return isolate_findings(batch, whole, check, notes);
}

TEST(Isolation, HalvingPinsACompileFindingOnItsSeedAndItsSourceIsTheSeedAlone) {
  ScriptedPrograms programs;
  programs.culprits = {{13, "k1"}};
  std::vector<std::string> notes;
  const auto pinned = isolate(programs, seeds(10, 8), notes);
  ASSERT_EQ(pinned.size(), 1u);
  const SeedOutcome& outcome = pinned.at(13);
  EXPECT_TRUE(outcome.discrepancy);
  ASSERT_EQ(outcome.signatures.size(), 1u);
  EXPECT_EQ(outcome.signatures[0].key, "k1");
  EXPECT_EQ(outcome.source, "// seeds 13");  // the reproducer is the seed alone, not the batch
  EXPECT_TRUE(notes.empty());
  // 8 -> 4 -> 2 -> 1: the whole batch, then two halves at each of three levels.
  EXPECT_EQ(programs.checked.size(), 1u + 2 + 2 + 2);
}

TEST(Isolation, TwoCulpritsInDifferentHalvesAreBothPinned) {
  ScriptedPrograms programs;
  programs.culprits = {{1, "a"}, {6, "b"}};
  std::vector<std::string> notes;
  const auto pinned = isolate(programs, seeds(0, 8), notes);
  ASSERT_EQ(pinned.size(), 2u);
  EXPECT_EQ(pinned.at(1).signatures[0].key, "a");
  EXPECT_EQ(pinned.at(6).signatures[0].key, "b");
}

TEST(Isolation, RunFindingsThatNameTheirSeedsGoStraightToThoseSeedsAlone) {
  ScriptedPrograms programs;
  programs.kind = oracle::FindingKind::run_mismatch;
  programs.culprits = {{3, "run"}, {5, "run"}};
  std::vector<std::string> notes;
  const auto pinned = isolate(programs, seeds(0, 8), notes);
  ASSERT_EQ(pinned.size(), 2u);
  EXPECT_TRUE(pinned.count(3) && pinned.count(5));
  // The batch, then seed 3 alone and seed 5 alone: no halving.
  ASSERT_EQ(programs.checked.size(), 3u);
  EXPECT_EQ(programs.checked[1], (std::vector<std::uint64_t>{3}));
  EXPECT_EQ(programs.checked[2], (std::vector<std::uint64_t>{5}));
}

TEST(Isolation, AFindingNoHalfShowsIsNotFiledButNoted) {
  ScriptedPrograms programs;
  programs.shows_only_together = {2, 5};  // an interaction across the halves
  std::vector<std::string> notes;
  const auto pinned = isolate(programs, seeds(0, 8), notes);
  EXPECT_TRUE(pinned.empty());
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("disagree together but no half does"), std::string::npos) << notes[0];
}

TEST(Isolation, ASeedAloneIsChargedOnlyWithKeysItsBatchShowed) {
  // Seed 4 shows "k" in the batch; alone it shows "k" and also "alone-only".
  ScriptedPrograms programs;
  programs.kind = oracle::FindingKind::layout_mismatch;
  programs.culprits = {{4, "k"}};
  std::vector<std::string> notes;
  const BatchCheck whole = programs.check(seeds(0, 4 + 1));
  const BatchChecker check = [&](const std::vector<std::uint64_t>& part) {
    BatchCheck result = programs.check(part);
    if (part == std::vector<std::uint64_t>{4}) {
      result.findings.push_back(finding(oracle::FindingKind::crash));
      triage::Signature extra;
      extra.key = "alone-only";
      extra.title = "a crash alone";
      result.signatures.push_back(extra);
      result.named_seeds.push_back({});
    }
    return result;
  };
  const auto pinned = isolate_findings(seeds(0, 5), whole, check, notes);
  ASSERT_EQ(pinned.size(), 1u);
  ASSERT_EQ(pinned.at(4).signatures.size(), 1u);
  EXPECT_EQ(pinned.at(4).signatures[0].key, "k");
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("which its batch did not: not filed"), std::string::npos) << notes[0];
}

TEST(Isolation, ASingleSeedIsPinnedWithoutAnotherCheck) {
  ScriptedPrograms programs;
  programs.culprits = {{9, "k"}};
  std::vector<std::string> notes;
  const auto pinned = isolate(programs, {9}, notes);
  ASSERT_EQ(pinned.size(), 1u);
  EXPECT_EQ(programs.checked.size(), 1u);
}

} // namespace
} // namespace cudiff::campaign
