// campaign: the conformance measurement of the rules catalog (`cudiff rules --measure`).
#pragma once

#include "generator/generator.h"
#include "pipeline/limits.h"
#include "runners/runners.h"
#include "triage/triage.h"

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cudiff::campaign {

// What each compiler does with every E rule's violation (and its fixed form) and every V
// rule's probe, and the file it is kept in, which plain `cudiff rules` shows beside the catalog.

/// What one config did with one measured program.
struct MeasuredCompile {
  std::string config;
  std::string outcome;      ///< "accepted", "rejected", "crashed", "hung"
  std::string first_error;  ///< the first error's message ("" when accepted)
  std::string tool;         ///< which stage printed it (frontend, ptxas...)
  int line = 0;             ///< its line
  bool at_planted_line = false;
};

/// One measured program: a rule's violation, its fixed form, or its probe.
struct MeasuredItem {
  std::string rule;
  std::string variant;  ///< "violation", "fixed", "probe"
  bool must_reject = false;
  int planted_line = 0;
  std::vector<MeasuredCompile> compiles;
  std::string finding;       ///< the oracle's verdict: "" when as expected, else its summary
  std::string finding_kind;  ///< missed_diagnostic, false_rejection, crash, hang...
  std::string known_reason;  ///< when the finding is a recorded known difference
  /// "nvcc" or "clang": the verdict of that compiler's first config ("accept", "reject",
  /// "crash", "hang").
  std::string verdict_of(std::string_view compiler) const;
};

struct Measurement {
  double measured_at = 0;
  std::string nvcc_version, clang_version;
  std::uint64_t seed = 0;
  std::string size;
  std::vector<std::string> configs;
  std::vector<MeasuredItem> items;
};

/// The measurement file's JSON, as measurement_from_json reads it.
boost::json::value to_json(const Measurement& measurement);
/// Throws Error(usage) with one line for a file that is not a measurement.
Measurement measurement_from_json(const boost::json::value& json, const std::string& origin);

struct MeasureRequest {
  std::uint64_t seed = 1;  ///< the program the violations are planted in
  generator::Size size = generator::Size::small;
  std::optional<std::string> rule;  ///< only this rule
  std::vector<runners::Config> configs = runners::default_configs();
  double compile_seconds = pipeline::kProgramCompileSeconds;
  std::size_t jobs = 1;
  triage::KnownDifferences known;
  runners::Toolchain toolchain;
};
/// Measures every planned program on `jobs` workers (each builds with every config at once),
/// printing a progress line to `err` every 20 programs. Throws Error(environment) when a
/// worker fails, Error(usage) for a rule with neither a violation template nor a probe.
Measurement measure_conformance(const MeasureRequest& request, std::ostream& err);

// ---- the rules catalog's coverage (cudiff rules) -------------------------------------------

/// One rule as `cudiff rules` shows it: what cudiff has for it and, once measured, what each
/// compiler did with its violation (E) or its probe (V).
struct RuleCoverage {
  rules::Rule rule;
  /// In words: "violation template", "generator: A, B; probe", "scanned for in generated
  /// programs", "not checkable: WHY", "-" for nothing.
  std::string covered_by;
  std::vector<std::string> constructs;  ///< the generator constructs that exercise it
  bool measured = false;                ///< the measurement has its violation or probe
  std::string nvcc = "-", clang = "-";  ///< each compiler's verdict; "-" when none
  std::string verdict = "-";            ///< "ok", or the finding's kind (" (known)" when known)
};

/// The catalog's coverage: its rules, and counts over the whole catalog.
struct CatalogCoverage {
  std::vector<RuleCoverage> rules;  ///< in catalog order
  std::size_t e_rules = 0, e_checkable = 0, e_with_violation = 0;  ///< with a template: checkable ones
  std::size_t v_rules = 0, v_generated = 0;  ///< generated: a construct or a probe exercises it
  std::size_t u_rules = 0, u_scanned = 0;    ///< scanned: ubscan looks for it
  /// Per compiler ("nvcc", "clang"), the rules with evidence by what it says: "diagnoses" (it
  /// rejects at every level), else the why ("dialect", "rule_wrong", "upstream", "bug",
  /// "warning"). Over the whole catalog.
  std::map<std::string, std::map<std::string, std::size_t>> evidence;
};

/// What a rule's evidence says of one compiler ("nvcc", "clang"): "diagnoses", the why
/// ("dialect", "bug", ...), or "-" for a rule without evidence.
std::string evidence_cell(const rules::Rule& rule, std::string_view compiler);

/// What cudiff covers of rules::rule_catalog(): for each rule (only those of kind `only`, when
/// given) the violation template (E), the generator constructs and probe (V) or the scan (U)
/// that covers it, with the measured verdicts when `measurement` has them. Never throws.
CatalogCoverage rules_coverage(const std::optional<Measurement>& measurement, std::optional<rules::RuleKind> only);
/// `cudiff rules --json`: {"rules": [each rule, with "measured" once measured], "coverage": the counts}.
boost::json::object to_json(const CatalogCoverage& coverage);
/// `cudiff rules`: a row per rule (id, kind, section, what covers it, the measured verdicts when
/// `measured`, what the evidence says of each compiler, the rule's text), then the counts.
std::string render_coverage(const CatalogCoverage& coverage, bool measured);
/// The conformance table of `cudiff rules --measure`: a row per measured program (rule,
/// program, each compiler's verdict, a rejection "(line)" when its error is at the planted line
/// else "(elsewhere)", the verdict, the first diagnostic), then the programs counted by verdict.
std::string render_measurement(const Measurement& measurement);

} // namespace cudiff::campaign
