// triage: the SQLite triage database — open (refuse, migrate, WAL), write in transactions, query,
// merge shards, snapshot.
#pragma once

#include "triage/avoid.h"
#include "triage/cause.h"
#include "triage/classes.h"
#include "triage/known.h"
#include "triage/records.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cudiff::triage {

// ---- the database -----------------------------------------------------------------------

/// The schema version this cudiff writes (PRAGMA user_version); docs/triage.md lists them.
constexpr int schema_version = 7;

/// Whether `path` (a file, or the name of one to create) is on a filesystem that several hosts
/// can share (NFS, SMB, Lustre, GPFS, BeeGFS, CephFS, AFS, 9P, PanFS, FUSE): Database::open
/// keeps such a database in rollback-journal mode, never WAL.
bool on_network_filesystem(const std::filesystem::path& path);

struct OpenOptions {
  bool create = true;  ///< create a missing file (else Error "no such database")
  bool read_only = false;  ///< never writes; an older schema is left as it is (see version())
  int upgrade_to = schema_version;  ///< tests only: stop migrating at an older version
  double busy_timeout_seconds = 60;
};

/// Database::cause_sampling's answer.
struct CauseSampling {
  std::string base;               ///< the signature's bucket key
  std::int64_t reduced = 0;       ///< its sightings reduced to a cause
  std::vector<std::string> open;  ///< its sightings with no cause yet, smallest first
};

class Database {
public:
  /// Opens (creating or upgrading in place) a triage database, in WAL mode (rollback-journal
  /// mode on a network filesystem). Throws Error(environment) with
  /// one line for a directory, a non-SQLite or corrupt file, or a newer schema; the refused
  /// file is left byte for byte as it was.
  static Database open(const std::filesystem::path& path, const OpenOptions& options = {});
  Database(Database&&) noexcept;
  Database& operator=(Database&&) noexcept;
  ~Database();

  const std::filesystem::path& path() const;
  int version() const;
  /// The signature version the bucket keys were made with: signature_version once opened for
  /// writing (an older database is re-keyed then); an older one read-only.
  int key_version() const;
  /// "wal"; "delete" for a database on a network filesystem (on_network_filesystem).
  std::string journal_mode() const;

  /// Runs `body` in one write transaction (BEGIN IMMEDIATE ... COMMIT); rolls back and
  /// rethrows when it throws. Calls outside a transaction commit one statement at a time.
  void transaction(const std::function<void()>& body);

  /// Inserts the campaign, or updates its end time and counts when its id is known.
  void put_campaign(const Campaign& campaign);
  void add_test(const Test& test);
  /// Counts the finding in its bucket (a new bucket or count + 1), keeping first/last seen
  /// and the smallest reproducer. A finding id already present changes nothing (duplicate).
  /// With `known`, a bucket still `new` becomes `known` with its reason.
  Recorded add_finding(const NewFinding& finding, const KnownDifference* known = nullptr);

  /// Stores a reduced reproducer of an existing bucket (`cudiff triage reduce`): the finding
  /// and its blobs, in one transaction. It becomes the bucket's best reproducer when it is
  /// smaller; the count does not change (a reduction is not another sighting). Throws
  /// Error(usage) when the bucket does not exist. Returns the bucket after.
  Bucket add_reproducer(const NewFinding& finding);

  /// Records the cause of a reduced finding (`reduced`, stored by add_reproducer) and of
  /// `source`, the finding it was reduced from (a cause it has already stays), under the
  /// signature's bucket they belong to; then, when that signature's findings have two causes or
  /// more, splits its bucket into one bucket per cause (docs/triage.md, "Cause keys"). Returns
  /// the key of the bucket the reduced finding is in after.
  std::string add_cause(const std::string& reduced, const std::string& source, const Cause& cause);
  /// The causes of a bucket's findings, most findings first; each names the other buckets
  /// whose findings have it too (one bug under two signatures).
  std::vector<BucketCause> causes(const std::string& bucket_key) const;
  /// Every bucket's causes by bucket key (one query for a whole list).
  std::map<std::string, std::vector<BucketCause>> all_causes() const;
  /// The key of the signature's bucket this bucket was split from by cause; empty when it was
  /// not split from one.
  std::string split_from(const std::string& bucket_key) const;
  /// How the sightings of the signature `bucket_key` is filed by (its own, or the one it was
  /// split from) stand for their causes: how many were reduced to a cause, and the ids of those
  /// not reduced yet, smallest reproducer first. A campaign reduces a few of each wrong-code or
  /// crash signature, not only the best, so that a bucket holding two bugs splits in two.
  CauseSampling cause_sampling(const std::string& bucket_key) const;

  std::vector<Bucket> buckets(const BucketQuery& query = {}) const;
  /// By local id ("3") or key prefix (at least 4 hex digits); throws Error(usage) for none or
  /// an ambiguous prefix.
  Bucket bucket(std::string_view id_or_key) const;
  std::optional<StoredFinding> finding(std::string_view id) const;
  /// Findings of one bucket, smallest reproducer first.
  std::vector<StoredFinding> findings_of(const std::string& bucket_key, std::size_t limit) const;
  std::vector<Note> notes(const std::string& bucket_key) const;
  std::vector<Campaign> campaigns() const;  ///< oldest first
  std::optional<Campaign> campaign(const std::string& id) const;
  Totals totals() const;

