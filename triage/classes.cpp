// triage: the class of each finding kind, the engine of each campaign kind, and buckets
// grouped by class (docs/triage.md, "Classes and engines").
#include "triage/triage.h"

#include <algorithm>

namespace cudiff::triage {

std::string to_string(FindingClass finding_class) {
  switch (finding_class) {
  case FindingClass::wrong_code: return "wrong code";
  case FindingClass::crash: return "crash";
  case FindingClass::rejects_valid: return "rejects valid";
  case FindingClass::missed_diagnostic: return "missed diagnostic";
  case FindingClass::dialect_difference: return "dialect difference";
  case FindingClass::invalid_tests: return "invalid tests";
  }
  return "wrong code";
}

FindingClass parse_finding_class(std::string_view text) {
  std::string spaced(text);
  std::ranges::replace_if(spaced, [](char c) { return c == '-' || c == '_'; }, ' ');
  std::vector<std::string> names;
  for (FindingClass finding_class : finding_classes) {
    if (to_string(finding_class) == spaced) return finding_class;
    std::string name = to_string(finding_class);
    std::ranges::replace(name, ' ', '-');
    names.push_back(std::move(name));
  }
  throw_usage("unknown class '" + std::string(text) + "' (" + join(names, ", ") + ")");
}

// No default: -Wswitch (an error here) makes a new kind name its class before it builds.
FindingClass class_of(oracle::FindingKind kind) {
  using oracle::FindingKind;
  switch (kind) {
  case FindingKind::run_mismatch:
  case FindingKind::wrong_code:
  case FindingKind::common_wrong_code:
  case FindingKind::layout_mismatch:
  case FindingKind::abi_mismatch:
  case FindingKind::metamorphic: return FindingClass::wrong_code;
  case FindingKind::crash:
  case FindingKind::hang:
  case FindingKind::slow_compile: return FindingClass::crash;
  // A compile-status mismatch has no expectation: one compiler refuses what the other
  // accepts, and either may be right. It is listed with the refusals, where a person looks
  // first; docs/triage.md says so.
  case FindingKind::false_rejection:
  case FindingKind::compile_status_mismatch: return FindingClass::rejects_valid;
  // A late rejection refuses nothing valid: one front end diagnoses the program and the
  // other's lets it through to ptxas or the linker, so that front end missed a diagnostic
  // (its guilty stage is `frontend`; docs/oracle.md, "late rejection").
  case FindingKind::late_rejection:
  case FindingKind::missed_diagnostic:
  case FindingKind::missed_by_all:
  case FindingKind::warning_mismatch: return FindingClass::missed_diagnostic;
  case FindingKind::dialect_difference: return FindingClass::dialect_difference;
  }
  return FindingClass::wrong_code;
}

std::optional<FindingClass> class_of_kind(std::string_view kind) {
  const auto parsed = oracle::parse_finding_kind(kind);
  if (!parsed) return std::nullopt;
  return class_of(*parsed);
}

std::optional<std::string> engine_of(std::string_view campaign_kind, std::string_view finding_kind) {
  if (campaign_kind == "reduce") return std::nullopt;
  // Variants sit in the random engine's batches; what tells their findings apart is the
  // oracle that compares a variant with its original.
  if (finding_kind == oracle::to_string(oracle::FindingKind::metamorphic)) return "metamorphic";
  if (campaign_kind == "fuzz" || campaign_kind == "baseline") return "random";
  if (campaign_kind.empty()) return "unknown";
  return std::string(campaign_kind);  // guided, check, synthetic: the kind is the engine's name
}

std::vector<ClassGroup> group_by_class(const std::vector<Bucket>& buckets) {
  std::vector<ClassGroup> groups;
  for (FindingClass finding_class : finding_classes) groups.push_back({finding_class, {}, 0});
  ClassGroup unknown{std::nullopt, {}, 0};
  for (const Bucket& bucket : buckets) {
    const auto finding_class = class_of_kind(bucket.kind);
    // finding_classes lists the enumerators in declaration order, so a class is its index.
    ClassGroup& group = finding_class ? groups[static_cast<std::size_t>(*finding_class)] : unknown;
    group.buckets.push_back(bucket);
    group.findings += bucket.count;
  }
  if (!unknown.buckets.empty()) groups.push_back(std::move(unknown));
  return groups;
}

std::string class_name(const std::optional<FindingClass>& finding_class) {
  return finding_class ? to_string(*finding_class) : "other kinds";
}

} // namespace cudiff::triage
