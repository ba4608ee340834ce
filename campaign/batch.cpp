// campaign: one batch — generate, check, and pin each finding on one test. A discrepancy in a
// batch is never filed as it is: the test responsible is isolated (isolation.cpp) and must
// show the same signature when checked alone (docs/architecture.md, "Speed").
#include "campaign/batch_parts.h"
#include "pipeline/attribution.h"
#include "pipeline/record.h"

#include <algorithm>
#include <chrono>
#include <functional>

namespace cudiff::campaign {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// The seeds of a batch whose tests own an item (a kernel, a layout probe) `owns` accepts,
/// from the batch's sidecar: its tests, one sidecar per seed.
template <typename Item>
std::set<std::uint64_t> seeds_owning(const generator::Sidecar& batch_sidecar,
                                     std::optional<std::vector<Item>> generator::Sidecar::* items,
                                     const std::function<bool(const Item&)>& owns) {
  std::set<std::uint64_t> seeds;
  if (!batch_sidecar.batch) return seeds;
  for (const generator::Sidecar& test : batch_sidecar.batch->tests)
    if (test.seed && test.*items && std::ranges::any_of(*(test.*items), owns)) seeds.insert(*test.seed);
  return seeds;
}

/// The seeds a finding names: the tests whose kernels print the differing checksum lines (run
/// and wrong-code findings) or whose type's layout differs (layout findings).
std::set<std::uint64_t> named_seeds(const oracle::Finding& finding, const generator::Sidecar& batch_sidecar) {
  using Kernel = generator::Sidecar::Kernel;
  using LayoutProbe = generator::Sidecar::LayoutProbe;
  std::set<std::uint64_t> seeds;
  if (oracle::is_run_kind(finding.kind)) {
    if (const auto* kernels = finding.details.if_contains("differing_kernels"); kernels && kernels->is_array())
      for (const auto& kernel : kernels->as_array())
        if (kernel.is_string())
          seeds.merge(seeds_owning<Kernel>(batch_sidecar, &generator::Sidecar::kernels,
                                           [&](const Kernel& owned) { return owned.name == kernel.as_string(); }));
  } else if (finding.kind == oracle::FindingKind::layout_mismatch) {
    if (const auto* type = finding.details.if_contains("type"); type && type->is_string())
      seeds = seeds_owning<LayoutProbe>(batch_sidecar, &generator::Sidecar::layout_probes,
                                        [&](const LayoutProbe& probe) { return probe.type == type->as_string(); });
  }
  return seeds;
}

/// The sanitizer gate on a test alone (a batch of one, built and run as an ordinary process)
/// whose check shows a run-time finding, run here while its binaries exist; isolation decides
/// what the result means (isolation.cpp, pin). A batch of several is never gated: its
/// findings are pinned on single seeds first.
void sanitizer_gate(const FuzzContext& context, const generator::TestCase& test, const pipeline::TestCheck& run,
                    BatchCheck& checked) {
  const bool alone = test.sidecar.batch && test.sidecar.batch->seeds.size() == 1;
  if (!alone || std::ranges::none_of(checked.findings,
                                     [](const oracle::Finding& finding) { return oracle::is_run_kind(finding.kind); }))
    return;
  const pipeline::GateOutcome gate = pipeline::sanitizer_gate(context.sanitizer_gate, run, test.source, test.sidecar);
  checked.gate = gate;
  if (gate.result == pipeline::GateResult::invalid)
    checked.invalid = pipeline::invalid_test_of(gate, run, checked.source_name, test.source);
}

/// One generated test checked: its findings, their keys, and what a report keeps of it.
BatchCheck check_generated(const FuzzContext& context, const generator::TestCase& test, pipeline::CheckRequest request,
                           const runners::GpuDiscovery& gpu, const std::filesystem::path& workdir,
                           BatchOutcome& stats) {
  const std::filesystem::path dir = workdir / test.name;
  std::filesystem::create_directories(dir);
  request.input = pipeline::TestInput{test.name + ".cu", test.source, std::nullopt, test.sidecar, {}, {}};
  const pipeline::TestCheck run = pipeline::check_test(request, context.toolchain, gpu, dir);
  BatchCheck checked;
  checked.findings = run.verdict.findings;
  checked.signatures = pipeline::signatures_of(run);
  for (const oracle::Finding& finding : checked.findings)
    checked.named_seeds.push_back(named_seeds(finding, test.sidecar));
  checked.source_name = test.name + ".cu";
  checked.source = test.source;
  if (!checked.agree()) checked.outputs = pipeline::outputs_json(run);
  sanitizer_gate(context, test, run, checked);
  stats.checks += 1;
  stats.compiles += run.configs.size();
  for (const pipeline::ConfigCheck& config : run.configs) {
    if (config.run_process && config.run_process->started) {
      const double start = std::chrono::duration<double>(config.run_process->start_time.time_since_epoch()).count();
      stats.runs.push_back(RunSpan{start, start + config.run_process->wall_seconds});
    }
  }
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);  // outputs are in `checked`; artifacts are not kept
  return checked;
}

