// campaign: isolation — a batch's findings pinned on single seeds. Findings that name their
// tests (run, wrong-code and layout findings, through the batch's sidecar) send those seeds straight to a
// check alone; otherwise the batch is halved until each finding sits on one seed, which must
// show the same signature alone (docs/architecture.md, "Speed").
#include "campaign/batch_parts.h"

namespace cudiff::campaign {
namespace {

class Isolator {
public:
  Isolator(const BatchChecker& check, std::set<std::string> batch_keys, std::vector<std::string>& notes,
           const SettlePinned& settle)
      : check_(check), batch_keys_(std::move(batch_keys)), notes_(notes), settle_(settle) {}

  std::map<std::uint64_t, SeedOutcome> pinned;

  void isolate(const std::vector<std::uint64_t>& seeds, const BatchCheck& checked) {
    if (seeds.size() == 1) return pin(seeds.front(), checked);
    // Run and layout findings name their tests: check those alone, no halving needed.
    std::set<std::uint64_t> named;
    bool all_named = true;
    for (std::size_t i = 0; i < checked.findings.size(); ++i) {
      const oracle::FindingKind kind = checked.findings[i].kind;
      const bool labelled_kind = oracle::is_run_kind(kind) || kind == oracle::FindingKind::layout_mismatch;
      std::set<std::uint64_t> in_batch;
      if (i < checked.named_seeds.size())
        for (std::uint64_t seed : checked.named_seeds[i])
          if (std::find(seeds.begin(), seeds.end(), seed) != seeds.end()) in_batch.insert(seed);
      if (!labelled_kind || in_batch.empty()) all_named = false;
      named.insert(in_batch.begin(), in_batch.end());
    }
    if (all_named) {
      for (std::uint64_t seed : named) pin(seed, check_({seed}));
      return;
    }
    const std::size_t half = seeds.size() / 2;
    bool any = false;
    for (auto part : {std::vector<std::uint64_t>(seeds.begin(), seeds.begin() + static_cast<std::ptrdiff_t>(half)),
                      std::vector<std::uint64_t>(seeds.begin() + static_cast<std::ptrdiff_t>(half), seeds.end())}) {
      const BatchCheck checked_part = check_(part);
      if (checked_part.agree()) continue;
      any = true;
      isolate(part, checked_part);
    }
    if (!any)
      notes_.push_back("seeds " + std::to_string(seeds.front()) + ".." + std::to_string(seeds.back()) +
                       " disagree together but no half does: not filed");
  }

private:
  /// `checked` is the seed alone: its findings with a key the batch showed are filed on it,
  /// once they pass the sanitizer gate.
  void pin(std::uint64_t seed, const BatchCheck& checked) {
    SeedOutcome outcome;
    outcome.seed = seed;
    // Step 1: the sanitizer gate (fuzz_batch ran it on the seed alone). A program whose run
    // faults is invalid: its run-time findings are the program's defect, never a compiler bug.
    const bool invalid = sanitizer_rejected(seed, checked, outcome);
    // Step 2, stage attribution, is settle_ below (after the key match): what is filed may be
    // attributed to a stage; what step 1 withheld never is.
    for (std::size_t i = 0; i < checked.findings.size(); ++i) {
      if (invalid && oracle::is_run_kind(checked.findings[i].kind)) continue;
      if (!batch_keys_.count(checked.signatures[i].key)) {
        notes_.push_back("seed " + std::to_string(seed) + " alone shows " + checked.signatures[i].title +
                         ", which its batch did not: not filed");
        continue;
      }
      outcome.findings.push_back(checked.findings[i]);
      if (checked.gate && oracle::is_run_kind(checked.findings[i].kind))
        pipeline::mark_gated(outcome.findings.back(), *checked.gate);
      outcome.signatures.push_back(checked.signatures[i]);
    }
    if (outcome.findings.empty() && !invalid) return;
    outcome.discrepancy = !outcome.findings.empty();
    outcome.source_name = checked.source_name;
    outcome.source = checked.source;
    outcome.outputs = checked.outputs;
    // After the key match (the batch's keys were computed without a stage): attribution.
    if (settle_) settle_(outcome);
    pinned[seed] = std::move(outcome);
  }

  /// Whether the gate found the seed's program invalid; if so the outcome keeps what the
  /// invalid-tests list needs and a note says the finding was not filed.
  bool sanitizer_rejected(std::uint64_t seed, const BatchCheck& checked, SeedOutcome& outcome) {
    if (!checked.gate || checked.gate->result != pipeline::GateResult::invalid) return false;
    outcome.invalid = checked.invalid.value_or(triage::InvalidTest{});
    outcome.invalid->seed = std::to_string(seed);
    notes_.push_back("seed " + std::to_string(seed) + ": " + checked.gate->note + ": not filed");
    return true;
  }

  const BatchChecker& check_;
  std::set<std::string> batch_keys_;
  std::vector<std::string>& notes_;
  const SettlePinned& settle_;
};

} // namespace

std::map<std::uint64_t, SeedOutcome> isolate_findings(const std::vector<std::uint64_t>& seeds,
                                                      const BatchCheck& checked, const BatchChecker& check,
                                                      std::vector<std::string>& notes, const SettlePinned& settle) {
  std::set<std::string> keys;
  for (const triage::Signature& signature : checked.signatures) keys.insert(signature.key);
  Isolator isolator(check, std::move(keys), notes, settle);
  isolator.isolate(seeds, checked);
  return std::move(isolator.pinned);
}

} // namespace cudiff::campaign
