// oracle: the spec oracle — compile outcomes judged against what the rules say a program must
// do (Expectation), and reading that expectation from the source's expected-error marker.
#include "oracle/judge_parts.h"
#include "oracle/lines.h"
#include "rules/rules.h"

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

object documentation_json(const rules::RuleDialect& dialect) {
  return object{{"compiler", dialect.compiler},     {"basis", dialect.basis},
                {"reason", dialect.reason},         {"title", dialect.documentation_title},
                {"url", dialect.documentation_url}, {"quote", dialect.documentation_quote}};
}

/// A must-reject program accepted somewhere, in one of three classes (docs/oracle.md, "Dialect
/// or bug"): every config accepts (missed_by_all); only a compiler that documents the rule as
/// relaxed accepts (dialect_difference); otherwise a missed diagnostic. Each carries the rule's
/// text, so a person reading the bucket needs no catalog.
Finding missed_diagnostic(const detail::StatusSplit& split, const Expectation& expected) {
  const std::vector<std::string> accepting = detail::config_names(split.accepted);
  const std::vector<std::string> rejecting = detail::config_names(split.rejected);
  const rules::Rule* rule_entry = expected.rule_id.empty() ? nullptr : rules::find_rule(expected.rule_id);
  const rules::RuleDialect* dialect = deliberate_relaxation(split, rule_entry);
  const FindingKind kind = rejecting.empty()    ? FindingKind::missed_by_all
                           : dialect != nullptr ? FindingKind::dialect_difference
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
  if (dialect != nullptr) summary += " (" + dialect->compiler + " relaxes it on purpose)";
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
  std::vector<std::string> configs = accepting;
  configs.insert(configs.end(), rejecting.begin(), rejecting.end());
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
  if (expected.reject && !split.accepted.empty()) return {missed_diagnostic(split, expected)};
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
