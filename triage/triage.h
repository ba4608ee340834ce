// triage: signatures, the SQLite triage database (campaigns, tests, findings, buckets, notes),
// known differences, merging shards, and reports (HTML, Markdown bug reports).
//
// Contract: a bucket key is a content hash of the normalized symptom (never raw message text,
// never versions, seeds, paths or flags beyond the smallest config set that shows it), so
// databases written on different hosts merge without clashes. Every write is a transaction
// (BEGIN IMMEDIATE, WAL, busy timeout): a process killed at any point loses nothing that was
// committed, and several processes on one host may write one database. A file that is not a
// cudiff database (not SQLite, corrupt, a newer schema) is refused with one line, untouched.
#pragma once

#include "oracle/oracle.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cudiff::triage {

// ---- hashing ----------------------------------------------------------------------------

/// SHA-256 of `data` as 64 lowercase hex digits (FIPS 180-4).
std::string sha256_hex(std::string_view data);
/// A 128-bit content key: the first 32 hex digits of SHA-256. Used for bucket keys, finding
/// and note ids and blob names; 128 bits make an accidental clash between hosts negligible.
std::string content_key(std::string_view data);
/// A key that is unique per call (host, pid, time and 128 random bits), for campaign ids.
std::string unique_key();

// ---- signatures -------------------------------------------------------------------------

/// Bumped when the normalization changes: keys of different versions never compare equal. A
/// database whose keys are older is re-keyed when it is opened for writing (docs/triage.md,
/// "Signature versions"). 2: runs keyed by structure (partition, stage, shape of the first
/// difference), never by output text; details["stage"] in every kind's key; the new kinds.
constexpr int signature_version = 2;

struct Signature {
  std::string key;      ///< 32 hex digits: content_key of (version, kind, side, stage, symptom)
  std::string title;    ///< short, for people; never part of the key
  std::string kind;     ///< oracle::to_string(FindingKind)
  std::string side;     ///< the compiler(s) that rejected, crashed, hung or differ: "clang", "nvcc"
  std::string stage;    ///< "frontend", "cicc", "ptxas", "compile", "run", ...
  std::vector<std::string> ids;  ///< diagnostic ids / rule ids / properties known differences match
  std::string symptom;  ///< the normalized text that was hashed, one item per line
};

/// The signature of one finding. `crash_output` is the stderr of the crashed compile when the
/// finding is a crash: its assertion and top stack frames refine the key. Never throws.
Signature signature_of(const oracle::Finding& finding, std::string_view crash_output = {});

/// Crash text with paths (kept: compiler source file names; masked: the test's and temporary
/// files), hex addresses, numbers and single-quoted names masked.
std::string mask_crash_text(std::string_view text);

// ---- known differences ------------------------------------------------------------------

/// One deliberate divergence between the compilers (docs/triage.md, "Known differences").
struct KnownDifference {
  std::string kind;    ///< a FindingKind name
  std::string side;    ///< "nvcc", "clang", or "*" for either
  std::string id;      ///< a diagnostic id, rule id or layout property the signature carries;
                       ///< "*" matches any, "R-EXTLAM-*" any id with that prefix
  std::string reason;  ///< why it is deliberate, shown as the bucket's known reason
};

class KnownDifferences {
public:
  KnownDifferences() = default;
  /// JSON with comments (docs/triage.md); throws Error(usage) naming the file and the problem.
  static KnownDifferences load(const std::filesystem::path& file);
  static KnownDifferences parse(std::string_view text, std::string_view origin);
  /// The first entry whose kind, side and id match the signature, if any.
  const KnownDifference* match(const Signature& signature) const;
  const std::vector<KnownDifference>& entries() const { return entries_; }

private:
  std::vector<KnownDifference> entries_;
};

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

// ---- classes and engines (docs/triage.md, "Classes and engines") ------------------------

/// What a bucket is to the person reading the list: `triage list` and the HTML report group by
/// it, in this order. `invalid_tests` holds no bucket: it stands for the tests the sanitizer
/// gate rejected (counted by cause), which are never filed as compiler bugs.
enum class FindingClass { wrong_code, crash, rejects_valid, missed_diagnostic, dialect_difference, invalid_tests };
/// Every class, in the order they are shown.
inline constexpr FindingClass finding_classes[] = {FindingClass::wrong_code,         FindingClass::crash,
                                                   FindingClass::rejects_valid,      FindingClass::missed_diagnostic,
                                                   FindingClass::dialect_difference, FindingClass::invalid_tests};
