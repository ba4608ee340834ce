// oracle: the warning side of judge() — warnings one config gives and another does not.
#include "oracle/judge_parts.h"

#include <optional>
#include <set>
#include <utility>

namespace cudiff::oracle::detail {
namespace {

using boost::json::array;
using boost::json::object;

using Location = std::pair<std::string, int>; // file basename, line

// Warnings without a file are about the command line or the toolkit (flags, deprecated
// architectures), not about the program, and differ between the compilers by design.
std::vector<const Diagnostic*> program_warnings(const CompileObservation& compile) {
  std::vector<const Diagnostic*> warnings;
  for (const Diagnostic& diagnostic : compile.diagnostics) {
    if (diagnostic.severity == Severity::warning && !diagnostic.file.empty()) {
      warnings.push_back(&diagnostic);
    }
  }
  return warnings;
}

Location location_of(const Diagnostic& diagnostic) { return {file_basename(diagnostic.file), diagnostic.line}; }

// The two compilers word and number their warnings differently, so across compilers only
// "is there any warning here" compares; the same compiler under two configs must give the
// same warnings (ids) at each location.
std::vector<const Diagnostic*> one_sided(const CompileObservation& from, const CompileObservation& other,
                                         bool same_compiler) {
  std::set<Location> other_locations;
  std::set<std::pair<Location, std::string>> other_ids;
  for (const Diagnostic* warning : program_warnings(other)) {
    other_locations.insert(location_of(*warning));
    other_ids.insert({location_of(*warning), warning->id});
  }
  std::vector<const Diagnostic*> only_here;
  for (const Diagnostic* warning : program_warnings(from)) {
    const bool matched = same_compiler ? other_ids.contains({location_of(*warning), warning->id})
                                       : other_locations.contains(location_of(*warning));
    if (!matched) only_here.push_back(warning);
  }
  return only_here;
}

// Each compiler's own way of naming a warning: nvcc "#177-D: message", clang/gcc
// "message [-Wflag]"; a message-template id adds nothing to the message.
std::string describe_warning(const Diagnostic& warning) {
  if (!warning.id.empty() && warning.id.front() >= '0' && warning.id.front() <= '9') {
    return "#" + warning.id + ": " + warning.message;
  }
  if (warning.id.starts_with("-W")) return warning.message + " [" + warning.id + "]";
  return warning.message;
}

object side_details(const CompileObservation& compile, const std::vector<const Diagnostic*>& warnings) {
  array entries;
  for (const Diagnostic* warning : warnings) entries.push_back(to_json(*warning));
  return object{{"config", compile.config},
                {"compiler", runners::to_string(compile.compiler)},
                {"warnings", std::move(entries)}};
}

std::optional<Finding> compare_pair(const CompileObservation& a, const CompileObservation& b) {
  const bool same_compiler = a.compiler == b.compiler;
  const auto only_a = one_sided(a, b, same_compiler);
  const auto only_b = one_sided(b, a, same_compiler);
  if (only_a.empty() && only_b.empty()) return std::nullopt;
  const CompileObservation& first_side = only_a.empty() ? b : a;
  const Diagnostic& first = only_a.empty() ? *only_b.front() : *only_a.front();
  const std::string summary = "warning only from " + first_side.config + " at " + location_text(first) + ": " +
                              describe_warning(first);
  object details{{"compared", same_compiler ? "warning ids per location" : "warning locations"},
                 {"only_in", array{side_details(a, only_a), side_details(b, only_b)}}};
  return make_finding(FindingKind::warning_mismatch, {a.config, b.config}, summary, std::move(details));
}

// Warning sets are comparable only when both compiles got equally far: a compile that
// stopped at an error has not seen the rest of the program.
bool comparable(const CompileObservation& a, const CompileObservation& b) {
  const bool clean = a.outcome == CompileOutcome::accepted || a.outcome == CompileOutcome::rejected;
  return clean && a.outcome == b.outcome;
}

} // namespace

std::vector<Finding> warning_findings(const std::vector<CompileObservation>& compiles) {
  std::vector<Finding> findings;
  for (std::size_t i = 0; i < compiles.size(); ++i) {
    for (std::size_t j = i + 1; j < compiles.size(); ++j) {
      if (!comparable(compiles[i], compiles[j])) continue;
      if (auto finding = compare_pair(compiles[i], compiles[j])) findings.push_back(std::move(*finding));
    }
  }
  return findings;
}

} // namespace cudiff::oracle::detail