BatchCheck check_seed_batch(const FuzzContext& context, const std::vector<std::uint64_t>& seeds,
                            const runners::GpuDiscovery& gpu, const std::filesystem::path& workdir,
                            BatchOutcome& stats) {
  pipeline::CheckRequest request = context.check;
  // Several seeds: the executor path. A seed alone is what gets filed (and gated, attributed,
  // reduced): it runs as a process, as a person re-running it would.
  if (seeds.size() > 1) request.executor = context.executor_for(gpu);
  // A batch is K programs: a compile may take longer than one program's before it is a hang.
  // Every test in the unit counts: the seeds and each one's variants.
  const double tests = static_cast<double>(seeds.size()) * (1.0 + static_cast<double>(context.variants));
  const double scale = 1.0 + pipeline::kBatchTestShare * (tests - 1);
  request.compile_limits.wall_seconds *= scale;
  request.run_limits.wall_seconds *= scale;
  return check_generated(context, generator::generate_batch(context.policy, seeds, context.size, context.variants),
                         request, gpu, workdir, stats);
}

/// The violation fragment alone, as small a reproducer as a person could write: kept when it
/// shows the same signature as the whole edge program.
std::optional<BatchCheck> fragment_alone(const FuzzContext& context, const std::string& rule_id,
                                         const triage::Signature& signature, const runners::GpuDiscovery& gpu,
                                         const std::filesystem::path& workdir, BatchOutcome& stats) {
  pipeline::CheckRequest request = context.check;
  request.mode = runners::Mode::object;
  BatchCheck alone = check_generated(context, generator::violation_alone(rule_id), request, gpu, workdir, stats);
  for (const triage::Signature& found : alone.signatures)
    if (found.key == signature.key) return alone;
  return std::nullopt;
}

/// The stderr of the compile a crash finding is about, from what the check kept of it.
std::string crash_output_of(const boost::json::object& outputs, const oracle::Finding& finding) {
  if (finding.kind != oracle::FindingKind::crash || finding.configs.empty()) return {};
  const auto* configs = outputs.if_contains("configs");
  if (configs == nullptr || !configs->is_array()) return {};
  for (const auto& entry : configs->as_array()) {
    if (!entry.is_object()) continue;
    const auto* config = entry.as_object().if_contains("config");
    const auto* err = entry.as_object().if_contains("stderr");
    if (config && config->is_string() && config->as_string() == finding.configs.front() && err && err->is_string())
      return std::string(err->as_string());
  }
  return {};
}

/// Stage attribution of a seed's pinned findings (docs/pipeline.md, "Stage attribution"): the
/// check's artifacts are gone, so `test` (the seed alone, regenerated) is rebuilt as needed;
/// each finding gets its stage and its signature again, now with the stage.
/// The seed's sanitizer gate ran before (isolation.cpp, pin): its run-time findings reach here
/// only when the program is not invalid.
void attribute_pinned(const FuzzContext& context, const generator::TestCase& test, const runners::GpuDiscovery& gpu,
                      const std::filesystem::path& workdir, BatchOutcome& stats, SeedOutcome& outcome) {
  pipeline::AttributionRequest request;
  request.input = pipeline::TestInput{test.name + ".cu", test.source, std::nullopt, test.sidecar, {}, {}};
  request.configs = context.check.configs;
  request.compile_limits = context.check.compile_limits;
  request.run_limits = context.check.run_limits;
  const std::filesystem::path dir = workdir / (test.name + ".attribution");
  for (std::size_t i = 0; i < outcome.findings.size() && i < outcome.signatures.size(); ++i) {
    oracle::Finding& finding = outcome.findings[i];
    if (!pipeline::attributable(finding)) continue;
    request.crash_output = crash_output_of(outcome.outputs, finding);
    const pipeline::StageAttribution attribution = pipeline::attribute_stage(finding, request, context.toolchain, gpu,
                                                                             dir);
    stats.compiles += attribution.builds;
    pipeline::record_stage(finding, attribution);
    outcome.signatures[i] = triage::signature_of(finding, request.crash_output);
  }
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);  // as a check's, the rebuilds' artifacts are not kept
}

/// An edge program, checked alone in object mode: nothing runs (a must-reject program has no
/// defined output), and a rejection in any stage up to the device assembler counts.
SeedOutcome check_edge_seed(const FuzzContext& context, std::uint64_t seed, const runners::GpuDiscovery& gpu,
                            const std::filesystem::path& workdir, BatchOutcome& stats) {
  const generator::TestCase test = generator::generate_edge(context.policy, seed, context.size);
  pipeline::CheckRequest request = context.check;
  request.mode = runners::Mode::object;
  BatchCheck checked = check_generated(context, test, request, gpu, workdir, stats);
  SeedOutcome outcome;
  outcome.seed = seed;
  outcome.edge = true;
  if (checked.agree()) return outcome;
  outcome.discrepancy = true;
  outcome.findings = checked.findings;
  outcome.signatures = checked.signatures;
  outcome.source_name = checked.source_name;
  outcome.source = checked.source;
  outcome.outputs = checked.outputs;
  const oracle::FindingKind kind = outcome.findings.front().kind;
  if (outcome.findings.size() == 1 &&
      (kind == oracle::FindingKind::missed_diagnostic || kind == oracle::FindingKind::dialect_difference ||
       kind == oracle::FindingKind::missed_by_all)) {
    const std::string& rule = test.sidecar.edge->rule;  // generate_edge always plants one
    if (std::optional<BatchCheck> alone = fragment_alone(context, rule, outcome.signatures.front(), gpu, workdir,
                                                         stats)) {
      outcome.source_name = alone->source_name;
      outcome.source = alone->source;
      outcome.outputs = alone->outputs;
    }
  }
  attribute_pinned(context, test, gpu, workdir, stats, outcome);
  return outcome;
}

} // namespace

