// `cudiff rules`: the CUDA C++ rules catalog and what cudiff covers of it — a violation
// template for each compile-time-checkable E rule, a generator construct or probe for each V
// rule, a scan for each textual U rule (campaign::rules_coverage) — and, once measured
// (campaign::measure_conformance), what each compiler does with them.
#include "cli/commands.h"
#include "rules/rules.h"

#include <map>
#include <ostream>

namespace cudiff::cli {
namespace {

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
  out << campaign::render_measurement(measurement);
  out << "written to " << path.string() << " (cudiff rules shows it beside the catalog)\n";
  return 0;
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
  std::optional<rules::RuleKind> only;
  if (auto kind = args.value("--kind")) {
    only = rules::parse_rule_kind(*kind);
    if (!only) throw_usage("--kind must be E, V or U, not '" + *kind + "'");
  }
  const campaign::CatalogCoverage coverage = campaign::rules_coverage(measurement, only);
  if (args.has("--json")) {
    out << pretty_json(campaign::to_json(coverage));
    return 0;
  }
  out << campaign::render_coverage(coverage, measurement.has_value());
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
