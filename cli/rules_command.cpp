// `cudiff rules`: the CUDA C++ rules catalog and what cudiff covers of it — a violation
// template for each compile-time-checkable E rule, a generator construct for each V rule.
#include "cli/commands.h"
#include "generator/generator.h"

#include <map>
#include <ostream>

namespace cudiff::cli {
namespace {

/// What cudiff has for a rule, in words: the table's "covered by" column. `constructs`: the
/// generator constructs that exercise it.
std::string coverage_of(const generator::Rule& rule, const std::vector<std::string>& constructs) {
  switch (rule.kind) {
  case generator::RuleKind::must_reject:
    if (rule.violation) return "violation template";
    return rule.checkable ? "-" : "not checkable: " + rule.why_not_checkable;
  case generator::RuleKind::valid: return constructs.empty() ? "-" : "generator: " + join(constructs, ", ");
  case generator::RuleKind::undefined: return "kept out of generated programs";
  }
  return "-";
}

/// At most `width` bytes, cut at a UTF-8 character boundary.
std::string shortened(const std::string& text, std::size_t width) {
  if (text.size() <= width) return text;
  std::size_t cut = width - 3;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return text.substr(0, cut) + "...";
}

std::string percent(std::size_t part, std::size_t whole) {
  if (whole == 0) return "-";
  return std::to_string((part * 1000 / whole + 5) / 10) + "%";
}

int run_rules(const ParsedArgs& args, std::ostream& out, std::ostream&) {
  std::optional<generator::RuleKind> only;
  if (auto kind = args.value("--kind")) {
    only = generator::parse_rule_kind(*kind);
    if (!only) throw_usage("--kind must be E, V or U, not '" + *kind + "'");
  }
  const std::vector<generator::Rule> rules = generator::rule_catalog();
  const std::map<std::string, std::vector<std::string>> by_rule = generator::constructs_by_rule();
  const std::vector<std::string> none;
  auto constructs_of = [&](const generator::Rule& rule) -> const std::vector<std::string>& {
    const auto found = by_rule.find(rule.id);
    return found == by_rule.end() ? none : found->second;
  };
  std::size_t e_rules = 0, checkable = 0, templates = 0, v_rules = 0, generated = 0, u_rules = 0;
  for (const generator::Rule& rule : rules) {
    if (rule.kind == generator::RuleKind::must_reject) {
      ++e_rules;
      checkable += rule.checkable;
      templates += rule.checkable && rule.violation.has_value();
    } else if (rule.kind == generator::RuleKind::valid) {
      ++v_rules;
      generated += !constructs_of(rule).empty();
    } else {
      ++u_rules;
    }
  }
  if (args.has("--json")) {
    boost::json::array list;
    for (const generator::Rule& rule : rules) {
      if (only && rule.kind != *only) continue;
      boost::json::object entry{{"id", rule.id},
                                {"kind", generator::to_string(rule.kind)},
                                {"section", rule.section},
                                {"text", rule.text},
                                {"covered_by", coverage_of(rule, constructs_of(rule))}};
      if (rule.kind == generator::RuleKind::must_reject) entry["checkable"] = rule.checkable;
      if (rule.kind == generator::RuleKind::valid) {
        boost::json::array constructs;
        for (const std::string& name : constructs_of(rule)) constructs.emplace_back(name);
        entry["constructs"] = std::move(constructs);
      }
      list.push_back(std::move(entry));
    }
    boost::json::object coverage{{"e_rules", e_rules},         {"e_checkable", checkable},
                                 {"e_with_violation", templates}, {"v_rules", v_rules},
                                 {"v_generated", generated},      {"u_rules", u_rules}};
    out << pretty_json(boost::json::object{{"rules", std::move(list)}, {"coverage", std::move(coverage)}});
    return 0;
  }
  TextTable table({"id", "kind", "section", "covered by", "rule"});
  for (const generator::Rule& rule : rules) {
    if (only && rule.kind != *only) continue;
    table.add_row({rule.id, generator::to_string(rule.kind), rule.section, shortened(coverage_of(rule, constructs_of(rule)), 48),
                   shortened(rule.text, 72)});
  }
  out << table.render();
  out << "\nE rules (must be diagnosed): " << e_rules << "; checkable at compile time: " << checkable
      << "; with a violation template: " << templates << " (" << percent(templates, checkable) << ")\n"
      << "V constructs: " << v_rules << "; produced by the generator: " << generated << " ("
      << percent(generated, v_rules) << ")\n"
      << "U rules (undefined or run-time only, kept out of generated programs): " << u_rules << "\n";
  return 0;
}

} // namespace

Subcommand rules_subcommand() {
  CommandSpec spec{"rules", "cudiff rules [--kind E|V|U] [--json]",
                   "The CUDA C++ rules catalog (from the Programming Guide: E rules must be diagnosed,\n"
                   "V constructs are valid, U is undefined behaviour) and what cudiff covers of it:\n"
                   "a violation template for each E rule a compiler can check at compile time, the\n"
                   "generator constructs that exercise each V rule.",
                   {}};
  spec.options.push_back({"--kind", "K", "only the rules of kind E, V or U"});
  spec.options.push_back({"--json", "", "print JSON instead of a table"});
  return {spec, run_rules};
}

} // namespace cudiff::cli
