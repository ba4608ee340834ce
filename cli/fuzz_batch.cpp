// fuzz_batch: one batch of a campaign — generate, check, and pin each finding on one test.
// A discrepancy in a batch is never filed as it is: the test responsible is isolated (by its
// label when the finding names one, else by halving) and must show the same signature when
// checked alone (docs/architecture.md, "Speed").
#include "cli/fuzz.h"

#include <chrono>
#include <map>
#include <regex>
#include <set>

namespace cudiff::cli {
namespace {

/// One check of some seeds, with the keys of its findings.
struct Checked {
  CheckRun run;
  std::string name, source;
  std::vector<triage::Signature> signatures;
};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

Checked check_test(const FuzzContext& context, const generator::TestCase& test, CheckRequest request,
                   const runners::GpuDiscovery& gpu, const std::filesystem::path& workdir, BatchOutcome& stats) {
  const std::filesystem::path dir = workdir / test.name;
  std::filesystem::create_directories(dir);
  const std::filesystem::path file = dir / (test.name + ".cu");
  write_file(file, test.source);
  write_file(dir / (test.name + ".json"), pretty_json(test.sidecar));

  request.file = file;
  Checked checked;
  checked.name = test.name + ".cu";
  checked.source = test.source;
  checked.run = check_file(request, context.toolchain, gpu, dir);
  for (const oracle::Finding& finding : checked.run.verdict.findings)
    checked.signatures.push_back(triage::signature_of(finding, crash_output(checked.run, finding)));
  stats.checks += 1;
  stats.compiles += checked.run.configs.size();
  for (const ConfigCheck& config : checked.run.configs)
    if (config.run) stats.gpu_seconds += config.run->seconds;
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);  // outputs are in `checked`; artifacts are not kept
  return checked;
}

Checked check_seeds(const FuzzContext& context, const std::vector<std::uint64_t>& seeds, const runners::GpuDiscovery& gpu,
                    const std::filesystem::path& workdir, BatchOutcome& stats) {
  CheckRequest request = context.check;
  // A batch is K programs: a compile may take longer than one program's before it is a hang.
  const double scale = 1.0 + 0.25 * static_cast<double>(seeds.size() - 1);
  request.compile_limits.wall_seconds *= scale;
  request.run_limits.wall_seconds *= scale;
  return check_test(context, generator::generate_batch(context.policy, seeds, context.size), request, gpu, workdir, stats);
}

/// The violation fragment alone, as small a reproducer as a person could write: kept when it
/// shows the same signature as the whole edge program.
std::optional<Checked> fragment_alone(const FuzzContext& context, const std::string& rule_id,
                                      const triage::Signature& signature, const runners::GpuDiscovery& gpu,
                                      const std::filesystem::path& workdir, BatchOutcome& stats) {
  CheckRequest request = context.check;
  request.mode = runners::Mode::object;
  Checked alone = check_test(context, generator::violation_alone(rule_id), request, gpu, workdir, stats);
  for (const triage::Signature& found : alone.signatures)
    if (found.key == signature.key) return alone;
  return std::nullopt;
}

/// An edge program, checked alone in object mode: nothing runs (a must-reject program has no
/// defined output), and a rejection in any stage up to the device assembler counts.
SeedOutcome check_edge_seed(const FuzzContext& context, std::uint64_t seed, const runners::GpuDiscovery& gpu,
                            const std::filesystem::path& workdir, BatchOutcome& stats) {
  const generator::TestCase test = generator::generate_edge(context.policy, seed, context.size);
  CheckRequest request = context.check;
  request.mode = runners::Mode::object;
  Checked checked = check_test(context, test, request, gpu, workdir, stats);
  SeedOutcome outcome;
  outcome.seed = seed;
  outcome.edge = true;
  if (checked.run.verdict.agree()) return outcome;
  outcome.discrepancy = true;
  outcome.findings = checked.run.verdict.findings;
  outcome.signatures = checked.signatures;
  outcome.source_name = checked.name;
  outcome.source = checked.source;
  outcome.outputs = outputs_json(checked.run);
  if (outcome.findings.size() == 1 && outcome.findings.front().kind == oracle::FindingKind::missed_diagnostic) {
    const std::string rule(test.sidecar.at("edge").as_object().at("rule").as_string());
    if (std::optional<Checked> alone = fragment_alone(context, rule, outcome.signatures.front(), gpu, workdir, stats)) {
      outcome.source_name = alone->name;
      outcome.source = alone->source;
      outcome.outputs = outputs_json(alone->run);
    }
  }
  return outcome;
}

/// The seeds a finding names through the batch's labels: `s<seed>/kernel_N` in checksum
/// lines, `s<seed>_<type>` in layout probes.
std::set<std::uint64_t> labelled_seeds(const oracle::Finding& finding, const std::vector<std::uint64_t>& seeds) {
  static const std::regex label(R"((^|[^A-Za-z0-9_])s([0-9]+)[/_])");
  const std::set<std::uint64_t> in_batch(seeds.begin(), seeds.end());
  const std::string text = boost::json::serialize(finding.details) + "\n" + finding.summary;
  std::set<std::uint64_t> named;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), label); it != std::sregex_iterator(); ++it) {
    const std::uint64_t seed = std::stoull((*it)[2].str());
    if (in_batch.count(seed)) named.insert(seed);
  }
  return named;
}