std::shared_ptr<runners::ExecutorPool> FuzzContext::executor_for(const runners::GpuDiscovery& gpu) const {
  if (gpu.gpus.empty()) return nullptr;
  for (const auto& pool : executors)
    if (pool && pool->gpu().index == gpu.gpus.front().index) return pool;
  return nullptr;
}

std::vector<std::uint64_t> seeds_rejected_on_purpose(const generator::Policy& policy, generator::Size size,
                                                     const std::vector<std::uint64_t>& seeds,
                                                     const std::vector<runners::Config>& configs) {
  std::set<std::string> compilers;
  for (const runners::Config& config : configs) compilers.insert(runners::to_string(config.compiler));
  std::vector<std::uint64_t> rejected;
  for (std::uint64_t seed : seeds) {
    const std::set<std::string> rejecting = generator::rejecting_compilers(
        generator::generate_program(policy, seed, size).sidecar);
    if (std::ranges::any_of(rejecting, [&](const std::string& compiler) { return compilers.count(compiler) != 0; }))
      rejected.push_back(seed);
  }
  return rejected;
}

BatchOutcome fuzz_batch(const FuzzContext& context, const std::vector<std::uint64_t>& all_seeds,
                        const runners::GpuDiscovery& gpu, const std::filesystem::path& workdir,
                        const Activity& activity) {
  const auto start = std::chrono::steady_clock::now();
  const std::string batch = "batch " + std::to_string(all_seeds.empty() ? 0 : all_seeds.front());
  const auto say = [&](const std::string& what) {
    if (activity) activity(what);
  };
  BatchOutcome outcome;
  std::vector<std::uint64_t> seeds;
  std::map<std::uint64_t, SeedOutcome> pinned;
  for (std::uint64_t seed : all_seeds) {
    if (generator::is_edge_seed(context.policy, seed)) {
      say("checking edge seed " + std::to_string(seed));
      pinned[seed] = check_edge_seed(context, seed, gpu, workdir, outcome);
    } else {
      seeds.push_back(seed);
    }
  }
  bool isolating = false;  // after the batch's own check, every check is part of an isolation
  // Past the campaign's deadline every subprocess is refused and the batch will be dropped
  // (loop.cpp): no more checks are made for it.
  const auto stop_if_late = [&] {
    if (std::chrono::steady_clock::now() >= context.check.compile_limits.deadline)
      throw_environment("stopped at the campaign's deadline");
  };
  const BatchChecker check = [&](const std::vector<std::uint64_t>& part) {
    stop_if_late();
    say(isolating ? "isolating " + batch + ": " + std::to_string(part.size()) + " seed" + (part.size() == 1 ? "" : "s")
                  : "checking " + batch);
    return check_seed_batch(context, part, gpu, workdir, outcome);
  };
  const SettlePinned attribute = [&](SeedOutcome& pinned_seed) {
    stop_if_late();
    say("attributing seed " + std::to_string(pinned_seed.seed));
    attribute_pinned(context,
                     generator::generate_batch(context.policy, {pinned_seed.seed}, context.size, context.variants), gpu,
                     workdir, outcome, pinned_seed);
  };
  // A program a compiler rejects on purpose would make that compiler reject the whole batch:
  // each is checked alone (a batch of one, pinned without halving), the others together.
  for (std::uint64_t seed : seeds_rejected_on_purpose(context.policy, context.size, seeds, context.check.configs)) {
    std::erase(seeds, seed);
    isolating = false;
    const BatchCheck alone = check({seed});
    isolating = true;
    if (!alone.agree()) pinned.merge(isolate_findings({seed}, alone, check, outcome.notes, attribute));
  }
  isolating = false;
  const BatchCheck checked = seeds.empty() ? BatchCheck{} : check(seeds);
  isolating = true;
  if (!checked.agree()) pinned.merge(isolate_findings(seeds, checked, check, outcome.notes, attribute));
  for (std::uint64_t seed : all_seeds) {
    auto found = pinned.find(seed);
    if (found != pinned.end()) {
      outcome.seeds.push_back(std::move(found->second));
    } else {
      SeedOutcome agree;
      agree.seed = seed;
      outcome.seeds.push_back(std::move(agree));
    }
  }
  outcome.seconds = seconds_since(start);
  return outcome;
}

} // namespace cudiff::campaign
