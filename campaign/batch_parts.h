// campaign: one batch's internals — a batch generated, checked and each finding pinned on one
// seed (batch.cpp, isolation.cpp), and what the loop gets back. Internal to campaign/.
#pragma once

#include "generator/generator.h"
#include "oracle/oracle.h"
#include "pipeline/check.h"
#include "pipeline/sanitizer.h"
#include "runners/runners.h"
#include "triage/triage.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cudiff::campaign {

/// One seed's verdict after isolation, and the findings it is charged with.
struct SeedOutcome {
  std::uint64_t seed = 0;
  bool edge = false;  ///< an edge program (one planted E-rule violation), checked alone
  bool discrepancy = false;
  std::vector<oracle::Finding> findings;
  std::vector<triage::Signature> signatures;
  std::string source_name, source;  ///< the seed alone (a batch of one): the reproducer
  boost::json::object outputs;      ///< its check's commands and outputs
  /// Set when the sanitizer gate found its run faulting: its run-time findings were withheld
  /// (not in `findings`) and the test goes to the invalid-tests list instead.
  std::optional<triage::InvalidTest> invalid;
};

/// When a binary ran: steady-clock seconds (since the clock's epoch).
struct RunSpan {
  double start = 0, end = 0;
};

/// What fuzz_batch gives back: every seed's outcome after isolation, and what the splitting cost.
struct BatchOutcome {
  std::vector<SeedOutcome> seeds;
  std::size_t checks = 0;    ///< checks made (the batch itself, halves, single seeds)
  std::size_t compiles = 0;  ///< compiler invocations among them
  double seconds = 0;
  std::vector<RunSpan> runs;       ///< each binary's run, on the batch's GPU
  std::size_t gpu = 0;             ///< which of the campaign's GPUs (its position in CampaignSetup::gpus)
  std::vector<std::string> notes;  ///< e.g. a batch symptom no single test shows
};

/// What every worker shares (read-only while the campaign runs).
struct FuzzContext {
  generator::Policy policy;
  generator::Size size = generator::Size::small;
  pipeline::CheckRequest check;  ///< configs, mode, limits (the test is set per batch)
  runners::Toolchain toolchain;
  std::filesystem::path workdir;
  /// compute-sanitizer on a seed alone with a run-time finding (pipeline::sanitizer_gate).
  pipeline::SanitizerGate sanitizer_gate;  ///< off unless the campaign makes it
  int variants = 0;                        ///< variants per seed in its batch (FuzzParams::variants)
  /// Each GPU's executors (runners::ExecutorPool), when binaries run on the executor path; none:
  /// every binary runs as a process. Only a check of several seeds uses them: a seed alone (what
  /// isolation files, the sanitizer gate checks and attribution rebuilds) runs as a process, so
  /// every finding filed is one the process path shows.
  std::vector<std::shared_ptr<runners::ExecutorPool>> executors;
  std::shared_ptr<runners::ExecutorPool> executor_for(const runners::GpuDiscovery& gpu) const;
};

/// Says what a worker is doing now ("checking batch 1040", "isolating batch 1040: 4 seeds"),
/// for the progress line.
using Activity = std::function<void(const std::string& what)>;

/// The whole of one batch: generates it, checks it, and when it shows a discrepancy isolates each finding
/// (isolate_findings) on one seed. Seeds whose test is an edge program
/// (generator::is_edge_seed) are never batched: each is checked alone in object mode against
/// its expected rejection; a missed diagnostic is filed with the violation fragment alone as
/// its reproducer when that shows the same signature. `gpu` (one GPU, or none) is where
/// binaries run.
/// Seeds whose program a compiler of `check.configs` rejects on purpose
/// (generator::rejecting_compilers: a construct such as managed_memory, or a probe clang
/// rejects) are not batched either: each is checked alone, as a batch of one, so the rejection
/// costs neither its batch's other tests nor a bisection (docs/campaign.md, "Batches").
BatchOutcome fuzz_batch(const FuzzContext& context, const std::vector<std::uint64_t>& seeds,
                        const runners::GpuDiscovery& gpu, const std::filesystem::path& workdir,
                        const Activity& activity = {});

/// The seeds among `seeds` (none of them edge seeds) whose program one of the compilers of
/// `configs` rejects on purpose: fuzz_batch checks each of them alone.
std::vector<std::uint64_t> seeds_rejected_on_purpose(const generator::Policy& policy, generator::Size size,
                                                     const std::vector<std::uint64_t>& seeds,
                                                     const std::vector<runners::Config>& configs);

/// What one check of some seeds built as one batch (the whole batch, a half, one seed alone)
/// found: its findings and their keys.
struct BatchCheck {
  std::vector<oracle::Finding> findings;
  std::vector<triage::Signature> signatures;
  /// For each finding, the seeds whose tests it names (run and layout findings name the
  /// kernels and probes that differ; the batch's sidecar says whose they are); empty when the
  /// finding names none (a compile-time finding is about the whole translation unit).
  std::vector<std::set<std::uint64_t>> named_seeds;
  std::string source_name, source;  ///< what was checked: the reproducer when it is one seed
  boost::json::object outputs;
  /// The sanitizer gate's verdict on a seed alone with a run-time finding (fuzz_batch runs it
  /// while the binaries exist; none for a batch of several, or without such a finding), its
  /// one-line note and a confined fault's report (pipeline::mark_gated writes them into the
  /// findings), and for an invalid program what the invalid-tests list keeps.
  std::optional<pipeline::GateOutcome> gate;
  std::optional<triage::InvalidTest> invalid;
  bool agree() const { return findings.empty(); }
};
/// Checks the given seeds as one batch (fuzz_batch's check; the unit tests script one).
using BatchChecker = std::function<BatchCheck(const std::vector<std::uint64_t>& seeds)>;
/// What happens to a seed's findings once they are pinned on it (their keys matched the
/// batch's): stage attribution, which rewrites each finding's details and signature.
using SettlePinned = std::function<void(SeedOutcome& outcome)>;

/// Pins the findings of `checked` (the check of `seeds`) on single seeds: findings that all
/// name their seeds (run, layout) send those seeds straight to a check alone; otherwise the
/// seeds are halved and each half that still disagrees is split again. A seed alone is charged
/// only with findings whose key the batch showed. Notes say what could not be pinned. A seed
/// alone whose sanitizer gate found the program invalid is charged with none of its run-time
/// findings (SeedOutcome::invalid says why); the others carry the gate's note in their
/// details ("sanitizer_gate"). `settle`, when given, is then called on each pinned seed after
/// that key match (batch keys carry no stage).
std::map<std::uint64_t, SeedOutcome> isolate_findings(const std::vector<std::uint64_t>& seeds,
                                                      const BatchCheck& checked, const BatchChecker& check,
                                                      std::vector<std::string>& notes, const SettlePinned& settle = {});

} // namespace cudiff::campaign