  void set_status(const std::string& bucket_key, Status status);
  /// A bucket still `new` becomes `known` with `reason`; false when it was not new.
  bool mark_known(const std::string& bucket_key, std::string_view reason);
  void add_note(const std::string& bucket_key, std::string_view text, double time);
  /// The bucket's facts (empty ones when none were set).
  BucketFacts facts(const std::string& bucket_key) const;
  /// Every bucket's facts that has any, by key (a small table: one query for a whole list).
  std::map<std::string, BucketFacts> all_facts() const;
  void set_link(const std::string& bucket_key, std::string_view link);
  void set_versions(const std::string& bucket_key, std::string_view versions);
  void set_recheck(const std::string& bucket_key, std::string_view verdict, std::string_view compilers, double time);
  /// Buckets still `new` whose signature matches an entry, or one of whose causes is a known-bug
  /// case's (KnownDifferences::match_cause), become `known`; returns how many.
  std::int64_t apply_known(const KnownDifferences& known);

  /// Unions another database into this one, in one transaction: findings by id (so merging
  /// the same shard twice changes nothing), bucket counts summed over new findings, first
  /// seen min, last seen max, the smallest reproducer kept, a person's status kept over
  /// `new`. A campaign both have (the shards of one named campaign) becomes one: first start,
  /// last end (none while a shard is unfinished), both hosts, tests and findings counted
  /// anew. The shard is only read (an older shard is upgraded in a temporary copy).
  MergeStats merge_from(const std::filesystem::path& shard);

  /// Writes a consistent copy of this database to `destination` as one self-contained file
  /// in rollback-journal mode (no -wal or -shm beside it), the safe form for a network
  /// filesystem: built in a local temporary directory, then moved into place under a
  /// temporary name and renamed, so `destination` is always either the old copy or the new.
  /// Committed transactions still in this database's write-ahead log are included.
  void snapshot_to(const std::filesystem::path& destination) const;

  /// The avoid rules stored here (docs/triage.md, "Avoid rules"), by cause key.
  std::vector<AvoidRule> avoid_rules() const;
  /// Stores a rule, replacing the one of its cause.
  void put_avoid_rule(const AvoidRule& rule);
  /// Removes the rule of `cause_key`; false when there was none.
  bool drop_avoid_rule(std::string_view cause_key);
  /// Derives a rule from each confirmed cause (a bucket marked known, reported or fixed one of
  /// whose findings has a cause, read from its reduced reproducer) that has none, and drops the
  /// derived rules whose cause no bucket confirms any more (rules set by hand stay), in one
  /// transaction. Returns what it did.
  AvoidRefresh refresh_avoid_rules(double now);

  /// A fuzz campaign's parameters (JSON text), kept for `cudiff fuzz --resume`; the latest put
  /// wins. Not merged into other databases.
  void put_campaign_params(const std::string& campaign_id, const std::string& params);
  std::optional<std::string> campaign_params(const std::string& campaign_id) const;
  /// The seeds of a campaign's tests (each test of a fuzz campaign is one generated seed).
  std::vector<std::string> tested_seeds(const std::string& campaign_id) const;
  /// Findings recorded by one campaign.
  std::int64_t campaign_finding_count(const std::string& campaign_id) const;
  /// Tests recorded by one campaign (a count: no rows are read).
  std::int64_t campaign_test_count(const std::string& campaign_id) const;

  /// Records a test the sanitizer gate rejected (report and source in blobs); an id already
  /// there changes nothing. Returns false for such a duplicate.
  bool add_invalid_test(const InvalidTest& invalid);
  /// Invalid tests, newest first (0: all), with their reports and sources.
  std::vector<InvalidTest> invalid_tests(std::size_t limit = 0) const;
  /// How many invalid tests each cause has, most frequent first (ties by cause).
  std::vector<std::pair<std::string, std::int64_t>> invalid_test_causes() const;
  std::int64_t invalid_test_count() const;

  /// "ok", or what PRAGMA integrity_check found.
  std::string integrity_check() const;

  /// Findings per (time, kind), for plots: each finding's time and kind, oldest first.
  std::vector<std::pair<double, std::string>> finding_times() const;
  /// Each invalid test's time, oldest first (the report's plot per class).
  std::vector<double> invalid_test_times() const;

  /// The engines (engine_of) and configs of every bucket's findings, by bucket key, from the
  /// index findings_origin (triage/origins.cpp); the findings of `reduce` campaigns are left
  /// out. Buckets without findings are absent.
  std::map<std::string, BucketOrigins> bucket_origins() const;

  struct Impl;  ///< triage/sqlite.h: the connection and cached statements

private:
  friend Impl& impl_of(const Database& database);
  explicit Database(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

} // namespace cudiff::triage
