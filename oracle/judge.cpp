// oracle: judge() — from the observations of every config to one Verdict (compile side here;
// runs in judge_runs.cpp, warnings in judge_warnings.cpp).
#include "oracle/judge_parts.h"

#include <algorithm>
#include <set>

namespace cudiff::oracle {
namespace {

using boost::json::array;
using boost::json::object;

bool is_error(const Diagnostic& diagnostic) {
  return diagnostic.severity == Severity::error || diagnostic.severity == Severity::fatal;
}

std::string first_line(std::string_view text) {
  const auto lines = split_lines(text);
  for (const std::string& line : lines) {
    if (!trim(line).empty()) return std::string(trim(line));
  }
  return {};
}

// ---- crash and hang ---------------------------------------------------------------------

Finding crash_finding(const CompileObservation& compile) {
  const std::string compiler = runners::to_string(compile.compiler);
  // observe_compile always sets crash for a crashed outcome; an empty one still is a crash.
  const Crash crash = compile.crash.value_or(Crash{compiler, "unknown", ""});
  const std::string stage = crash.stage.empty() ? compiler : crash.stage;
  std::string summary = compile.config + ": " + stage + " crashed (" + crash.reason + ")";
  if (const std::string excerpt = first_line(crash.excerpt); !excerpt.empty()) {
    summary += ": " + excerpt;
  }
  object details{{"compiler", compiler}, {"stage", stage}, {"reason", crash.reason}, {"excerpt", crash.excerpt}};
  return detail::make_finding(FindingKind::crash, {compile.config}, summary, std::move(details));
}

Finding compile_hang_finding(const CompileObservation& compile) {
  const std::string compiler = runners::to_string(compile.compiler);
  const std::string summary = compile.config + ": " + compiler + " hung (compile timed out after " +
                              format_seconds(compile.seconds) + ")";
  object details{{"compiler", compiler}, {"stage", "compile"}, {"seconds", compile.seconds}};
  return detail::make_finding(FindingKind::hang, {compile.config}, summary, std::move(details));
}

} // namespace

// ---- compile status (shared with judge_expected.cpp through judge_parts.h) ---------------

namespace detail {

// Crashed and hung compiles are findings of their own and say nothing about whether the
// program is valid, so only clean accepts and rejects take part in the status comparison.
StatusSplit split_by_status(const std::vector<CompileObservation>& compiles) {
  StatusSplit split;
  for (const CompileObservation& compile : compiles) {
    if (compile.outcome == CompileOutcome::accepted) split.accepted.push_back(&compile);
    if (compile.outcome == CompileOutcome::rejected) split.rejected.push_back(&compile);
  }
  return split;
}

std::vector<std::string> config_names(const std::vector<const CompileObservation*>& compiles) {
  std::vector<std::string> names;
  for (const CompileObservation* compile : compiles) names.push_back(compile->config);
  return names;
}

// Sorted and without repeats: the triage key is the set of errors the rejecting side gave,
// so the same bug in a longer program (the same error twice) lands in the same bucket.
std::vector<std::string> sorted_error_ids(const std::vector<const CompileObservation*>& compiles) {
  std::set<std::string> ids;
  for (const CompileObservation* compile : compiles) {
    for (const Diagnostic& diagnostic : compile->diagnostics) {
      if (is_error(diagnostic)) ids.insert(diagnostic.id);
    }
  }
  return {ids.begin(), ids.end()};
}

std::string describe_error(const Diagnostic* error) {
  if (error == nullptr) return "(no error message)";
  std::string text = to_string(error->severity) + ": " + error->message;
  if (const std::string location = detail::location_text(*error); !location.empty()) {
    text += " (" + location + ")";
  }
  return text;
}

object side_entry(const CompileObservation& compile) {
  object entry{{"config", compile.config}, {"compiler", runners::to_string(compile.compiler)}};
  const Diagnostic* error = compile.first_error();
  entry["first_error"] = error != nullptr ? to_json(*error) : boost::json::value(nullptr);
  return entry;
}

array side_entries(const std::vector<const CompileObservation*>& compiles) {
  array entries;
  for (const CompileObservation* compile : compiles) entries.push_back(side_entry(*compile));
  return entries;
}

} // namespace detail

namespace {
using namespace detail;

void append(std::vector<Finding>& to, std::vector<Finding> from) {
  for (Finding& finding : from) to.push_back(std::move(finding));
}

std::vector<Finding> compile_status_findings(const std::vector<CompileObservation>& compiles) {
  const StatusSplit split = split_by_status(compiles);
  if (split.accepted.empty() || split.rejected.empty()) return {};
  const std::vector<std::string> accepting = config_names(split.accepted);
  const std::vector<std::string> rejecting = config_names(split.rejected);
  const std::string summary = "accepted by " + join(accepting, ", ") + ", rejected by " + join(rejecting, ", ") + ": " +
                              describe_error(split.rejected.front()->first_error());
  array ids;
  for (const std::string& id : sorted_error_ids(split.rejected)) ids.push_back(boost::json::value(id));
  object details{{"accepted", side_entries(split.accepted)},
                 {"rejected", side_entries(split.rejected)},
                 {"rejected_error_ids", std::move(ids)}};
  std::vector<std::string> configs = accepting;
  configs.insert(configs.end(), rejecting.begin(), rejecting.end());
  return {detail::make_finding(FindingKind::compile_status_mismatch, std::move(configs), summary, std::move(details))};
}

// A compile that hung while the others finished far sooner is a slow_compile finding
// (judge_time.cpp) rather than a hang: one finding per compile.
std::vector<Finding> crash_and_hang_findings(const std::vector<CompileObservation>& compiles,
                                             const JudgeOptions& options) {
  std::vector<Finding> findings;
  for (const CompileObservation& compile : compiles) {
    if (compile.outcome == CompileOutcome::crashed) findings.push_back(crash_finding(compile));
    if (compile.outcome == CompileOutcome::hung && !hang_is_slow_compile(compile, compiles, options))
      findings.push_back(compile_hang_finding(compile));
  }
  return findings;
}

// The runs against each other, and against the interpreter's prediction when there is one. A
// run mismatch that the prediction fully explains (only predicted checksum lines differ) is
// left out: the wrong-code finding already names every config and kernel.
// Variant kernels are held to their originals (metamorphic), not to the prediction, so that a
// variant's deviation is one metamorphic finding rather than a wrong-code one as well.
std::vector<Finding> all_run_findings(const Observations& observations) {
  std::vector<Finding> output = expected_output_findings(observations.runs,
                                                         originals_only(observations.expected_checksums,
                                                                        observations.variant_kernels));
  append(output,
         metamorphic_findings(observations.runs, observations.variant_kernels, observations.expected_checksums));
  std::vector<Finding> runs = run_findings(observations.runs);
  if (!output.empty() && prediction_explains(observations.runs, observations.expected_checksums))
    std::erase_if(runs, [](const Finding& finding) { return finding.kind == FindingKind::run_mismatch; });
  for (Finding& finding : runs) output.push_back(std::move(finding));
  return output;
}

// Only called when there is no finding, so every compile was a clean accept or every one a
// clean reject (a mix, a crash or a hang would be a finding).
std::string agreement_text(const Observations& observations) {
  std::vector<std::string> parts;
  if (!observations.compiles.empty()) {
    const bool all_accept = std::ranges::all_of(observations.compiles, [](const auto& compile) {
      return compile.outcome == CompileOutcome::accepted;
    });
    const bool none_accepts = std::ranges::none_of(observations.compiles, [](const auto& compile) {
      return compile.outcome == CompileOutcome::accepted;
    });
    std::string status = all_accept ? "all accept" : none_accepts ? "none accepts (all reject)" : "some accept";
    const bool must_reject = observations.expected && observations.expected->reject;
    if (must_reject && !none_accepts)
      // No missed diagnostic: each accepting config warned at the line, and the rule's evidence
      // says a warning is its diagnostic (judge_expected.cpp).
      status += ", each with a warning at line " + std::to_string(observations.expected->line) + ", which " +
                (observations.expected->rule_id.empty() ? std::string("the rule") : observations.expected->rule_id) +
                " takes as its diagnostic";
    else if (must_reject && !observations.expected->rule_id.empty())
      status += ", as " + observations.expected->rule_id + " requires";
    // Every compiler failing after its front end (late_rejection_findings lets that pass for a
    // program nothing says must be rejected): say where.
    std::set<std::string> stages;
    for (const CompileObservation& compile : observations.compiles)
      if (compile.outcome == CompileOutcome::rejected) stages.insert(detail::rejection_stage(compile));
    if (!all_accept && !stages.empty() && !stages.contains("frontend"))
      status += ", in " + join(std::vector<std::string>(stages.begin(), stages.end()), " and ");
    parts.push_back(std::move(status));
  }
  if (std::string runs = detail::run_agreement(observations.runs); !runs.empty()) {
    const bool all_clean = std::ranges::all_of(observations.runs, [](const RunObservation& run) {
      return !run.timed_out && run.signal == 0 && run.exit_code == 0 && run.cuda_errors.empty();
    });
    if (all_clean && !observations.expected_checksums.empty()) runs += ", checksums as the generator predicts";
    if (all_clean && !observations.variant_kernels.empty())
      runs += ", " + std::to_string(observations.variant_kernels.size()) +
              " variant kernels print their originals' checksums";
    parts.push_back(std::move(runs));
  }
  if (std::string layouts = detail::layout_agreement(observations.layout_probes, observations.layouts);
      !layouts.empty())
    parts.push_back(std::move(layouts));
  if (std::string abi = detail::abi_agreement(observations.abi_views); !abi.empty()) parts.push_back(std::move(abi));
  return parts.empty() ? "nothing to compare" : join(parts, "; ");
}

// Every kind, in the order a verdict lists them: the most certain bugs first.
constexpr FindingKind kind_order[] = {FindingKind::wrong_code,
                                      FindingKind::common_wrong_code,
                                      FindingKind::metamorphic,
                                      FindingKind::missed_diagnostic,
                                      FindingKind::missed_by_all,
                                      FindingKind::dialect_difference,
                                      FindingKind::false_rejection,
                                      FindingKind::compile_status_mismatch,
                                      FindingKind::late_rejection,
                                      FindingKind::crash,
                                      FindingKind::hang,
                                      FindingKind::slow_compile,
                                      FindingKind::run_mismatch,
                                      FindingKind::abi_mismatch,
                                      FindingKind::warning_mismatch,
                                      FindingKind::layout_mismatch};

// A stable sort by kind, written out: std::stable_sort's temporary buffer trips a libstdc++
// deprecation warning under clang 22 (-Werror).
std::vector<Finding> by_kind(std::vector<Finding> findings) {
  std::vector<Finding> sorted;
  for (FindingKind kind : kind_order) {
    for (Finding& finding : findings) {
      if (finding.kind == kind) sorted.push_back(std::move(finding));
    }
  }
  return sorted;
}

} // namespace

namespace detail {

Finding make_finding(FindingKind kind, std::vector<std::string> configs, std::string_view summary,
                     boost::json::object details) {
  std::string line(summary);
  std::ranges::replace_if(line, [](char c) { return c == '\n' || c == '\r' || c == '\t'; }, ' ');
  return Finding{kind, std::move(configs), shorten(line, summary_chars), std::move(details)};
}

std::string file_basename(std::string_view path) {
  const std::size_t slash = path.find_last_of('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

std::string location_text(const Diagnostic& diagnostic) {
  if (diagnostic.file.empty()) return {};
  std::string text = file_basename(diagnostic.file);
  if (diagnostic.line > 0) text += ":" + std::to_string(diagnostic.line);
  return text;
}

} // namespace detail

std::string to_string(FindingKind kind) {
  switch (kind) {
  case FindingKind::compile_status_mismatch: return "compile_status_mismatch";
  case FindingKind::crash: return "crash";
  case FindingKind::hang: return "hang";
  case FindingKind::run_mismatch: return "run_mismatch";
  case FindingKind::warning_mismatch: return "warning_mismatch";
  case FindingKind::layout_mismatch: return "layout_mismatch";
  case FindingKind::missed_diagnostic: return "missed_diagnostic";
  case FindingKind::false_rejection: return "false_rejection";
  case FindingKind::wrong_code: return "wrong_code";
  case FindingKind::common_wrong_code: return "common_wrong_code";
  case FindingKind::dialect_difference: return "dialect_difference";
  case FindingKind::missed_by_all: return "missed_by_all";
  case FindingKind::late_rejection: return "late_rejection";
  case FindingKind::slow_compile: return "slow_compile";
  case FindingKind::abi_mismatch: return "abi_mismatch";
  case FindingKind::metamorphic: return "metamorphic";
  }
  return "unknown";
}

std::optional<FindingKind> parse_finding_kind(std::string_view name) {
  for (FindingKind kind : kind_order)
    if (to_string(kind) == name) return kind;
  return std::nullopt;
}

bool is_run_kind(FindingKind kind) {
  return kind == FindingKind::run_mismatch || kind == FindingKind::wrong_code ||
         kind == FindingKind::common_wrong_code || kind == FindingKind::metamorphic;
}

bool is_run_kind(std::string_view kind_name) {
  const std::optional<FindingKind> kind = parse_finding_kind(kind_name);
  return kind && is_run_kind(*kind);
}

std::string to_string(Stage stage) {
  switch (stage) {
  case Stage::unknown: return "unknown";
  case Stage::frontend: return "frontend";
  case Stage::device_codegen: return "device-codegen";
  case Stage::ptxas: return "ptxas";
  case Stage::host_compiler: return "host-compiler";
  case Stage::linker: return "linker";
  case Stage::driver_jit: return "driver-jit";
  case Stage::nvvm: return "nvvm";
  }
  return "unknown";
}

std::optional<Stage> parse_stage(std::string_view name) {
  for (Stage stage : {Stage::unknown, Stage::frontend, Stage::device_codegen, Stage::ptxas, Stage::host_compiler,
                      Stage::linker, Stage::driver_jit, Stage::nvvm})
    if (to_string(stage) == name) return stage;
  return std::nullopt;
}

std::string Verdict::headline() const {
  if (findings.empty()) return "agree: " + agreement;
  std::string line = "DISCREPANCY: " + findings.front().summary;
  if (const std::size_t more = findings.size() - 1; more > 0) {
    line += " (and " + std::to_string(more) + (more == 1 ? " more finding)" : " more findings)");
  }
  return line;
}

// Findings come in FindingKind order, and within a kind in config order (each part below
// produces its findings in config order; by_kind keeps that).
Verdict judge(const Observations& observations, const JudgeOptions& options) {
  std::vector<Finding> findings;
  if (observations.expected)
    append(findings, detail::expectation_findings(observations.compiles, *observations.expected));
  else append(findings, compile_status_findings(observations.compiles));
  append(findings, detail::late_rejection_findings(observations.compiles, observations.expected));
  append(findings, crash_and_hang_findings(observations.compiles, options));
  append(findings, detail::slow_compile_findings(observations.compiles, options));
  append(findings, all_run_findings(observations));
  if (options.warnings) append(findings, detail::warning_findings(observations.compiles));
  append(findings, detail::layout_findings(observations.layout_probes, observations.layouts));
  if (!observations.abi_views.empty()) {
    const std::string runs = observations.runs.empty()                         ? "not run"
                             : detail::run_findings(observations.runs).empty() ? "agreed"
                                                                               : "differed";
    append(findings, detail::abi_findings(observations.abi_views, observations.abi_kinds, runs));
  }
  Verdict verdict;
  verdict.findings = by_kind(std::move(findings));
  if (verdict.findings.empty()) verdict.agreement = agreement_text(observations);
  return verdict;
}

} // namespace cudiff::oracle
