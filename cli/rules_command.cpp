// `cudiff rules`: the CUDA C++ rules catalog and what cudiff covers of it — a violation
// template for each compile-time-checkable E rule, a generator construct or probe for each V
// rule, a scan for each textual U rule — and, once measured (campaign::measure_conformance), what each
// compiler does with them.
#include "cli/commands.h"
#include "generator/generator.h"
#include "rules/rules.h"
#include "ubscan/ubscan.h"

#include <map>
#include <ostream>
#include <set>

namespace cudiff::cli {
namespace {

using campaign::MeasuredCompile;
using campaign::MeasuredItem;
using campaign::Measurement;

/// rules' own defaults for the shared flags (--measure).
Defaults defaults() {
  Defaults d;
  d.compile_seconds = pipeline::kProgramCompileSeconds;
  d.jobs = "--measure: programs built at once (default: half the cores)";
  d.seed = "--measure: the generated program violations are planted into (default 1)";
  d.known = "--measure: label findings that are recorded known differences";
  return d;
}

/// Where `cudiff rules --measure` writes and `cudiff rules` reads: --results FILE, else
/// cudiff-conformance.json in the current directory.
std::filesystem::path measurement_path(const ParsedArgs& args) {
  return args.value("--results").value_or("cudiff-conformance.json");
}

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

void print_table(const Measurement& measurement, std::ostream& out) {
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
  out << table.render() << "\n"
      << measurement.items.size() << " programs: " << as_expected << " as the guide says, " << known
      << " known differences";
  for (const auto& [kind, count] : by_kind) out << ", " << count << " " << kind;
  out << "\n";
}

int run_rules_measure(const ParsedArgs& args, std::ostream& out, std::ostream& err) {
  const std::filesystem::path path = measurement_path(args);
  std::error_code ec;
  const std::filesystem::path parent = std::filesystem::absolute(path).parent_path();
  if (!std::filesystem::is_directory(parent, ec))
    throw_environment("cannot write " + path.string() + ": no directory " + parent.string());
  campaign::MeasureRequest request;
  request.seed = args.unsigned_number("--seed").value_or(1);
  request.size = read_size(args);
  request.jobs = args.unsigned_number("--jobs").value_or(campaign::default_fuzz_jobs());
  request.known = read_known(args);
  request.rule = args.value("--rule");
  request.configs = read_configs(args);
  request.compile_seconds = args.duration("--timeout").value_or(defaults().compile_seconds);
  request.toolchain = read_toolchain(args);
  const Measurement measurement = campaign::measure_conformance(request, err);

  write_file(path, pretty_json(campaign::to_json(measurement)));
  if (args.has("--json")) {
    out << pretty_json(campaign::to_json(measurement));
    return 0;
  }
  print_table(measurement, out);
  out << "written to " << path.string() << " (cudiff rules shows it beside the catalog)\n";
  return 0;
}

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

bool produced(const rules::Rule& rule, const std::vector<std::string>& constructs) {
  return !constructs.empty() || rule.probe.has_value();
}

/// The measured verdicts of a rule (its violation for E, its probe for V): compiler -> cell.
std::map<std::string, std::string> measured_cells(const std::optional<Measurement>& measurement,
                                                  const rules::Rule& rule) {
  std::map<std::string, std::string> cells;
  if (!measurement) return cells;
  const std::string variant = rule.kind == rules::RuleKind::must_reject ? "violation" : "probe";
  for (const MeasuredItem& item : measurement->items) {
    if (item.rule != rule.id || item.variant != variant) continue;
    for (const char* compiler : {"nvcc", "clang"}) cells[compiler] = item.verdict_of(compiler);
    cells["verdict"] = item.finding.empty() ? "ok" : item.finding_kind + (item.known_reason.empty() ? "" : " (known)");
  }
  return cells;
}

std::string cell_or_dash(const std::map<std::string, std::string>& cells, const std::string& key) {
  const auto found = cells.find(key);
  return found == cells.end() || found->second.empty() ? "-" : found->second;
}

std::string percent(std::size_t part, std::size_t whole) {
  if (whole == 0) return "-";
  return std::to_string((part * 1000 / whole + 5) / 10) + "%";
}

/// The measurement file, when there is one (a missing file is normal: nothing measured yet).
std::optional<Measurement> load_measurement(const ParsedArgs& args) {
  const std::filesystem::path path = measurement_path(args);
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    if (args.has("--results"))
      throw_usage(path.string() + ": no such file (run cudiff rules --measure --results FILE)");
    return std::nullopt;
  }
  boost::system::error_code parse_error;
  const boost::json::value json = boost::json::parse(read_file(path), parse_error);
  if (parse_error) throw_usage(path.string() + ": not JSON (" + parse_error.message() + ")");
  return campaign::measurement_from_json(json, path.string());
}

int run_rules(const ParsedArgs& args, std::ostream& out, std::ostream& err) {
  if (args.has("--measure")) return run_rules_measure(args, out, err);
  const std::optional<Measurement> measurement = load_measurement(args);
  const std::vector<std::string> scanned_list = ubscan::undefined_rules_scanned();
  const std::set<std::string> scanned(scanned_list.begin(), scanned_list.end());
  std::optional<rules::RuleKind> only;
  if (auto kind = args.value("--kind")) {
    only = rules::parse_rule_kind(*kind);
    if (!only) throw_usage("--kind must be E, V or U, not '" + *kind + "'");
  }
  const std::vector<rules::Rule> catalog = rules::rule_catalog();
  const std::map<std::string, std::vector<std::string>> by_rule = generator::constructs_by_rule();
  const std::vector<std::string> none;
  auto constructs_of = [&](const rules::Rule& rule) -> const std::vector<std::string>& {
    const auto found = by_rule.find(rule.id);
    return found == by_rule.end() ? none : found->second;
  };
  std::size_t e_rules = 0, checkable = 0, templates = 0, v_rules = 0, generated = 0, u_rules = 0;
  for (const rules::Rule& rule : catalog) {
    if (rule.kind == rules::RuleKind::must_reject) {
      ++e_rules;
      checkable += rule.checkable;
      templates += rule.checkable && rule.violation.has_value();
    } else if (rule.kind == rules::RuleKind::valid) {
      ++v_rules;
      generated += produced(rule, constructs_of(rule));
    } else {
      ++u_rules;
    }
  }
  if (args.has("--json")) {
    boost::json::array list;
    for (const rules::Rule& rule : catalog) {
      if (only && rule.kind != *only) continue;
      boost::json::object entry{{"id", rule.id},
                                {"kind", rules::to_string(rule.kind)},
                                {"section", rule.section},
                                {"text", rule.text},
                                {"covered_by", coverage_of(rule, constructs_of(rule), scanned)}};
      if (const auto cells = measured_cells(measurement, rule); !cells.empty())
        entry["measured"] = boost::json::object{{"nvcc", cell_or_dash(cells, "nvcc")},
                                                {"clang", cell_or_dash(cells, "clang")},
                                                {"verdict", cell_or_dash(cells, "verdict")}};
      if (rule.kind == rules::RuleKind::must_reject) entry["checkable"] = rule.checkable;
      if (rule.kind == rules::RuleKind::valid) {
        boost::json::array constructs;
        for (const std::string& name : constructs_of(rule)) constructs.emplace_back(name);
        entry["constructs"] = std::move(constructs);
        if (rule.probe) entry["probe"] = rule.probe->function;
        if (!rule.not_producible.empty()) entry["not_producible"] = rule.not_producible;
      }
      list.push_back(std::move(entry));
    }
    boost::json::object coverage{
        {"e_rules", e_rules},       {"e_checkable", checkable}, {"e_with_violation", templates}, {"v_rules", v_rules},
        {"v_generated", generated}, {"u_rules", u_rules},       {"u_scanned", scanned.size()}};
    out << pretty_json(boost::json::object{{"rules", std::move(list)}, {"coverage", std::move(coverage)}});
    return 0;
  }
  std::vector<std::string> header = {"id", "kind", "section", "covered by"};
  if (measurement) header.insert(header.end(), {"nvcc", "clang", "verdict"});
  header.push_back("rule");
  TextTable table(header);
  for (const rules::Rule& rule : catalog) {
    if (only && rule.kind != *only) continue;
    std::vector<std::string> row = {rule.id, rules::to_string(rule.kind), rule.section,
                                    shorten_utf8(coverage_of(rule, constructs_of(rule), scanned), 48)};
    if (measurement) {
      const auto cells = measured_cells(measurement, rule);
      row.insert(row.end(),
                 {cell_or_dash(cells, "nvcc"), cell_or_dash(cells, "clang"), cell_or_dash(cells, "verdict")});
    }
    row.push_back(shorten_utf8(rule.text, 72));
    table.add_row(std::move(row));
  }
  out << table.render();
  out << "\nE rules (must be diagnosed): " << e_rules << "; checkable at compile time: " << checkable
      << "; with a violation template: " << templates << " (" << percent(templates, checkable) << ")\n"
      << "V constructs: " << v_rules << "; produced by the generator: " << generated << " ("
      << percent(generated, v_rules) << ")\n"
      << "U rules (undefined or run-time only, kept out of generated programs): " << u_rules << "; scanned for in "
      << "generated programs: " << scanned.size() << "\n";
  if (measurement)
    out << "measured " << format_utc(measurement->measured_at) << " with " << measurement->nvcc_version << " and "
        << measurement->clang_version << " (" << measurement_path(args).string() << ")\n";
  else out << "not measured yet: cudiff rules --measure shows what each compiler does with every rule\n";
  return 0;
}

} // namespace

