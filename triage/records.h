// triage: what the database holds — statuses, campaigns, tests, findings, buckets, notes, a
// bucket's facts, invalid tests, and what a merge added.
#pragma once

#include "triage/signature.h"

#include <boost/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cudiff::triage {

// ---- records ----------------------------------------------------------------------------

enum class Status { fresh, known, reported, fixed, invalid };  ///< fresh is written "new"
std::string to_string(Status status);
/// "new", "known", "reported", "fixed", "invalid"; throws Error(usage) for anything else.
Status parse_status(std::string_view text);

/// One campaign. A `cudiff check --db` run is a campaign of its own (kind "check", one test).
struct Campaign {
  std::string id;    ///< unique_key()
  std::string kind;  ///< "check", "fuzz", "synthetic"
  std::string host;
  double started = 0;  ///< unix seconds
  double ended = 0;
  std::string cudiff_version, nvcc_version, clang_version;
  std::string gpus;  ///< "0: NVIDIA H100 (sm_90)"; empty when compile-only
  std::vector<std::string> configs;
  std::string mode;  ///< runners::Mode name
  std::int64_t tests = 0;
  std::int64_t findings = 0;
};

struct Test {
  std::string id;  ///< content_key(campaign id, name)
  std::string campaign_id;
  std::string name;  ///< the file, or the generated program's name
  std::string seed, policy_hash;
  std::vector<std::string> configs;
  std::string outcome;  ///< "agree", "discrepancy"
  double time = 0;
  double seconds = 0;
};

/// A finding on its way into the database.
struct NewFinding {
  std::string id;  ///< unique across hosts: content_key(campaign, test, index)
  std::string campaign_id, test_id;
  double time = 0;
  oracle::Finding finding;
  Signature signature;
  std::string source_name;      ///< the test case's file name
  std::string source;           ///< the test case itself
  boost::json::object outputs;  ///< per config: command, exit, stdout/stderr; versions; GPU
};

/// A finding as stored.
struct StoredFinding {
  std::string id, campaign_id, test_id, bucket_key;
  double time = 0;
  std::string kind, summary;
  boost::json::value configs, details, outputs;
  std::string source_name, source;
};

struct Bucket {
  std::int64_t id = 0;  ///< local to one database; keys are what merges compare
  std::string key, title, kind, side, stage, symptom;
  Status status = Status::fresh;
  std::string known_reason;
  std::int64_t count = 0;
  double first_seen = 0, last_seen = 0;
  std::string best_finding;  ///< the finding with the smallest reproducer
  std::int64_t best_size = 0;  ///< its size in bytes
};

struct Note {
  double time = 0;
  std::string text;
};

/// What is known of a bucket beyond its findings (none of it is part of the key): set by a
/// person (`triage mark ID reported --link URL`) or by `triage recheck` and the bisection.
struct BucketFacts {
  std::string link;      ///< the upstream bug report
  std::string
      versions;  ///< which compiler releases show it: "first bad clang 19, last good clang 16" or "not bisectable: WHY"
  std::string recheck;  ///< the last recheck's verdict: "present", "fixed", or "cannot tell: WHY"
  double recheck_time = 0;
  std::string recheck_compilers;  ///< the versions it was rechecked with
};

/// One cause of a bucket's findings (docs/triage.md, "Cause keys").
struct BucketCause {
  std::string key, basis, text;
  std::int64_t findings = 0;  ///< this bucket's findings with it (reductions and their originals)
  std::vector<std::string> other_buckets;  ///< keys of other buckets whose findings have it: one bug
};

struct Recorded {
  Bucket bucket;  ///< after the finding was counted
  bool new_bucket = false;
  bool duplicate = false;  ///< the finding id was already there: nothing changed
};

struct BucketQuery {
  std::optional<Status> status;
  std::optional<std::string> kind;
  std::size_t limit = 0;  ///< 0: all; ordered by count (highest first), then key
};

struct Totals {
  std::int64_t campaigns = 0, tests = 0, findings = 0, buckets = 0;
};

/// A test the sanitizer gate rejected (docs/triage.md, "Invalid tests"): its run faulted under
/// compute-sanitizer, so the finding it showed is the program's defect and was not filed as a
/// compiler bug. Kept with the program, the configs, the tool and the sanitizer's report.
struct InvalidTest {
  std::string id;  ///< content_key(campaign id, test name): one row per test
  std::string campaign_id, test_id;
  double time = 0;
  std::string name;  ///< the test's name (a generated seed's, or the checked file)
  std::string seed;  ///< a generated test's seed; empty for a person's file
  std::string finding_kind, finding_summary;  ///< what would have been filed
  std::vector<std::string> configs;  ///< the binaries the gate checked
  std::vector<std::string> erring_configs;  ///< those the failing tool reported errors on
  std::string tool;  ///< memcheck, initcheck, racecheck, synccheck
  std::string cause;  ///< the first error's kind: out-of-bounds, stack overflow, uninitialized read, race...
  std::string first_error;  ///< its headline as the sanitizer printed it
  std::string command;  ///< the sanitizer command that found it
  std::string report;  ///< what the sanitizer printed (capped at 64 KiB)
  std::string source_name, source;
};
/// An invalid test as JSON (`cudiff triage invalid --json`); the report and source only when
/// `full`.
boost::json::object to_json(const InvalidTest& invalid, bool full);

struct MergeStats {
  std::int64_t findings_added = 0, buckets_added = 0, campaigns_added = 0;
  std::int64_t tests_added = 0;
  /// The shard's tests this database had already: the same shard merged again, or two shards
  /// that tested the same seed of one campaign (overlapping --shard settings).
  std::int64_t tests_present = 0;
  std::int64_t campaigns_joined = 0;  ///< campaigns both had: shards of one campaign
  std::int64_t invalid_tests_added = 0;  ///< tests the shard's sanitizer gate rejected
};

/// A bucket as JSON: every field and its `class` (`cudiff triage list --json`, `show --json`).
boost::json::object to_json(const Bucket& bucket);

}  // namespace cudiff::triage