class Isolator {
public:
  Isolator(const FuzzContext& context, const runners::GpuDiscovery& gpu, const std::filesystem::path& workdir,
           BatchOutcome& outcome, std::set<std::string> batch_keys)
      : context_(context), gpu_(gpu), workdir_(workdir), outcome_(outcome), batch_keys_(std::move(batch_keys)) {}

  std::map<std::uint64_t, SeedOutcome> pinned;

  void isolate(const std::vector<std::uint64_t>& seeds, const Checked& checked) {
    if (seeds.size() == 1) return pin(seeds.front(), checked);
    // Run and layout findings name their tests: check those alone, no halving needed.
    std::set<std::uint64_t> named;
    bool all_named = true;
    for (const oracle::Finding& finding : checked.run.verdict.findings) {
      const auto seeds_named = labelled_seeds(finding, seeds);
      const bool labelled_kind =
          finding.kind == oracle::FindingKind::run_mismatch || finding.kind == oracle::FindingKind::layout_mismatch;
      if (!labelled_kind || seeds_named.empty()) all_named = false;
      named.insert(seeds_named.begin(), seeds_named.end());
    }
    if (all_named) {
      for (std::uint64_t seed : named) {
        Checked alone = check_seeds(context_, {seed}, gpu_, workdir_, outcome_);
        pin(seed, alone);
      }
      return;
    }
    const std::size_t half = seeds.size() / 2;
    bool any = false;
    for (auto part : {std::vector<std::uint64_t>(seeds.begin(), seeds.begin() + static_cast<std::ptrdiff_t>(half)),
                      std::vector<std::uint64_t>(seeds.begin() + static_cast<std::ptrdiff_t>(half), seeds.end())}) {
      Checked checked_part = check_seeds(context_, part, gpu_, workdir_, outcome_);
      if (checked_part.run.verdict.agree()) continue;
      any = true;
      isolate(part, checked_part);
    }
    if (!any)
      outcome_.notes.push_back("seeds " + std::to_string(seeds.front()) + ".." + std::to_string(seeds.back()) +
                               " disagree together but no half does: not filed");
  }

private:
  /// `checked` is the seed alone: its findings with a key the batch showed are filed on it.
  void pin(std::uint64_t seed, const Checked& checked) {
    SeedOutcome seed_outcome;
    seed_outcome.seed = seed;
    for (std::size_t i = 0; i < checked.run.verdict.findings.size(); ++i) {
      if (!batch_keys_.count(checked.signatures[i].key)) {
        outcome_.notes.push_back("seed " + std::to_string(seed) + " alone shows " + checked.signatures[i].title +
                                 ", which its batch did not: not filed");
        continue;
      }
      seed_outcome.findings.push_back(checked.run.verdict.findings[i]);
      seed_outcome.signatures.push_back(checked.signatures[i]);
    }
    if (seed_outcome.findings.empty()) return;
    seed_outcome.discrepancy = true;
    seed_outcome.source_name = checked.name;
    seed_outcome.source = checked.source;
    seed_outcome.outputs = outputs_json(checked.run);
    pinned[seed] = std::move(seed_outcome);
  }

  const FuzzContext& context_;
  const runners::GpuDiscovery& gpu_;
  const std::filesystem::path& workdir_;
  BatchOutcome& outcome_;
  std::set<std::string> batch_keys_;
};

} // namespace

BatchOutcome check_batch(const FuzzContext& context, const std::vector<std::uint64_t>& all_seeds,
                         const runners::GpuDiscovery& gpu, const std::filesystem::path& workdir) {
  const auto start = std::chrono::steady_clock::now();
  BatchOutcome outcome;
  std::vector<std::uint64_t> seeds;
  std::map<std::uint64_t, SeedOutcome> pinned;
  for (std::uint64_t seed : all_seeds) {
    if (generator::is_edge_seed(context.policy, seed)) pinned[seed] = check_edge_seed(context, seed, gpu, workdir, outcome);
    else seeds.push_back(seed);
  }
  const Checked checked = seeds.empty() ? Checked{} : check_seeds(context, seeds, gpu, workdir, outcome);
  if (!checked.run.verdict.agree()) {
    std::set<std::string> keys;
    for (const triage::Signature& signature : checked.signatures) keys.insert(signature.key);
    Isolator isolator(context, gpu, workdir, outcome, std::move(keys));
    isolator.isolate(seeds, checked);
    pinned.merge(isolator.pinned);
  }
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

} // namespace cudiff::cli