Subcommand rules_subcommand() {
  CommandSpec spec{"rules",
                   "cudiff rules [--kind E|V|U] [--json] | cudiff rules --measure [--jobs N] [--known FILE]",
                   "The CUDA C++ rules catalog (from the Programming Guide: E rules must be diagnosed,\n"
                   "V constructs are valid, U is undefined behaviour) and what cudiff covers of it:\n"
                   "a violation template for each E rule a compiler can check at compile time, the\n"
                   "generator constructs and probes that exercise each V rule, the U rules scanned for.\n"
                   "--measure compiles every violation (planted into a generated program), its fixed\n"
                   "form and every probe with each config, judges them against the rules, prints the\n"
                   "conformance table and keeps it in a file that plain `cudiff rules` then shows.",
                   {}};
  spec.options.push_back({"--kind", "K", "only the rules of kind E, V or U"});
  spec.options.push_back(shared_option(Flag::json, defaults()));
  spec.options.push_back({"--measure", "", "measure what each compiler does with every rule (object mode)"});
  spec.options.push_back({"--results", "FILE", "the measurement file (default cudiff-conformance.json)"});
  spec.options.push_back({"--rule", "ID", "--measure: only this rule"});
  for (auto& option : shared_options({Flag::seed, Flag::size, Flag::config, Flag::jobs, Flag::timeout, Flag::known,
                                      Flag::nvcc, Flag::clang},
                                     defaults()))
    spec.options.push_back(option);
  return {spec, run_rules};
}

} // namespace cudiff::cli
