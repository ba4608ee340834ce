// oracle: stage-aware rejection — when every config rejects, the stage that rejected in each.
// A front end's diagnostic in one compiler against a failure in a later stage of another
// (ptxas, nvlink, the linker, the host compiler under nvcc, the driver) means the second
// compiler's front end let through a program it should have diagnosed: a late_rejection,
// keyed by the front end's diagnostic. Backend errors of clang ("error in backend", "LLVM
// ERROR: Cannot select") are crashes (classify.cpp), filed as such, and never reach this.
#include "oracle/judge_parts.h"
#include "rules/rules.h"

#include <algorithm>
#include <set>

namespace cudiff::oracle::detail {
namespace {

using boost::json::array;
using boost::json::object;

bool is_error(const Diagnostic& diagnostic) {
  return diagnostic.severity == Severity::error || diagnostic.severity == Severity::fatal;
}

/// The first error of the stage the compile was rejected in: a front end's error when there is
/// one (the driver's "ptxas command failed" line that follows a ptxas error is not the cause).
const Diagnostic* deciding_error(const CompileObservation& compile) {
  for (const Diagnostic& diagnostic : compile.diagnostics)
    if (is_error(diagnostic) && diagnostic.tool == Tool::frontend) return &diagnostic;
  return compile.first_error();
}

object entry_of(const CompileObservation& compile) {
  object entry{{"config", compile.config},
               {"compiler", runners::to_string(compile.compiler)},
               {"stage", rejection_stage(compile)}};
  const Diagnostic* error = deciding_error(compile);
  entry["first_error"] = error != nullptr ? to_json(*error) : boost::json::value(nullptr);
  return entry;
}

std::string late_description(const std::vector<const CompileObservation*>& late) {
  std::vector<std::string> parts;
  for (const CompileObservation* compile : late)
    parts.push_back(compile->config + " in " + rejection_stage(*compile) + " (" +
                    describe_error(deciding_error(*compile)) + ")");
  return join(parts, "; ");
}

std::vector<std::string> sorted_unique(std::vector<std::string> items) {
  std::ranges::sort(items);
  items.erase(std::unique(items.begin(), items.end()), items.end());
  return items;
}

/// True when each compile among `late` rejects the rule's violation the way the rule's evidence
/// says its compiler does, at every level: "reject_elsewhere" (after its front end, away from
/// the marker's line), or "reject" with its deciding error at the marker's line (cicc's
/// "Formal parameter space overflowed" names the kernel's line from code generation). Then the
/// late error is the rule's diagnostic, not a front end's silence.
bool late_by_design(const std::vector<const CompileObservation*>& late, const Expectation& expected) {
  const rules::Rule* rule = expected.rule_id.empty() ? nullptr : rules::find_rule(expected.rule_id);
  if (rule == nullptr || !rule->evidence) return false;
  return std::ranges::all_of(late, [&](const CompileObservation* compile) {
    const rules::CompilerEvidence* evidence = rule->evidence->of(runners::to_string(compile->compiler));
    if (evidence == nullptr) return false;
    if (evidence->at_o0 == "reject_elsewhere" && evidence->at_o3 == "reject_elsewhere") return true;
    const Diagnostic* error = deciding_error(*compile);
    return evidence->at_o0 == "reject" && evidence->at_o3 == "reject" && error != nullptr &&
           error->line == expected.line && error->file.ends_with(".cu");
  });
}

} // namespace

std::optional<object> upstream_report(const std::vector<const CompileObservation*>& compiles, const rules::Rule* rule) {
  if (rule == nullptr || !rule->evidence || compiles.empty()) return std::nullopt;
  std::set<std::string> compilers;
  for (const CompileObservation* compile : compiles) compilers.insert(runners::to_string(compile->compiler));
  if (compilers.size() != 1) return std::nullopt;
  const rules::CompilerEvidence* evidence = rule->evidence->of(*compilers.begin());
  if (evidence == nullptr || evidence->why != "upstream") return std::nullopt;
  return object{{"compiler", evidence->compiler}, {"url", evidence->url}, {"reason", evidence->reason}};
}

std::string rejection_stage(const CompileObservation& compile) {
  const Diagnostic* error = deciding_error(compile);
  if (error == nullptr) return "unknown";
  return error->tool == Tool::frontend ? "frontend" : to_string(error->tool);
}

std::vector<Finding> late_rejection_findings(const std::vector<CompileObservation>& compiles,
                                             const std::optional<Expectation>& expected) {
  if (compiles.empty()) return {};
  // A must-accept program that is rejected is a false rejection (judge_expected.cpp): which
  // stage rejected it does not make a front end's silence wrong.
  if (expected && !expected->reject) return {};
  if (!std::ranges::all_of(compiles, [](const auto& c) { return c.outcome == CompileOutcome::rejected; })) return {};
  std::vector<const CompileObservation*> front, late;
  for (const CompileObservation& compile : compiles)
    (rejection_stage(compile) == "frontend" ? front : late).push_back(&compile);
  if (late.empty()) return {};
  // Every compiler failing late is agreement for a program nothing said must be rejected (a
  // call to an undefined extern function fails in ptxas everywhere); for a must-reject
  // program it means no front end diagnosed what the rule says it must.
  const bool must_reject = expected && expected->reject;
  if (front.empty() && !must_reject) return {};
  // The same for a rule whose evidence says every compiler diagnoses it after its front end
  // (R-EXTERN-CALL-SAME-UNIT: a call to an extern function defined nowhere is ptxas's error in
  // whole-program mode, by design; R-KPARAM-4KB: cicc's error at the kernel, clang's ptxas):
  // that late error is the rule's diagnostic.
  if (front.empty() && must_reject && late_by_design(late, *expected)) return {};

  std::vector<std::string> late_stages;
  array late_entries, front_entries;
  for (const CompileObservation* compile : late) {
    late_stages.push_back(rejection_stage(*compile));
    late_entries.push_back(entry_of(*compile));
  }
  for (const CompileObservation* compile : front) front_entries.push_back(entry_of(*compile));
  const std::vector<std::string> front_configs = config_names(front);
  const std::vector<std::string> late_configs = config_names(late);

  std::string summary;
  object details{{"frontend", std::move(front_entries)},
                 {"late", std::move(late_entries)},
                 {"late_stages", boost::json::value_from(sorted_unique(late_stages))},
                 // The guilty stage: the front end that let the program through.
                 {"stage", to_string(Stage::frontend)}};
  if (!front.empty()) {
    const Diagnostic* error = deciding_error(*front.front());
    details["frontend_error_id"] = error != nullptr ? error->id : std::string();
    summary = "late rejection: " + join(front_configs, ", ") + " reject" + (front.size() == 1 ? "s" : "") +
              " in the front end (" + describe_error(error) + "), " + late_description(late);
  } else {
    summary = "late rejection: no front end diagnoses " +
              (expected->rule_id.empty() ? std::string("the program") : expected->rule_id) + "; " +
              late_description(late);
  }
  if (must_reject) {
    details["rule"] = expected->rule_id;
    details["line"] = expected->line;
    // A front end's silence already reported upstream (R-RTTI-DYNCAST: clang 22 leaves
    // dynamic_cast in device code to ptxas; later clang rejects it in Sema).
    if (!front.empty())
      if (std::optional<object> upstream = upstream_report(late, rules::find_rule(expected->rule_id))) {
        summary += " (reported upstream: " + std::string(upstream->at("url").as_string()) + ")";
        details["upstream"] = std::move(*upstream);
      }
  }
  std::vector<std::string> configs = front_configs;
  configs.insert(configs.end(), late_configs.begin(), late_configs.end());
  return {make_finding(FindingKind::late_rejection, std::move(configs), summary, std::move(details))};
}

} // namespace cudiff::oracle::detail
