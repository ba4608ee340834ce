// `cudiff rules --measure`: the conformance measurement of the rules catalog — what each
// compiler does with every E rule's violation (and its fixed form) and every V rule's probe —
// and the file it is kept in, which plain `cudiff rules` shows beside the catalog.
#pragma once

#include "cli/options.h"
#include "generator/generator.h"
#include "rules/rules.h"
#include "triage/triage.h"

#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace cudiff::cli {

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
  std::string finding;        ///< the oracle's verdict: "" when as expected, else its summary
  std::string finding_kind;   ///< missed_diagnostic, false_rejection, crash, hang...
  std::string known_reason;   ///< when the finding is a recorded known difference
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

boost::json::value to_json(const Measurement& measurement);
/// Throws Error(usage) with one line for a file that is not a measurement.
Measurement measurement_from_json(const boost::json::value& json, const std::string& origin);

/// Where `cudiff rules --measure` writes and `cudiff rules` reads: --results FILE, else
/// cudiff-conformance.json in the current directory.
std::filesystem::path measurement_path(const ParsedArgs& args);

/// `cudiff rules --measure`: measures, writes the file, prints the conformance table (or JSON).
int run_rules_measure(const ParsedArgs& args, std::ostream& out, std::ostream& err);

} // namespace cudiff::cli