/// "wrong code", "crash", "rejects valid", "missed diagnostic", "dialect difference", "invalid tests".
std::string to_string(FindingClass finding_class);
/// The inverse of to_string, with '-' or '_' for the spaces ("wrong-code"); throws Error(usage)
/// naming the classes for anything else.
FindingClass parse_finding_class(std::string_view text);
/// The class of every finding kind (never invalid_tests): wrong code (results, layouts, the
/// parameter ABI, metamorphic variants), crash (crashes, hangs, slow compiles), rejects valid
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

// ---- the database -----------------------------------------------------------------------

/// The schema version this cudiff writes (PRAGMA user_version); docs/triage.md lists them.
constexpr int schema_version = 5;

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
  void add_note(const std::string& bucket_key, std::string_view text, double time);
  /// The bucket's facts (empty ones when none were set).
  BucketFacts facts(const std::string& bucket_key) const;
  /// Every bucket's facts that has any, by key (a small table: one query for a whole list).
  std::map<std::string, BucketFacts> all_facts() const;
  void set_link(const std::string& bucket_key, std::string_view link);
  void set_versions(const std::string& bucket_key, std::string_view versions);
  void set_recheck(const std::string& bucket_key, std::string_view verdict, std::string_view compilers, double time);
  /// Buckets still `new` whose signature matches an entry become `known`; returns how many.
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

// ---- reports ----------------------------------------------------------------------------

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

/// One self-contained HTML page (inline CSS and SVG, no scripts, nothing fetched): campaign
/// summary, findings over time per kind, top buckets, what is new since the previous campaign.
std::string render_html_report(const Database& database, double now);

/// A Markdown bug report for one bucket: title, one-line summary, the smallest reproducer,
/// expected (the generator's prediction or the rule) against observed, the guilty stage with
/// its swap evidence, the releases that show it, versions, the GPU, the compute-sanitizer
/// verdict, each config's exact command and what it printed. `attachments` names the files
/// beside it (a stage's PTX or LLVM IR) to mention.
std::string render_markdown_report(const Database& database, const Bucket& bucket,
                                   const std::vector<std::string>& attachments = {});

/// repro.sh for a stored finding (docs/triage.md, "Export"): rebuilds `reproducer_name`
/// (beside the script) with each recorded config's command, the compilers through $NVCC and
/// $CLANG and the toolkit through $CUDA_HOME (default: those recorded), runs the binaries
/// where the finding is a run's, and exits 1 while the bug is present, 0 once it is fixed and
/// 125 when it cannot tell (a compiler or the GPU missing, or an outcome that is neither).
std::string render_repro_script(const Bucket& bucket, const StoredFinding& finding, const std::string& reproducer_name);

/// What `export_bucket` wrote.
struct ExportedReport {
  std::filesystem::path directory, report, script, reproducer;  ///< reproducer empty: no finding stored
  std::vector<std::filesystem::path> attachments;
};

/// The reproducer file name a bucket's best finding is exported under.
std::string exported_reproducer_name(const StoredFinding& finding);

/// Writes DIR/report.md, DIR/repro.sh (executable) and DIR/<reproducer name>; `attachments`
/// (files already in DIR, such as the PTX a ptxas bug needs) are listed in the report.
ExportedReport export_bucket(const Database& database, const Bucket& bucket, const std::filesystem::path& directory,
                             const std::vector<std::filesystem::path>& attachments = {});

// ---- synthetic findings (tests and benchmarks) ------------------------------------------

/// The index-th of a deterministic stream of findings spread over `buckets` buckets, with
/// real signatures (each bucket a distinct compile-status symptom), about 300 bytes of source.
NewFinding synthetic_finding(const std::string& campaign_id, std::int64_t index, std::int64_t buckets, double time);
/// A campaign of kind "synthetic" with `count` synthetic findings over `buckets` buckets,
/// `batch` to a transaction; `committed` is called with each transaction's finding ids once it
/// is committed (a test that kills the writer knows which findings must be there).
void write_synthetic_campaign(Database& db, std::int64_t count, std::int64_t buckets, std::int64_t batch,
                              const std::function<void(const std::vector<std::string>& ids)>& committed);

/// A bucket as JSON: every field and its `class` (`cudiff triage list --json`, `show --json`).
boost::json::object to_json(const Bucket& bucket);

}  // namespace cudiff::triage
