// pipeline: the sanitizer gate — before a run-time finding (oracle::is_run_kind: run_mismatch,
// wrong_code, common_wrong_code, metamorphic) is filed, compute-sanitizer runs on the binaries
// of the configs that disagree; a program whose run faults has no one defined output, so its
// finding is the program's defect (a generator defect, a person's bug), never a compiler bug: it
// goes to the invalid-tests list instead. The exception is a predicted program that faults only
// where its output misses the prediction: the miscompile's symptom (docs/pipeline.md, "The
// sanitizer gate").
#include "pipeline/attribution_parts.h"
#include "pipeline/reduce.h"
#include "pipeline/sanitizer_parts.h"

#include <algorithm>
#include <future>
#include <set>

namespace cudiff::pipeline {
namespace {

/// compute-sanitizer runs executables: a campaign gates a test alone, which never runs in an
/// executor (campaign/batch.cpp), so a shared object here is a build the gate cannot use.
bool binary_ran(const ConfigCheck& check) {
  return !check.compile.artifact.empty() && check.run.has_value() &&
         check.compile.linkage == runners::Linkage::executable;
}

const ConfigCheck* config_named(const TestCheck& run, std::string_view name) {
  for (const ConfigCheck& check : run.configs)
    if (check.compile.config.name == name) return &check;
  return nullptr;
}

/// The configs of each side of a finding's partition.
std::vector<std::vector<std::string>> partition_of(const TestCheck& run, const oracle::Finding& finding) {
  std::vector<std::vector<std::string>> sides;
  if (const auto* groups = finding.details.if_contains("groups"); groups && groups->is_array())
    for (const auto& group : groups->as_array())
      if (const auto* configs = group.is_object() ? group.as_object().if_contains("configs") : nullptr;
          configs && configs->is_array()) {
        std::vector<std::string>& side = sides.emplace_back();
        for (const auto& name : configs->as_array())
          if (name.is_string()) side.emplace_back(name.as_string());
      }
  if (!sides.empty()) return sides;
  // Otherwise the finding's configs (those it blames) against the rest that ran.
  sides.push_back(finding.configs);
  std::vector<std::string> rest;
  for (const ConfigCheck& check : run.configs)
    if (std::ranges::find(finding.configs, check.compile.config.name) == finding.configs.end())
      rest.push_back(check.compile.config.name);
  if (!rest.empty()) sides.push_back(std::move(rest));
  return sides;
}

/// Whether every erring sanitizer run is of a build by one of `lacking` (the compilers that lack
/// one of the program's constructs by design), and one is.
bool faults_only_where_lacking(const std::vector<SanitizerRun>& runs, const TestCheck& run,
                               const std::set<std::string>& lacking) {
  bool any = false;
  for (const SanitizerRun& done : runs) {
    if (!done.errors()) continue;
    const ConfigCheck* check = config_named(run, done.config);
    if (check == nullptr || !lacking.contains(runners::to_string(check->compile.config.compiler))) return false;
    any = true;
  }
  return any;
}

std::string tool_list(const std::vector<SanitizerTool>& tools) {
  std::vector<std::string> names;
  for (SanitizerTool tool : tools) names.push_back(to_string(tool));
  return join(names, ", ");
}

/// compute-sanitizer's report is kept up to this size in the invalid-tests list.
constexpr std::size_t kReportBytes = 64 * 1024;

} // namespace

std::string to_string(GateResult result) {
  switch (result) {
  case GateResult::clean: return "clean";
  case GateResult::invalid: return "invalid";
  case GateResult::confined: return "confined";
  case GateResult::inconclusive: return "inconclusive";
  case GateResult::not_checked: return "not checked";
  }
  return "not checked";
}

SanitizerGate make_sanitizer_gate(bool enabled, const runners::Toolchain& toolchain, double run_seconds) {
  SanitizerGate gate;
  gate.enabled = enabled;
  gate.run_seconds = run_seconds;
  if (enabled) gate.sanitizer = find_compute_sanitizer(toolchain);
  if (!enabled) gate.missing_reason = "the sanitizer gate is off";
  else if (!gate.sanitizer)
    gate.missing_reason = "compute-sanitizer not found ($CUDA_HOME/bin, " + (toolchain.cuda_home / "bin").string() +
                          ", /usr/local/cuda/bin, PATH)";
  return gate;
}

std::vector<const ConfigCheck*> gate_binaries(const TestCheck& run, const oracle::Finding& finding) {
  std::vector<const ConfigCheck*> chosen;
  auto add = [&](const ConfigCheck* check) {
    if (check != nullptr && binary_ran(*check) && std::ranges::find(chosen, check) == chosen.end())
      chosen.push_back(check);
  };
  for (const std::vector<std::string>& side : partition_of(run, finding))
    for (const std::string& name : side)
      if (const ConfigCheck* check = config_named(run, name); check != nullptr && binary_ran(*check)) {
        add(check);
        break;
      }
  // Both compilers' code, where both built a binary: a fault may be in either's.
  for (runners::CompilerKind compiler : {runners::CompilerKind::nvcc, runners::CompilerKind::clang}) {
    if (std::ranges::any_of(chosen, [&](const ConfigCheck* c) { return c->compile.config.compiler == compiler; }))
      continue;
    for (const std::string& name : finding.configs)
      if (const ConfigCheck* check = config_named(run, name);
          check != nullptr && check->compile.config.compiler == compiler && binary_ran(*check)) {
        add(check);
        break;
      }
  }
  return chosen;
}

GateOutcome sanitizer_gate(const SanitizerGate& gate, const TestCheck& run, const std::string& source,
                           const std::optional<generator::Sidecar>& sidecar) {
  GateOutcome outcome;
  if (std::ranges::none_of(run.verdict.findings,
                           [](const oracle::Finding& finding) { return oracle::is_run_kind(finding.kind); })) {
    outcome.result = GateResult::clean;
    outcome.note = "sanitizer gate: no run-time finding to check";
    return outcome;
  }
  // With a prediction, the configs that print it are the right side; a fault confined to the
  // others is a miscompile's symptom. The gate then checks at least one binary of each.
  std::vector<oracle::RunObservation> observed;
  for (const ConfigCheck& check : run.configs)
    if (check.run) observed.push_back(*check.run);
  const attribution::Reference reference = attribution::reference_of(observed, sidecar);
  std::set<std::string> right;
  // Not for a program using a construct one compiler lacks by design (clang ignores
  // __managed__: its build reads a host address on the device and faults): that fault is the
  // known difference's, and the program is no test of that compiler.
  const std::set<std::string> lacking = sidecar ? generator::rejecting_compilers(*sidecar) : std::set<std::string>{};
  const bool lacks_by_design = !lacking.empty();
  if (!reference.expected_lines.empty() && !lacks_by_design)
    for (const oracle::RunObservation& observation : observed)
      if (reference.right(observation)) right.insert(observation.config);
  const auto is_right = [&](const ConfigCheck* check) { return right.count(check->compile.config.name) != 0; };

  std::vector<const ConfigCheck*> binaries;
  const auto add = [&](const ConfigCheck* check) {
    if (std::ranges::find(binaries, check) == binaries.end()) binaries.push_back(check);
  };
  for (const oracle::Finding& finding : run.verdict.findings)
    if (oracle::is_run_kind(finding.kind))
      for (const ConfigCheck* check : gate_binaries(run, finding)) add(check);
  if (!right.empty())
    for (bool side : {true, false})
      if (std::ranges::none_of(binaries, [&](const ConfigCheck* c) { return is_right(c) == side; }))
        for (const ConfigCheck& check : run.configs)
          if (binary_ran(check) && is_right(&check) == side) {
            add(&check);
            break;
          }
  for (const ConfigCheck* check : binaries) outcome.configs.push_back(check->compile.config.name);
  auto not_checked = [&](const std::string& why) {
    outcome.result = GateResult::not_checked;
    outcome.note = "not sanitizer-checked: " + why;
    return outcome;
  };
  if (!gate.enabled || !gate.sanitizer) return not_checked(gate.missing_reason);
  if (run.gpus.gpus.empty()) return not_checked("no GPU");
  if (binaries.empty()) return not_checked("no binary of the finding's configs ran");

  runners::Limits limits = pipeline::limits(gate.run_seconds * kSanitizerTimeFactor);
  limits.deadline = gate.deadline;
  const std::vector<SanitizerTool> tools = sanitizer_tools_for(source, sidecar);
  for (SanitizerTool tool : tools) {
    std::vector<std::future<SanitizerRun>> pending;
    for (const ConfigCheck* check : binaries)
      pending.push_back(std::async(std::launch::async, [&, check, tool] {
        return run_sanitizer(*gate.sanitizer, tool, check->compile.config.name, check->compile.artifact,
                             run.gpus.gpus.front(), limits);
      }));
    for (std::future<SanitizerRun>& done : pending) outcome.runs.push_back(done.get());
    std::optional<SanitizerRun> failure;
    // An invalid program stays invalid whatever the other tools say.
    if (gate_verdict(outcome.runs, right, failure) == GateResult::invalid) break;
  }
  outcome.result = gate_verdict(outcome.runs, right, outcome.failure);
  const auto erring_under = [&](const SanitizerRun& failure) {
    std::vector<std::string> erring;
    for (const SanitizerRun& done : outcome.runs)
      if (done.tool == failure.tool && done.errors()) erring.push_back(done.config);
    return join(erring, ", ");
  };
  const auto errors_text = [](const SanitizerRun& failure) {
    return to_string(failure.tool) + " reports " + std::to_string(failure.report.errors) + " error" +
           (failure.report.errors == 1 ? "" : "s") + " (" + failure.report.cause + ")";
  };
  const auto first_error = [](const SanitizerRun& failure) {
    return failure.report.first_error.empty() ? std::string() : ": " + failure.report.first_error.front();
  };
  switch (outcome.result) {
  case GateResult::invalid:
    // Faulting only in the builds of a compiler that lacks one of the program's constructs by
    // design (clang and __managed__) is that known difference, not a fault of the program.
    if (faults_only_where_lacking(outcome.runs, run, lacking))
      outcome.note = "sanitizer gate: not a test of " +
                     join(std::vector<std::string>(lacking.begin(), lacking.end()), ", ") +
                     ", which lacks a construct of the program by design (a known difference, not a compiler "
                     "bug): " +
                     errors_text(*outcome.failure) + " under " + erring_under(*outcome.failure) +
                     first_error(*outcome.failure);
    else
      outcome.note = "sanitizer gate: INVALID program, not a compiler bug: " + errors_text(*outcome.failure) +
                     " under " + erring_under(*outcome.failure) + first_error(*outcome.failure);
    break;
  case GateResult::confined: {
    std::vector<std::string> clean_right;
    for (const SanitizerRun& done : outcome.runs)
      if (done.tool == outcome.failure->tool && done.clean() && right.count(done.config) != 0)
        clean_right.push_back(done.config);
    outcome.note = "sanitizer gate: a fault only where the output departs from the prediction, the miscompile's "
                   "symptom: " +
                   errors_text(*outcome.failure) + " under " + erring_under(*outcome.failure) + ", clean under " +
                   join(clean_right, ", ") + first_error(*outcome.failure);
    break;
  }
  case GateResult::inconclusive: {
    std::vector<std::string> inconclusive;
    for (const SanitizerRun& done : outcome.runs)
      if (!done.errors() && !done.clean()) inconclusive.push_back(done.config + ": " + done.inconclusive_reason());
    outcome.note = "sanitizer gate inconclusive, finding unconfirmed: " + join(inconclusive, "; ");
    break;
  }
  case GateResult::clean:
  case GateResult::not_checked:
    outcome.note = "sanitizer gate: clean (" + tool_list(tools) + " on " + join(outcome.configs, ", ") + ")";
    break;
  }
  return outcome;
}

GateResult gate_verdict(const std::vector<SanitizerRun>& runs, const std::set<std::string>& right,
                        std::optional<SanitizerRun>& failure) {
  failure.reset();
  std::vector<SanitizerTool> tools;
  for (const SanitizerRun& done : runs)
    if (std::ranges::find(tools, done.tool) == tools.end()) tools.push_back(done.tool);
  bool inconclusive = false;
  std::optional<SanitizerRun> confined;
  for (SanitizerTool tool : tools) {
    const SanitizerRun* first_erring = nullptr;
    bool right_erring = false, right_clean = false;
    for (const SanitizerRun& done : runs) {
      if (done.tool != tool) continue;
      const bool right_side = right.count(done.config) != 0;
      if (done.errors()) {
        if (first_erring == nullptr) first_erring = &done;
        right_erring = right_erring || right_side;
      } else if (done.clean()) {
        right_clean = right_clean || right_side;
      } else {
        inconclusive = true;
      }
    }
    if (first_erring == nullptr) continue;
    if (right_erring || !right_clean) {
      failure = *first_erring;
      return GateResult::invalid;
    }
    if (!confined) confined = *first_erring;
  }
  if (confined) {
    failure = confined;
    return GateResult::confined;
  }
  return inconclusive ? GateResult::inconclusive : GateResult::clean;
}

GateOutcome gate_check(const SanitizerGate& gate, TestCheck& run, const TestInput& input) {
  if (run.mode != runners::Mode::run) return GateOutcome{GateResult::clean, {}, {}, {}, ""};
  GateOutcome outcome = sanitizer_gate(gate, run, input.source, input.sidecar);
  if (outcome.note.empty() || std::ranges::none_of(run.verdict.findings, [](const oracle::Finding& finding) {
        return oracle::is_run_kind(finding.kind);
      }))
    return outcome;
  run.notes.push_back(outcome.note);
  for (oracle::Finding& finding : run.verdict.findings)
    if (oracle::is_run_kind(finding.kind)) mark_gated(finding, outcome);
  return outcome;
}

void mark_gated(oracle::Finding& finding, const GateOutcome& gate) {
  finding.details["sanitizer_gate"] = gate.note;
  finding.details["sanitizer_gate_result"] = to_string(gate.result);
  if (gate.result == GateResult::inconclusive) finding.details["unconfirmed"] = gate.note;
  if (gate.result == GateResult::confined && gate.failure) {
    boost::json::array lines;
    for (const std::string& line : gate.failure->report.first_error) lines.push_back(boost::json::value(line));
    finding.details["sanitizer_report"] = boost::json::object{{"tool", to_string(gate.failure->tool)},
                                                              {"config", gate.failure->config},
                                                              {"errors", gate.failure->report.errors},
                                                              {"cause", gate.failure->report.cause},
                                                              {"command", gate.failure->command.display()},
                                                              {"first_error", std::move(lines)}};
  }
}

triage::InvalidTest invalid_test_of(const GateOutcome& gate, const TestCheck& run, const std::string& source_name,
                                    const std::string& source) {
  triage::InvalidTest invalid;
  invalid.name = source_name;
  invalid.source_name = source_name;
  invalid.source = source;
  invalid.configs = gate.configs;
  for (const oracle::Finding& finding : run.verdict.findings)
    if (oracle::is_run_kind(finding.kind)) {
      invalid.finding_kind = oracle::to_string(finding.kind);
      invalid.finding_summary = finding.summary;
      break;
    }
  if (gate.failure) {
    const SanitizerRun& failure = *gate.failure;
    invalid.tool = to_string(failure.tool);
    invalid.cause = failure.report.cause.empty() ? "other" : failure.report.cause;
    invalid.first_error = failure.report.first_error.empty() ? "" : failure.report.first_error.front();
    std::vector<std::string> erring;
    for (const SanitizerRun& done : gate.runs)
      if (done.tool == failure.tool && done.errors()) erring.push_back(done.config);
    invalid.erring_configs = erring;
    invalid.command = failure.command.display();
    std::string report = failure.process.out.text;
    if (!failure.process.err.text.empty()) report += "\n--- stderr ---\n" + failure.process.err.text;
    if (report.size() > kReportBytes) report = report.substr(0, kReportBytes) + "\n[... cut at 64 KiB]\n";
    invalid.report = std::move(report);
  }
  return invalid;
}

} // namespace cudiff::pipeline
