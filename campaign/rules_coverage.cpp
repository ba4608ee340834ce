// campaign: the rules catalog's coverage (`cudiff rules`) — for each rule of the CUDA C++ rules
// catalog, what cudiff has for it (a violation template, generator constructs and probes, a
// scan) and, once measured (measure_conformance), what each compiler did; with the counts; and
// the conformance table of a measurement.
#include "campaign/campaign.h"
#include "ubscan/ubscan.h"

#include <map>
#include <set>

namespace cudiff::campaign {
namespace {

/// What cudiff has for a rule, in words: the table's "covered by" column. `constructs`: the
/// generator constructs that exercise it.
std::string coverage_of(const rules::Rule& rule, const std::vector<std::string>& constructs,
                        const std::set<std::string>& scanned) {
  switch (rule.kind) {
  case rules::RuleKind::must_reject:
    if (rule.violation) return "violation template";
    return rule.checkable ? "-" : "not checkable: " + rule.why_not_checkable;
  case rules::RuleKind::valid: {
    std::vector<std::string> parts;
    if (!constructs.empty()) parts.push_back("generator: " + join(constructs, ", "));
    if (rule.probe)
      parts.push_back("probe" + std::string(rule.probe->clang_rejects.empty() ? "" : " (off: clang rejects)"));
    if (parts.empty()) return rule.not_producible.empty() ? "-" : "not producible: " + rule.not_producible;
    return join(parts, "; ");
  }
  case rules::RuleKind::undefined:
    return scanned.count(rule.id) ? "scanned for in generated programs" : "kept out of generated programs";
  }
  return "-";
}

/// A compiler's verdict in the conformance table: a rejection says whether its error was at
/// the planted line.
std::string cell(const MeasuredItem& item, std::string_view compiler) {
  std::string verdict = item.verdict_of(compiler);
  if (verdict != "reject") return verdict.empty() ? "-" : verdict;
  for (const MeasuredCompile& compile : item.compiles)
    if (compile.config.starts_with(compiler)) return compile.at_planted_line ? "reject (line)" : "reject (elsewhere)";
  return verdict;
}

std::string status_of(const MeasuredItem& item) {
  if (item.finding.empty()) return "as the guide says";
  return item.finding_kind + (item.known_reason.empty() ? "" : " (known)");
}

std::string first_diagnostic(const MeasuredItem& item) {
  for (const MeasuredCompile& compile : item.compiles)
    if (!compile.first_error.empty()) return compile.config + ": " + compile.first_error;
  return "-";
}

std::string or_dash(const std::string& text) { return text.empty() ? "-" : text; }

/// The measured verdicts of a rule (its violation for E, its probe for V), into `entry`.
void measure(const std::optional<Measurement>& measurement, RuleCoverage& entry) {
  if (!measurement) return;
  const rules::Rule& rule = entry.rule;
  const std::string variant = rule.kind == rules::RuleKind::must_reject ? "violation" : "probe";
  for (const MeasuredItem& item : measurement->items) {
    if (item.rule != rule.id || item.variant != variant) continue;
    entry.measured = true;
    entry.nvcc = or_dash(item.verdict_of("nvcc"));
    entry.clang = or_dash(item.verdict_of("clang"));
    entry.verdict = or_dash(item.finding.empty() ? "ok"
                                                 : item.finding_kind + (item.known_reason.empty() ? "" : " (known)"));
  }
}

/// One compiler's evidence as `cudiff rules --json` gives it.
boost::json::object evidence_json(const rules::CompilerEvidence& evidence) {
  boost::json::object json{{"O0", evidence.at_o0},
                           {"O3", evidence.at_o3},
                           {"diagnoses", evidence.diagnoses()},
                           {"why", evidence.why.empty() ? std::string("diagnoses") : evidence.why}};
  if (!evidence.reason.empty()) json["reason"] = evidence.reason;
  if (!evidence.url.empty()) json["url"] = evidence.url;
  if (!evidence.searched.empty()) json["searched"] = evidence.searched;
  if (!evidence.warning.empty()) json["warning"] = evidence.warning;
  return json;
}

std::string percent(std::size_t part, std::size_t whole) {
  if (whole == 0) return "-";
  return std::to_string((part * 1000 / whole + 5) / 10) + "%";
}

} // namespace

std::string evidence_cell(const rules::Rule& rule, std::string_view compiler) {
  const rules::CompilerEvidence* evidence = rule.evidence ? rule.evidence->of(compiler) : nullptr;
  if (evidence == nullptr) return "-";
  // A compiler that rejects keeps a why only where the rule was corrected: the rejection counts.
  return evidence->diagnoses() || evidence->why.empty() ? "diagnoses" : evidence->why;
}

CatalogCoverage rules_coverage(const std::optional<Measurement>& measurement, std::optional<rules::RuleKind> only) {
  const std::vector<std::string> scanned_list = ubscan::undefined_rules_scanned();
  const std::set<std::string> scanned(scanned_list.begin(), scanned_list.end());
  const std::map<std::string, std::vector<std::string>> by_rule = generator::constructs_by_rule();
  CatalogCoverage coverage;
  coverage.u_scanned = scanned.size();
  for (const rules::Rule& rule : rules::rule_catalog()) {
    const auto found = by_rule.find(rule.id);
    const std::vector<std::string> constructs = found == by_rule.end() ? std::vector<std::string>{} : found->second;
    if (rule.kind == rules::RuleKind::must_reject) {
      ++coverage.e_rules;
      coverage.e_checkable += rule.checkable;
      coverage.e_with_violation += rule.checkable && rule.violation.has_value();
    } else if (rule.kind == rules::RuleKind::valid) {
      ++coverage.v_rules;
      coverage.v_generated += !constructs.empty() || rule.probe.has_value();
    } else {
      ++coverage.u_rules;
    }
    if (rule.evidence)
      for (const char* compiler : {"nvcc", "clang"}) ++coverage.evidence[compiler][evidence_cell(rule, compiler)];
    if (only && rule.kind != *only) continue;
    RuleCoverage entry{rule, coverage_of(rule, constructs, scanned), constructs};
    measure(measurement, entry);
    coverage.rules.push_back(std::move(entry));
  }
  return coverage;
}

boost::json::object to_json(const CatalogCoverage& coverage) {
  boost::json::array list;
  for (const RuleCoverage& entry : coverage.rules) {
    const rules::Rule& rule = entry.rule;
    boost::json::object json{{"id", rule.id},
                             {"kind", rules::to_string(rule.kind)},
                             {"section", rule.section},
                             {"text", rule.text},
                             {"covered_by", entry.covered_by}};
    if (entry.measured)
      json["measured"] = boost::json::object{{"nvcc", entry.nvcc}, {"clang", entry.clang}, {"verdict", entry.verdict}};
    if (rule.kind == rules::RuleKind::must_reject) json["checkable"] = rule.checkable;
    if (rule.evidence)
      json["evidence"] = boost::json::object{{"measured", rule.evidence->measured},
                                             {"nvcc", evidence_json(rule.evidence->nvcc)},
                                             {"clang", evidence_json(rule.evidence->clang)}};
    if (rule.dialect)
      json["dialect"] = boost::json::object{{"compiler", rule.dialect->compiler},
                                            {"basis", rule.dialect->basis},
                                            {"reason", rule.dialect->reason},
                                            {"title", rule.dialect->documentation_title},
                                            {"url", rule.dialect->documentation_url},
                                            {"quote", rule.dialect->documentation_quote}};
    if (rule.kind == rules::RuleKind::valid) {
      boost::json::array constructs;
      for (const std::string& name : entry.constructs) constructs.emplace_back(name);
      json["constructs"] = std::move(constructs);
      if (rule.probe) json["probe"] = rule.probe->function;
      if (!rule.not_producible.empty()) json["not_producible"] = rule.not_producible;
    }
    list.push_back(std::move(json));
  }
  boost::json::object counts{{"e_rules", coverage.e_rules},
                             {"e_checkable", coverage.e_checkable},
                             {"e_with_violation", coverage.e_with_violation},
                             {"v_rules", coverage.v_rules},
                             {"v_generated", coverage.v_generated},
                             {"u_rules", coverage.u_rules},
                             {"u_scanned", coverage.u_scanned}};
  boost::json::object evidence;
  for (const auto& [compiler, by_why] : coverage.evidence) {
    boost::json::object tally;
    for (const auto& [why, count] : by_why) tally[why] = count;
    evidence[compiler] = std::move(tally);
  }
  counts["evidence"] = std::move(evidence);
  return {{"rules", std::move(list)}, {"coverage", std::move(counts)}};
}

std::string render_coverage(const CatalogCoverage& coverage, bool measured) {
  std::vector<std::string> header = {"id", "kind", "section", "covered by"};
  if (measured) header.insert(header.end(), {"nvcc", "clang", "verdict"});
  header.insert(header.end(), {"nvcc evidence", "clang evidence", "rule"});
  TextTable table(header);
  for (const RuleCoverage& entry : coverage.rules) {
    const rules::Rule& rule = entry.rule;
    std::vector<std::string> row = {rule.id, rules::to_string(rule.kind), rule.section,
                                    shorten_utf8(entry.covered_by, 48)};
    if (measured) row.insert(row.end(), {entry.nvcc, entry.clang, entry.verdict});
    row.insert(row.end(), {evidence_cell(rule, "nvcc"), evidence_cell(rule, "clang"), shorten_utf8(rule.text, 72)});
    table.add_row(std::move(row));
  }
  std::string out = table.render();
  out += "\nE rules (must be diagnosed): " + std::to_string(coverage.e_rules) +
         "; checkable at compile time: " + std::to_string(coverage.e_checkable) +
         "; with a violation template: " + std::to_string(coverage.e_with_violation) + " (" +
         percent(coverage.e_with_violation, coverage.e_checkable) + ")\n";
  for (const auto& [compiler, by_why] : coverage.evidence) {
    std::vector<std::string> parts;
    for (const auto& [why, count] : by_why) parts.push_back(why + " " + std::to_string(count));
    out += "evidence for " + compiler + ": " + join(parts, ", ") + "\n";
  }
  out += "V constructs: " + std::to_string(coverage.v_rules) +
         "; produced by the generator: " + std::to_string(coverage.v_generated) + " (" +
         percent(coverage.v_generated, coverage.v_rules) + ")\n" +
         "U rules (undefined or run-time only, kept out of generated programs): " + std::to_string(coverage.u_rules) +
         "; scanned for in generated programs: " + std::to_string(coverage.u_scanned) + "\n";
  return out;
}

std::string render_measurement(const Measurement& measurement) {
  TextTable table({"rule", "program", "nvcc", "clang", "verdict", "first diagnostic"});
  std::size_t as_expected = 0, known = 0;
  std::map<std::string, std::size_t> by_kind;
  for (const MeasuredItem& item : measurement.items) {
    table.add_row({item.rule, item.variant, cell(item, "nvcc"), cell(item, "clang"), status_of(item),
                   shorten_utf8(first_diagnostic(item), 70)});
    if (item.finding.empty()) ++as_expected;
    else if (!item.known_reason.empty()) ++known;
    else ++by_kind[item.finding_kind];
  }
  std::string out = table.render() + "\n" + std::to_string(measurement.items.size()) +
                    " programs: " + std::to_string(as_expected) + " as the guide says, " + std::to_string(known) +
                    " known differences";
  for (const auto& [kind, count] : by_kind) out += ", " + std::to_string(count) + " " + kind;
  return out + "\n";
}

} // namespace cudiff::campaign
