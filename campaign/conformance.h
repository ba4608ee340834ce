// campaign: the conformance measurement of the rules catalog (`cudiff rules --measure`).
#pragma once

#include "generator/generator.h"
#include "pipeline/limits.h"
#include "runners/runners.h"
#include "triage/triage.h"

#include <cstddef>
#include <cstdint>
#include <iosfwd>
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

} // namespace cudiff::campaign
