// oracle: the spec oracle — compile outcomes judged against what the rules say a program must
// do (Expectation), and reading that expectation from the source's expected-error marker.
#include "oracle/judge_parts.h"
#include "oracle/lines.h"
#include "rules/rules.h"

#include <algorithm>
#include <optional>
#include <set>

namespace cudiff::oracle {
namespace {

using boost::json::array;
using boost::json::object;

/// The configs among `compiles` whose first error is on the expected line.
array diagnosed_at_line(const std::vector<const CompileObservation*>& compiles, int line) {
  array configs;
  for (const CompileObservation* compile : compiles) {
    const Diagnostic* error = compile->first_error();
    if (error != nullptr && line > 0 && error->line == line) configs.push_back(boost::json::string(compile->config));
  }
  return configs;
}

/// The rule's documented relaxation, when every compiler that accepts is the one that relaxes
/// it on purpose (its CUDA dialect) and some config rejects: then the accept is deliberate.
const rules::RuleDialect* deliberate_relaxation(const detail::StatusSplit& split, const rules::Rule* rule) {
  if (rule == nullptr || !rule->dialect || split.rejected.empty()) return nullptr;
  std::set<std::string> accepting;
  for (const CompileObservation* compile : split.accepted) accepting.insert(runners::to_string(compile->compiler));
  return accepting == std::set<std::string>{rule->dialect->compiler} ? &*rule->dialect : nullptr;
}

/// The accepting configs whose compiler's evidence says a warning is the rule's diagnostic
/// (`why` "warning": the guide's text is met by one) and that gave a warning on the marker's
/// line: those diagnosed the violation. A tool behind the front end (ptxas) names no source
/// line; its warning counts when it is the evidence's own warning, names masked (so it is
/// about the construct, whatever the program calls it). A warning anywhere else, or from a
/// compiler whose evidence does not say so, diagnoses nothing.
std::vector<const CompileObservation*> warned_at_line(const std::vector<const CompileObservation*>& accepted,
                                                      const rules::Rule* rule, int line) {
  std::vector<const CompileObservation*> warned;
  if (rule == nullptr || !rule->evidence || line <= 0) return warned;
  for (const CompileObservation* compile : accepted) {
    const rules::CompilerEvidence* evidence = rule->evidence->of(runners::to_string(compile->compiler));
    if (evidence == nullptr || evidence->why != "warning") continue;
    const std::string unlocated = evidence->warning.empty() ? std::string() : message_template(evidence->warning);
    for (const Diagnostic& diagnostic : compile->diagnostics)
      // In the program itself (a .cu file), not in a header that happens to have that line.
      if (diagnostic.severity == Severity::warning &&
          ((diagnostic.line == line && diagnostic.file.ends_with(".cu")) ||
           (diagnostic.line <= 0 && diagnostic.file.empty() && !unlocated.empty() &&
            message_template(diagnostic.message) == unlocated))) {
        warned.push_back(compile);
        break;
      }
  }
  return warned;
}

/// Why each accepting compiler lets the rule through, as the catalog's evidence says (one entry
/// per compiler, in the order of `accepted`).
array why_accepted(const std::vector<const CompileObservation*>& accepted, const rules::Rule* rule) {
  array entries;
  if (rule == nullptr || !rule->evidence) return entries;
  std::set<std::string> seen;
  for (const CompileObservation* compile : accepted) {
    const std::string compiler = runners::to_string(compile->compiler);
    const rules::CompilerEvidence* evidence = rule->evidence->of(compiler);
    if (evidence == nullptr || !seen.insert(compiler).second) continue;
    object entry{{"compiler", compiler},
                 {"why", evidence->why.empty() ? "diagnoses" : evidence->why},
                 {"reason", evidence->reason},
                 {"measured", rule->evidence->measured}};
    if (!evidence->url.empty()) entry["url"] = evidence->url;
    if (!evidence->searched.empty()) entry["searched"] = evidence->searched;
    entries.push_back(std::move(entry));
  }
  return entries;
}

object documentation_json(const rules::RuleDialect& dialect) {
  return object{{"compiler", dialect.compiler},     {"basis", dialect.basis},
                {"reason", dialect.reason},         {"title", dialect.documentation_title},
                {"url", dialect.documentation_url}, {"quote", dialect.documentation_quote}};
}

/// A must-reject program accepted somewhere, in one of three classes (docs/oracle.md, "Dialect
/// or bug"): every config accepts (missed_by_all); only a compiler that documents the rule as
/// relaxed accepts (dialect_difference); otherwise a missed diagnostic. Each carries the rule's
/// text, so a person reading the bucket needs no catalog. A config that accepted with a warning
/// on the marker's line diagnosed the violation when the rule's evidence says a warning is
/// enough for its compiler: it counts with the rejecting ones, and when every accepting config
/// did so there is no finding.
std::optional<Finding> missed_diagnostic(const detail::StatusSplit& measured, const Expectation& expected) {
  const rules::Rule* rule_entry = expected.rule_id.empty() ? nullptr : rules::find_rule(expected.rule_id);
  const std::vector<const CompileObservation*> warned = warned_at_line(measured.accepted, rule_entry, expected.line);
  if (warned.size() == measured.accepted.size()) return std::nullopt;
  detail::StatusSplit split;  // the accepting configs without such a warning; the rest diagnosed it
  for (const CompileObservation* compile : measured.accepted)
    if (std::ranges::find(warned, compile) == warned.end()) split.accepted.push_back(compile);
  split.rejected = measured.rejected;
  const std::vector<std::string> accepting = detail::config_names(split.accepted);
  const std::vector<std::string> rejecting = detail::config_names(split.rejected);
  const std::vector<std::string> warning = detail::config_names(warned);
  const rules::RuleDialect* dialect = warned.empty() ? deliberate_relaxation(split, rule_entry) : nullptr;
  const FindingKind kind = rejecting.empty() && warning.empty() ? FindingKind::missed_by_all
                           : dialect != nullptr                 ? FindingKind::dialect_difference
                                                                : FindingKind::missed_diagnostic;
  const std::string rule = expected.rule_id.empty() ? std::string("an E rule") : expected.rule_id;
  std::string summary = kind == FindingKind::missed_by_all        ? "missed by every config: "
                        : kind == FindingKind::dialect_difference ? "dialect difference: "
                                                                  : "missed diagnostic: ";
  summary += join(accepting, ", ") + " accept" + (accepting.size() == 1 ? "s" : "") + " a program breaking " + rule;
  if (expected.line > 0) summary += " (line " + std::to_string(expected.line) + ")";
  if (!rejecting.empty())
    summary += "; " + join(rejecting, ", ") + " reject" + (rejecting.size() == 1 ? "s" : "") + ": " +
               detail::describe_error(split.rejected.front()->first_error());
  if (!warning.empty())
    summary += "; " + join(warning, ", ") + " warn" + (warning.size() == 1 ? "s" : "") +
               " at the line, as the rule allows";
  if (dialect != nullptr) summary += " (" + dialect->compiler + " relaxes it on purpose)";
  const std::optional<object> upstream = dialect == nullptr ? detail::upstream_report(split.accepted, rule_entry)
                                                            : std::nullopt;
  if (upstream) summary += " (reported upstream: " + std::string(upstream->at("url").as_string()) + ")";
  object details{{"rule", expected.rule_id},
                 {"line", expected.line},
                 {"accepted", detail::side_entries(split.accepted)},
                 {"rejected", detail::side_entries(split.rejected)},
                 {"diagnosed_at_line", diagnosed_at_line(split.rejected, expected.line)},
                 {"stage", to_string(Stage::frontend)}};
  if (rule_entry != nullptr) {
    details["rule_text"] = rule_entry->text;
    details["rule_section"] = rule_entry->section;
  }
  if (dialect != nullptr) details["dialect"] = documentation_json(*dialect);
  if (!warned.empty()) details["warned"] = detail::side_entries(warned);
  if (array why = why_accepted(split.accepted, rule_entry); !why.empty()) details["why_accepted"] = std::move(why);
  if (upstream) details["upstream"] = *upstream;
  std::vector<std::string> configs = accepting;
  configs.insert(configs.end(), rejecting.begin(), rejecting.end());
  configs.insert(configs.end(), warning.begin(), warning.end());
  return detail::make_finding(kind, std::move(configs), summary, std::move(details));
}

Finding false_rejection(const detail::StatusSplit& split, const Expectation& expected) {
  const std::vector<std::string> accepting = detail::config_names(split.accepted);
  const std::vector<std::string> rejecting = detail::config_names(split.rejected);
  std::string summary = "false rejection: " + join(rejecting, ", ") + " reject" + (rejecting.size() == 1 ? "s" : "") +
                        " a valid program: " + detail::describe_error(split.rejected.front()->first_error());
  if (!accepting.empty()) summary += " (accepted by " + join(accepting, ", ") + ")";
  array ids;
  for (const std::string& id : detail::sorted_error_ids(split.rejected)) ids.push_back(boost::json::value(id));
  object details{{"accepted", detail::side_entries(split.accepted)},
                 {"rejected", detail::side_entries(split.rejected)},
                 {"rejected_error_ids", std::move(ids)}};
  // A program made to exercise one V rule (a probe measured alone) names it.
  if (!expected.rule_id.empty()) details["rule"] = expected.rule_id;
  std::vector<std::string> configs = accepting;
  configs.insert(configs.end(), rejecting.begin(), rejecting.end());
  return detail::make_finding(FindingKind::false_rejection, std::move(configs), summary, std::move(details));
}

/// The rule id of a `// expected-error: ID` marker in one line: `//`, blanks, `expected-error:`,
/// blanks, then a letter and letters, digits, '_' or '-'; the first such marker wins. Scanned
/// by hand: std::regex matching recurses once per character matched, and a long line (a long
/// id, a long run of blanks) overflowed the stack.
std::optional<std::string> marked_rule(std::string_view line) {
  constexpr std::string_view marker = "expected-error:";
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; };
  auto id_char = [](char c) { return detail::is_alpha(c) || detail::is_digit(c) || c == '_' || c == '-'; };
  for (std::size_t at = line.find("//"); at != std::string_view::npos; at = line.find("//", at + 1)) {
    std::size_t pos = at + 2;
    while (pos < line.size() && blank(line[pos])) ++pos;
    if (!line.substr(pos).starts_with(marker)) continue;
    pos += marker.size();
    while (pos < line.size() && blank(line[pos])) ++pos;
    if (pos == line.size() || !detail::is_alpha(line[pos])) continue;
    std::size_t end = pos + 1;
    while (end < line.size() && id_char(line[end])) ++end;
    return std::string(line.substr(pos, end - pos));
  }
  return std::nullopt;
}

} // namespace

namespace detail {

std::vector<Finding> expectation_findings(const std::vector<CompileObservation>& compiles,
                                          const Expectation& expected) {
  const StatusSplit split = split_by_status(compiles);
  if (expected.reject && !split.accepted.empty()) {
    if (std::optional<Finding> missed = missed_diagnostic(split, expected)) return {std::move(*missed)};
    return {};
  }
  if (!expected.reject && !split.rejected.empty()) return {false_rejection(split, expected)};
  return {};
}

} // namespace detail

std::optional<Expectation> expectation_from_source(std::string_view source) {
  const std::vector<std::string> lines = split_lines(source);
  for (std::size_t i = 0; i < lines.size(); ++i)
    if (std::optional<std::string> rule = marked_rule(lines[i]))
      return Expectation{true, std::move(*rule), static_cast<int>(i + 1)};
  return std::nullopt;
}

boost::json::value to_json(const Expectation& expected) {
  object json{{"verdict", expected.reject ? "reject" : "accept"}};
  if (!expected.rule_id.empty()) json["rule"] = expected.rule_id;
  if (expected.line > 0) json["line"] = expected.line;
  return json;
}

} // namespace cudiff::oracle
