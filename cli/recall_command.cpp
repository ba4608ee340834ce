// `cudiff recall [DIR]`: the known-bug suite (corpus/known-bugs) checked under one or more config
// sets (campaign::measure_recall), and per set the share of known bugs found, bucketed and
// attributed right, and what it cost.
#include "cli/commands.h"

#include <algorithm>
#include <cstdio>
#include <ostream>

namespace cudiff::cli {
namespace {

Defaults defaults() {
  Defaults d;
  d.compile_seconds = pipeline::kFileCompileSeconds;
  d.run_seconds = pipeline::kRunSeconds;
  d.json = "print the report as JSON instead of tables";
  return d;
}

std::string default_set() {
  std::vector<std::string> names;
  for (const runners::Config& config : runners::default_configs()) names.push_back(config.name);
  return join(names, ",");
}

/// --compare "A;B", else --config LIST, else the campaign defaults.
std::vector<campaign::ConfigSet> read_sets(const ParsedArgs& args) {
  if (args.has("--compare") && args.has("--config")) throw_usage("give --config or --compare, not both");
  const std::optional<std::string> arch = args.value("--arch");
  std::vector<std::string> lists;
  if (auto compare = args.value("--compare")) {
    for (const std::string& list : split(*compare, ';'))
      if (!trim(list).empty()) lists.emplace_back(trim(list));
    if (lists.empty()) throw_usage("--compare needs config sets separated by ';'");
  } else {
    lists.push_back(args.value("--config").value_or(default_set()));
  }
  std::vector<campaign::ConfigSet> sets;
  for (const std::string& list : lists) sets.push_back(campaign::config_set(list, arch));
  return sets;
}

/// The suite's cases, narrowed by --only and --case.
std::vector<campaign::KnownBugCase> read_cases(const ParsedArgs& args) {
  if (args.positionals.size() > 1) throw_usage("recall takes one suite directory");
  const std::filesystem::path suite = args.positionals.empty() ? "corpus/known-bugs" : args.positionals.front();
  std::vector<campaign::KnownBugCase> cases = campaign::read_known_bugs(suite);
  const std::string only = args.value("--only").value_or("all");
  if (only != "all" && only != "compile" && only != "gpu") throw_usage("--only takes compile, gpu or all");
  std::optional<std::vector<std::string>> names;
  if (auto list = args.value("--case")) names = split(*list, ',');
  std::vector<campaign::KnownBugCase> chosen;
  for (campaign::KnownBugCase& bug : cases) {
    if (only == "compile" && bug.needs_gpu) continue;
    if (only == "gpu" && !bug.needs_gpu) continue;
    if (names && std::find(names->begin(), names->end(), bug.name) == names->end()) continue;
    chosen.push_back(std::move(bug));
  }
  if (names)
    for (const std::string& name : *names)
      if (std::none_of(chosen.begin(), chosen.end(), [&](const auto& bug) { return bug.name == name; }))
        throw_usage("no case '" + name + "' in " + suite.string() + " (with --only " + only + ")");
  if (chosen.empty()) throw_usage("no case of " + suite.string() + " is left with --only " + only);
  return chosen;
}

std::string percent(std::size_t part, std::size_t whole) {
  if (whole == 0) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%zu/%zu (%.0f%%)", part, whole, 100.0 * double(part) / double(whole));
  return text;
}

void print_set(const campaign::RecallResult& result, std::ostream& out) {
  out << "config set: " << result.set.name;
  if (!result.set.per_case) {
    std::vector<std::string> names;
    for (const runners::Config& config : result.set.configs) names.push_back(config.name);
    out << " (" << join(names, ", ") << ")";
  }
  if (!result.set.unknown.empty()) out << "; unknown here, left out: " << join(result.set.unknown, ", ");
  out << "\n";
  TextTable table({"case", "status", "bucket", "stage", "compile", "run", "note"});
  for (const campaign::CaseOutcome& outcome : result.cases) {
    const bool checked = outcome.status != "skipped";
    table.add_row({outcome.name, outcome.status, outcome.found ? (outcome.right_bucket ? "right" : "wrong") : "-",
                   outcome.found ? outcome.stage : "-", checked ? format_seconds(outcome.compile_seconds) : "-",
                   checked && outcome.run_seconds > 0 ? format_seconds(outcome.run_seconds) : "-",
                   shorten_utf8(outcome.note, 80)});
  }
  out << table.render();
}

void print_summary(const campaign::RecallReport& report, std::ostream& out) {
  out << "nvcc " << report.nvcc_version << ", clang " << report.clang_version << ", GPU " << report.gpu << "\n";
  TextTable table({"config set", "recall", "bucket right", "stage right", "no stage", "skipped", "compile+run per case",
                   "confirmed missed"});
  for (const campaign::RecallResult& result : report.results) {
    const double per_case = result.checked == 0
                                ? 0.0
                                : (result.compile_seconds + result.run_seconds) / double(result.checked);
    table.add_row({result.set.name, percent(result.found, result.checked), percent(result.right_bucket, result.found),
                   percent(result.right_stage, result.found - result.no_stage), std::to_string(result.no_stage),
                   std::to_string(result.skipped), result.checked == 0 ? "-" : format_seconds(per_case),
                   std::to_string(result.confirmed_missed)});
  }
  out << table.render();
}

int run_recall(const ParsedArgs& args, std::ostream& out, std::ostream& err) {
  campaign::RecallRequest request;
  request.sets = read_sets(args);
  request.cases = read_cases(args);
  request.mode = read_mode(args);
  request.compile_limits = read_compile_limits(args, defaults());
  request.run_limits = read_run_limits(args, defaults());
  request.toolchain = read_toolchain(args);
  request.gpus = runners::discover_gpus();
  const campaign::RecallReport report = campaign::measure_recall(request, err);

  if (args.has("--json")) {
    out << pretty_json(campaign::to_json(report));
  } else {
    for (const campaign::RecallResult& result : report.results) {
      print_set(result, out);
      out << "\n";
    }
    print_summary(report, out);
  }
  for (const campaign::RecallResult& result : report.results)
    if (result.confirmed_missed > 0) return 1;
  return 0;
}

} // namespace

Subcommand recall_subcommand() {
  CommandSpec spec{
      "recall",
      "cudiff recall [DIR] [--config LIST | --compare \"LIST1;LIST2\"] [--only compile|gpu] [--case NAMES] [--json]",
      "Measure which known compiler bugs a config set finds: check every case of the known-bug\n"
      "suite (DIR, default corpus/known-bugs) and say whether its finding came, in the right\n"
      "bucket and stage, and what the compiles and runs cost. Cases that need a GPU are skipped\n"
      "without one. Exit status: 0 when every case marked confirmed was found, 1 when one was\n"
      "missed, 2 usage or environment error.",
      {}};
  spec.options = {{"--config", "LIST",
                   "one config set: presets, comma-separated, or 'case' (each case's own presets; default " +
                       default_set() + "); presets unknown here are reported and left out"},
                  {"--compare", "SETS", "several config sets separated by ';', measured one after another"},
                  {"--only", "WHICH", "compile (cases that need no GPU), gpu, or all (default)"},
                  {"--case", "NAMES", "only these cases (comma-separated directory names)"}};
  for (auto& option :
       shared_options({Flag::arch, Flag::mode, Flag::json, Flag::timeout, Flag::run_timeout, Flag::nvcc, Flag::clang},
                      defaults())) {
    // A case names the cheapest mode that shows it; --mode overrides every case's.
    if (option.name == "--mode")
      option.help = "how far to build every case: syntax, ptx, cubin, object, binary, run "
                    "(default: each case's own mode, else check's)";
    spec.options.push_back(option);
  }
  return {spec, run_recall};
}

} // namespace cudiff::cli
