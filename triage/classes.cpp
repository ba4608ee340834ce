// triage: the class of each finding kind, the engine of each campaign kind, and buckets
// grouped by class (docs/triage.md, "Classes and engines").
#include "triage/triage.h"

#include <algorithm>
#include <map>

namespace cudiff::triage {

std::string to_string(FindingClass finding_class) {
  switch (finding_class) {
  case FindingClass::wrong_code: return "wrong code";
  case FindingClass::crash: return "crash";
  case FindingClass::rejects_valid: return "rejects valid";
  case FindingClass::missed_diagnostic: return "missed diagnostic";
  case FindingClass::layout_abi: return "layout and ABI";
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
  case FindingKind::metamorphic: return FindingClass::wrong_code;
  // Layouts and parameter declarations are compared, not run: a difference is often a
  // documented choice (long double's device size), so it is kept apart from wrong results.
  case FindingKind::layout_mismatch:
  case FindingKind::abi_mismatch: return FindingClass::layout_abi;
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

std::int64_t BugTally::total_new() const {
  std::int64_t total = 0;
  for (const auto& [finding_class, count] : new_bugs) total += count;
  return total;
}

BugTally tally_bugs(const std::vector<Bucket>& buckets) {
  BugTally tally;
  std::map<FindingClass, std::int64_t> by_class;
  for (const Bucket& bucket : buckets) {
    const std::optional<FindingClass> finding_class = class_of_kind(bucket.kind);
    if (finding_class == FindingClass::dialect_difference) ++tally.dialect;
    else if (bucket.status == Status::fresh) ++by_class[finding_class.value_or(FindingClass::wrong_code)];
    else if (bucket.status == Status::invalid) ++tally.invalid;
    else ++tally.known_or_reported;
  }
  for (FindingClass finding_class : finding_classes)
    if (by_class.count(finding_class)) tally.new_bugs.emplace_back(finding_class, by_class[finding_class]);
  return tally;
}

std::string describe(const BugTally& tally) {
  const auto plural = [](std::int64_t count, const std::string& one, const std::string& many) {
    return std::to_string(count) + " " + (count == 1 ? one : many);
  };
  std::string text;
  const std::int64_t total = tally.total_new();
  if (total == 0) {
    text = "no new bugs";
  } else {
    std::vector<std::string> parts;
    for (const auto& [finding_class, count] : tally.new_bugs) {
      const std::string name = to_string(finding_class);
      // "crashes", "missed diagnostics"; "wrong code", "rejects valid", "layout and ABI" stay.
      const bool countable = finding_class == FindingClass::crash || finding_class == FindingClass::missed_diagnostic;
      parts.push_back(countable ? plural(count, name, name == "crash" ? "crashes" : name + "s")
                                : std::to_string(count) + " " + name);
    }
    text = plural(total, "new bug", "new bugs") + " (" + join(parts, ", ") + ")";
  }
  text += ", " + std::to_string(tally.known_or_reported) + " known or reported, " + std::to_string(tally.dialect) +
          " dialect";
  if (tally.invalid > 0) text += ", " + std::to_string(tally.invalid) + " marked invalid";
  return text;
}

boost::json::object to_json(const BugTally& tally) {
  boost::json::object by_class;
  for (const auto& [finding_class, count] : tally.new_bugs) by_class[to_string(finding_class)] = count;
  return {{"new_bugs", tally.total_new()},
          {"new_by_class", std::move(by_class)},
          {"known_or_reported", tally.known_or_reported},
          {"dialect", tally.dialect},
          {"invalid", tally.invalid}};
}

} // namespace cudiff::triage
