// triage: classes and engines — what a bucket is to the person reading the list (wrong code,
// crash, ...), the engine that found a finding, and buckets grouped by class.
#pragma once

#include "triage/records.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cudiff::triage {

// ---- classes and engines (docs/triage.md, "Classes and engines") ------------------------

/// What a bucket is to the person reading the list: `triage list` and the HTML report group by
/// it, in this order. `invalid_tests` holds no bucket: it stands for the tests the sanitizer
/// gate rejected (counted by cause), which are never filed as compiler bugs.
enum class FindingClass {
  wrong_code,
  crash,
  rejects_valid,
  missed_diagnostic,
  layout_abi,
  dialect_difference,
  invalid_tests
};
/// Every class, in the order they are shown.
inline constexpr FindingClass finding_classes[] = {FindingClass::wrong_code,    FindingClass::crash,
                                                   FindingClass::rejects_valid, FindingClass::missed_diagnostic,
                                                   FindingClass::layout_abi,    FindingClass::dialect_difference,
                                                   FindingClass::invalid_tests};
/// "wrong code", "crash", "rejects valid", "missed diagnostic", "layout and ABI", "dialect
/// difference", "invalid tests".
std::string to_string(FindingClass finding_class);
/// The inverse of to_string, with '-' or '_' for the spaces ("wrong-code"); throws Error(usage)
/// naming the classes for anything else.
FindingClass parse_finding_class(std::string_view text);
/// The class of every finding kind (never invalid_tests): wrong code (what a run printed:
/// results against the prediction or another config, metamorphic variants), crash (crashes,
/// hangs, slow compiles), layout and ABI (a type's layout, a kernel's parameter declarations:
/// host and device or two compilers disagree, often by a documented choice), rejects valid
/// (false rejections, compile-status mismatches), missed diagnostic (missed diagnostics,
/// missed by all, late rejections: a front end let an invalid program through, warning
/// mismatches), dialect difference.
FindingClass class_of(oracle::FindingKind kind);
/// The class of a kind as stored (Bucket::kind); none for a name this cudiff does not know.
std::optional<FindingClass> class_of_kind(std::string_view kind);

/// The engine that found a finding, from its campaign's kind and its own: "metamorphic" for
/// the metamorphic oracle's findings (a variant departs from its original), else "random"
/// (campaigns `fuzz`, and `baseline`, the guided engine's unguided arm), "guided", "check" (a
/// person's file), any other campaign kind by its name ("synthetic"), "unknown" without a
/// campaign row (""). None for a `reduce` campaign's: a reproducer is not a sighting.
std::optional<std::string> engine_of(std::string_view campaign_kind, std::string_view finding_kind);

/// Where one bucket's findings came from (Database::bucket_origins).
struct BucketOrigins {
  /// "random", "guided", "metamorphic", "check" in this order, then any other engine by name.
  std::vector<std::string> engines;
  std::vector<std::string> configs;  ///< every config its findings name, sorted
};

/// The buckets of one class, as `triage list` and the report show them.
struct ClassGroup {
  std::optional<FindingClass> finding_class;  ///< none: kinds this cudiff does not know
  std::vector<Bucket> buckets;
  std::int64_t findings = 0;  ///< the sum of their counts
};
/// One group per class, in class order, empty ones included (invalid_tests is always empty:
/// its tests are no buckets), then one of the kinds this cudiff does not know when any bucket
/// has one. Each group keeps the buckets in the order given.
std::vector<ClassGroup> group_by_class(const std::vector<Bucket>& buckets);
/// to_string of the class; "other kinds" for none.
std::string class_name(const std::optional<FindingClass>& finding_class);

// ---- what a list of buckets means to a person ---------------------------------------------

/// The first line of a campaign's summary and of `triage list`: the new bugs by class, then
/// what is known already and what is dialect (docs/triage.md, "Classes and engines").
struct BugTally {
  /// Buckets still `new` per class, in class order (dialect differences are never bugs).
  std::vector<std::pair<FindingClass, std::int64_t>> new_bugs;
  std::int64_t known_or_reported = 0;  ///< `known`, `reported` or `fixed`
  std::int64_t dialect = 0;            ///< the dialect-difference class, whatever its status
  std::int64_t invalid = 0;            ///< marked `invalid` by a person
  std::int64_t total_new() const;
};
BugTally tally_bugs(const std::vector<Bucket>& buckets);
/// "3 new bugs (1 wrong code, 2 crashes), 5 known or reported, 2 dialect"; "no new bugs, ...".
std::string describe(const BugTally& tally);
/// {"new_bugs": N, "new_by_class": {"wrong code": W, ...}, "known_or_reported": M, "dialect": K,
/// "invalid": I}.
boost::json::object to_json(const BugTally& tally);

} // namespace cudiff::triage
