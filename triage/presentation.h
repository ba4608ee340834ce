// triage: what `cudiff triage` shows — the bucket list grouped by class, one bucket in full,
// the invalid tests, a merge's counts and an export's files, as text tables or JSON. cli/
// reads the options, calls these, and prints what they return.
#pragma once

#include "triage/database.h"
#include "triage/reports.h"

#include <boost/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cudiff::triage {

/// "2026-05-01 13:04" (UTC); "-" for 0 or less.
std::string day_time(double seconds);

// ---- the bucket list (`triage list`) ------------------------------------------------------

/// Which buckets `triage list` shows; none set: all of them and the invalid tests.
struct ListFilter {
  std::optional<Status> status;
  std::optional<std::string> kind;
  std::optional<FindingClass> finding_class;
};

/// What `triage list` shows: the classes it keeps, the origins and facts of their buckets, the
/// invalid tests by cause (only when no filter on status or kind leaves them out).
struct Listing {
  std::vector<ClassGroup> groups;
  std::size_t buckets = 0;  ///< in the groups kept
  std::map<std::string, BucketOrigins> origins;
  std::map<std::string, BucketFacts> facts;
  std::vector<std::pair<std::string, std::int64_t>> causes;  ///< of the invalid tests, when shown
  std::int64_t invalid_tests = 0;
  Totals totals;  ///< of the whole database
  BugTally bugs;  ///< of the buckets kept: the list's first line
  /// Each bucket's causes (docs/triage.md, "Cause keys"), and the local id of every bucket
  /// another bucket's cause names.
  std::map<std::string, std::vector<BucketCause>> bucket_causes;
  std::map<std::string, std::int64_t> ids;
};

/// Reads the list: the buckets that pass `filter`, grouped by class. With a filter, classes
/// left without a bucket are dropped; invalid tests are no buckets, so a filter on status or
/// kind leaves them out.
Listing read_listing(const Database& db, const ListFilter& filter);
/// `list --json`: the flat array of buckets in the text's order (each bucket's to_json with
/// its link, versions, recheck, engines and configs), what scripts have always parsed; with
/// `by_class`, an object {"classes": [...]} with each class's counts and buckets, and the
/// invalid tests by cause, and "bugs" (to_json(BugTally)).
boost::json::value to_json(const Listing& listing, bool by_class);
/// The bug tally's line ("3 new bugs (...), 5 known or reported, 2 dialect"), then a heading per class (`CLASS: N buckets, F findings`) and its table, the invalid tests by
/// cause, then the line of totals ("N of M buckets; ...").
std::string render_listing(const Listing& listing);

// ---- one bucket (`triage show`) -----------------------------------------------------------

/// A bucket with its smallest findings (5), notes and facts.
struct BucketDetails {
  Bucket bucket;
  std::vector<StoredFinding> findings;
  std::vector<Note> notes;
  BucketFacts facts;
  std::vector<BucketCause> causes;  ///< of its findings (reduced ones and their originals)
  std::string split_from;  ///< the signature's bucket it was split from by cause; else empty
  std::map<std::string, std::int64_t> ids;  ///< local ids of the buckets `causes` and `split_from` name
};
BucketDetails read_details(const Database& db, const Bucket& bucket);
/// `show --json`: to_json of the bucket, its smallest findings, link, versions, recheck and causes.
boost::json::object to_json(const BucketDetails& details);
/// `show`: the bucket's fields, its signature, smallest findings, notes, facts and causes (each
/// with its normalized text), a line each.
std::string render_details(const BucketDetails& details);

// ---- invalid tests (`triage invalid`) -----------------------------------------------------

/// The tests the sanitizer gate rejected: the newest `limit` (0: all), and every one counted
/// by cause.
struct InvalidListing {
  std::vector<InvalidTest> tests;
  std::vector<std::pair<std::string, std::int64_t>> causes;
  std::int64_t total = 0;
};
InvalidListing read_invalid_listing(const Database& db, std::size_t limit);
/// {"count", "by_cause", "tests"}; each test's report and program only when `full`.
boost::json::object to_json(const InvalidListing& listing, bool full);
/// A table of the tests (when any), then "N invalid tests (...): CAUSE COUNT, ...".
std::string render_invalid_listing(const InvalidListing& listing);

// ---- merge and export ---------------------------------------------------------------------

/// What merging `shard` added, one line; a second line when some of its tests were here.
std::string describe_merge(const std::string& shard, const MergeStats& stats);
/// `export --json`: the bucket, every file written, and `notes` on its attachments.
boost::json::object to_json(const Bucket& bucket, const ExportedReport& exported,
                            const std::vector<std::string>& notes);
/// The files written, one a line: report.md, repro.sh, the reproducer (when one is stored),
/// the attachments.
std::string render_exported(const ExportedReport& exported);

}  // namespace cudiff::triage
