// triage database: refusing bad files untouched, schema versions, counting, duplicates,
// smallest reproducers, merges (summed, idempotent), statuses, notes, known differences.
#include "support/test_support.h"
#include "triage/triage.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

using namespace cudiff;

namespace {

void set_user_version(const std::filesystem::path& path, int version) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, ("PRAGMA user_version = " + std::to_string(version)).c_str(), nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);
}

triage::Campaign campaign(const std::string& name, double started) {
  triage::Campaign c;
  c.id = triage::content_key(name);
  c.kind = "synthetic";
  c.host = "test";
  c.started = started;
  c.ended = started + 10;
  c.tests = 5;
  return c;
}

/// Inserts findings [first, first + count) of a campaign's synthetic stream.
void fill(triage::Database& db, const triage::Campaign& c, int first, int count, int buckets) {
  db.put_campaign(c);
  db.transaction([&] {
    for (int i = first; i < first + count; ++i)
      db.add_finding(triage::synthetic_finding(c.id, i, buckets, c.started + i));
  });
}

std::int64_t total_count(const triage::Database& db) {
  std::int64_t sum = 0;
  for (const auto& b : db.buckets()) sum += b.count;
  return sum;
}

} // namespace

TEST(TriageDatabase, NewDatabaseIsAtTheCurrentSchemaAndConsistent) {
  TempDir dir;
  auto db = triage::Database::open(dir.path() / "t.db");
  EXPECT_EQ(db.version(), triage::schema_version);
  EXPECT_EQ(db.integrity_check(), "ok");
  EXPECT_EQ(db.totals().buckets, 0);
}

TEST(TriageDatabase, NonSqliteFileIsRefusedInOneLineAndLeftUntouched) {
  TempDir dir;
  const auto path = dir.path() / "notes.txt";
  const std::string bytes = "these are my notes, not a database\n";
  write_file(path, bytes);
  const std::string message = test::error_message_of([&] { triage::Database::open(path); });
  EXPECT_NE(message.find("not a cudiff database (not an SQLite file)"), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos);
  EXPECT_EQ(read_file(path), bytes);
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "notes.txt-wal"));
}

TEST(TriageDatabase, CorruptSqliteFileIsRefusedAndLeftUntouched) {
  TempDir dir;
  const auto path = dir.path() / "broken.db";
  std::string bytes("SQLite format 3\0", 16);
  bytes += std::string(4096, '\x5a');
  write_file(path, bytes);
  const std::string message = test::error_message_of([&] { triage::Database::open(path); });
  EXPECT_NE(message.find("not a usable cudiff database"), std::string::npos) << message;
  EXPECT_EQ(read_file(path), bytes);
}

TEST(TriageDatabase, ForeignSqliteDatabaseIsRefused) {
  TempDir dir;
  const auto path = dir.path() / "other.db";
  sqlite3* raw = nullptr;
  sqlite3_open(path.c_str(), &raw);
  sqlite3_exec(raw, "CREATE TABLE t(x)", nullptr, nullptr, nullptr);
  sqlite3_close(raw);
  const std::string bytes = read_file(path);
  EXPECT_NE(test::error_message_of([&] { triage::Database::open(path); }).find("not a cudiff one"), std::string::npos);
  EXPECT_EQ(read_file(path), bytes);
}

TEST(TriageDatabase, NewerSchemaIsRefusedWithAClearMessage) {
  TempDir dir;
  const auto path = dir.path() / "t.db";
  triage::Database::open(path);
  set_user_version(path, triage::schema_version + 7);
  const std::string message = test::error_message_of([&] { triage::Database::open(path); });
  EXPECT_NE(message.find("newer than this cudiff understands"), std::string::npos) << message;
}

TEST(TriageDatabase, OlderSchemaIsUpgradedInPlaceKeepingItsRows) {
  TempDir dir;
  const auto path = dir.path() / "t.db";
  {
    auto old = triage::Database::open(path, triage::OpenOptions{.upgrade_to = 1});
    EXPECT_EQ(old.version(), 1);
    old.put_campaign(campaign("old", 100));
  }
  auto db = triage::Database::open(path);
  EXPECT_EQ(db.version(), triage::schema_version);
  ASSERT_EQ(db.campaigns().size(), 1u);
  fill(db, campaign("new", 200), 0, 3, 3);  // uses the columns the upgrade added
  EXPECT_EQ(db.totals().findings, 3);
  EXPECT_EQ(db.integrity_check(), "ok");
}

TEST(TriageDatabase, FindingsFillBucketsAndADuplicateIdChangesNothing) {
  TempDir dir;
  auto db = triage::Database::open(dir.path() / "t.db");
  const auto c = campaign("a", 1000);
  fill(db, c, 0, 40, 4);
  const auto again = db.add_finding(triage::synthetic_finding(c.id, 5, 4, 5000));
  EXPECT_TRUE(again.duplicate);
  const auto buckets = db.buckets();
  ASSERT_EQ(buckets.size(), 4u);
  for (const auto& b : buckets) {
    EXPECT_EQ(b.count, 10) << b.title;
    EXPECT_LT(b.first_seen, b.last_seen);
  }
  EXPECT_EQ(total_count(db), db.totals().findings);
}

TEST(TriageDatabase, BestReproducerIsTheSmallestFinding) {
  TempDir dir;
  auto db = triage::Database::open(dir.path() / "t.db");
  const auto c = campaign("a", 1000);
  fill(db, c, 0, 30, 1);
  const auto bucket = db.buckets().front();
  const auto smallest = db.findings_of(bucket.key, 30);
  ASSERT_EQ(smallest.size(), 30u);
  EXPECT_EQ(bucket.best_finding, smallest.front().id);
  for (const auto& f : smallest) EXPECT_GE(static_cast<std::int64_t>(f.source.size()), bucket.best_size);
}

TEST(TriageDatabase, BucketsAreFoundByLocalIdOrKeyPrefix) {
  TempDir dir;
  auto db = triage::Database::open(dir.path() / "t.db");
  fill(db, campaign("a", 1), 0, 5, 5);
  const auto first = db.buckets().front();
  EXPECT_EQ(db.bucket(std::to_string(first.id)).key, first.key);
  EXPECT_EQ(db.bucket(first.key.substr(0, 8)).key, first.key);
  EXPECT_NE(test::error_message_of([&] { db.bucket("ffffffffffff"); }).find("no bucket"), std::string::npos);
}

TEST(TriageDatabase, MergeSumsCountsKeepsEachBucketOnceAndIsIdempotent) {
  TempDir dir;
  {
    auto a = triage::Database::open(dir.path() / "a.db");
    fill(a, campaign("a", 1000), 0, 50, 10);
    auto b = triage::Database::open(dir.path() / "b.db");
    fill(b, campaign("b", 2000), 0, 30, 10);
    b.set_status(b.buckets().front().key, triage::Status::reported);
  }
  auto out = triage::Database::open(dir.path() / "out.db");
  const auto first = out.merge_from(dir.path() / "a.db");
  const auto second = out.merge_from(dir.path() / "b.db");
  EXPECT_EQ(first.findings_added, 50);
  EXPECT_EQ(second.findings_added, 30);
  EXPECT_EQ(second.buckets_added, 0);  // same symptoms: the same keys
  const auto buckets = out.buckets();
  ASSERT_EQ(buckets.size(), 10u);
  for (const auto& b : buckets) {
    EXPECT_EQ(b.count, 8);  // 5 from a, 3 from b
    EXPECT_LT(b.first_seen, 2000);  // a's findings are older
    EXPECT_GE(b.last_seen, 2000);
  }
  EXPECT_EQ(out.buckets(triage::BucketQuery{triage::Status::reported, std::nullopt, 0}).size(), 1u);

  const auto before = out.buckets();
  const auto twice = out.merge_from(dir.path() / "b.db");
  EXPECT_EQ(twice.findings_added, 0);
  const auto after = out.buckets();
  ASSERT_EQ(before.size(), after.size());
  for (std::size_t i = 0; i < before.size(); ++i) {
    EXPECT_EQ(before[i].count, after[i].count);
    EXPECT_EQ(before[i].best_finding, after[i].best_finding);
  }
  EXPECT_EQ(out.totals().findings, 80);
  EXPECT_EQ(out.totals().campaigns, 2);
  EXPECT_EQ(out.integrity_check(), "ok");
}

TEST(TriageDatabase, MergeTakesMinFirstSeenAndMaxLastSeen) {
  TempDir dir;
  {
    auto early = triage::Database::open(dir.path() / "early.db");
    fill(early, campaign("early", 100), 0, 1, 1);
    auto late = triage::Database::open(dir.path() / "late.db");
    fill(late, campaign("late", 900), 0, 1, 1);
  }
  auto out = triage::Database::open(dir.path() / "out.db");
  out.merge_from(dir.path() / "late.db");
  out.merge_from(dir.path() / "early.db");
  const auto b = out.buckets().front();
  EXPECT_EQ(b.count, 2);
  EXPECT_DOUBLE_EQ(b.first_seen, 100);
  EXPECT_DOUBLE_EQ(b.last_seen, 900);
}

TEST(TriageDatabase, MergingIntoItselfIsRefused) {
  TempDir dir;
  auto db = triage::Database::open(dir.path() / "t.db");
  EXPECT_NE(test::error_message_of([&] { db.merge_from(dir.path() / "t.db"); }).find("into itself"), std::string::npos);
}

TEST(TriageDatabase, StatusesAndNotes) {
  TempDir dir;
  auto db = triage::Database::open(dir.path() / "t.db");
  fill(db, campaign("a", 1), 0, 2, 2);
  const auto b = db.buckets().front();
  db.set_status(b.key, triage::parse_status("fixed"));
  db.add_note(b.key, "filed as NV-1234", 50);
  EXPECT_EQ(db.bucket(b.key).status, triage::Status::fixed);
  ASSERT_EQ(db.notes(b.key).size(), 1u);
  EXPECT_EQ(db.notes(b.key).front().text, "filed as NV-1234");
  EXPECT_NE(test::error_message_of([] { triage::parse_status("done"); }).find("unknown status 'done'"),
            std::string::npos);
}

TEST(TriageKnown, MatchingBucketsBecomeKnownWithTheirReason) {
  const auto known = triage::KnownDifferences::parse(R"({
    // verified by hand
    "known": [
      {"kind": "compile_status_mismatch", "side": "clang", "id": "synthetic error c", "reason": "deliberate"},
    ]
  })",
                                                     "test");
  ASSERT_EQ(known.entries().size(), 1u);
  TempDir dir;
  auto db = triage::Database::open(dir.path() / "t.db");
  const auto c = campaign("a", 1);
  db.put_campaign(c);
  // Bucket 2 ("c") is a compile-status mismatch rejected by clang with "synthetic error c".
  const auto f = triage::synthetic_finding(c.id, 2, 5, 10);
  ASSERT_NE(known.match(f.signature), nullptr) << f.signature.symptom;
  const auto recorded = db.add_finding(f, known.match(f.signature));
  EXPECT_EQ(recorded.bucket.status, triage::Status::known);
  EXPECT_EQ(recorded.bucket.known_reason, "deliberate");
  fill(db, c, 3, 5, 5);
  EXPECT_EQ(db.apply_known(known), 0);  // the other buckets do not match
}

TEST(TriageKnown, ApplyMarksExistingNewBuckets) {
  TempDir dir;
  auto db = triage::Database::open(dir.path() / "t.db");
  fill(db, campaign("a", 1), 0, 5, 5);
  const auto known = triage::KnownDifferences::parse(
      R"({"known": [{"kind": "compile_status_mismatch", "side": "*", "id": "synthetic error d", "reason": "r"}]})",
      "t");
  EXPECT_EQ(db.apply_known(known), 1);
  EXPECT_EQ(db.buckets(triage::BucketQuery{triage::Status::known, std::nullopt, 0}).size(), 1u);
}

TEST(TriageKnown, MalformedFileIsAUsageErrorNamingTheFile) {
  EXPECT_NE(test::error_message_of([] {
              triage::KnownDifferences::parse("{", "k.json");
            }).find("k.json: not valid JSON"),
            std::string::npos);
  EXPECT_NE(test::error_message_of([] {
              triage::KnownDifferences::parse(R"({"known": [{"kind": "crash"}]})", "k.json");
            }).find("needs a string \"id\""),
            std::string::npos);
}

TEST(TriageKnown, AMissedDiagnosticTheRulesCatalogRecordsIsKnownWithItsVerdict) {
  // R-TMPL-UNNAMED-TYPE: the catalog measured clang accepting it and searched upstream for a
  // report (why "bug"); a campaign's finding of it is that entry, not a new bug.
  const auto shipped = triage::KnownDifferences::shipped();
  triage::Signature missed;
  missed.kind = "missed_diagnostic";
  missed.side = "clang";
  missed.ids = {"R-TMPL-UNNAMED-TYPE"};
  const triage::KnownDifference* known = shipped.match(missed);
  ASSERT_NE(known, nullptr);
  EXPECT_TRUE(known->reason.starts_with("rules catalog R-TMPL-UNNAMED-TYPE: ")) << known->reason;
  EXPECT_NE(known->reason.find("clang bug, no upstream report found"), std::string::npos) << known->reason;
  // nvcc diagnoses that rule: the same miss on nvcc's side is new. So is clang's miss of a rule
  // clang diagnoses (R-HOSTEXT-NODEV), and --no-known knows none of them.
  missed.side = "nvcc";
  EXPECT_EQ(shipped.match(missed), nullptr);
  missed.side = "clang";
  missed.ids = {"R-HOSTEXT-NODEV"};
  EXPECT_EQ(shipped.match(missed), nullptr);
  missed.ids = {"R-TMPL-UNNAMED-TYPE"};
  EXPECT_EQ(triage::KnownDifferences::none().match(missed), nullptr);
  // Every catalog verdict of a bug, an upstream report or a wrong rule is an entry, and each
  // upstream one carries its report's link.
  std::size_t catalog = 0;
  for (const triage::KnownDifference& entry : shipped.entries()) {
    if (!entry.reason.starts_with("rules catalog ")) continue;
    ++catalog;
    if (entry.reason.find("reported upstream") != std::string::npos) EXPECT_FALSE(entry.link.empty()) << entry.id;
  }
  EXPECT_GE(catalog, 40u);
}

TEST(TriageKnown, TheShippedKnowledgeIsCompiledInAndOnlyNoKnownDropsIt) {
  // The compiled-in copy is the file in the tree, entry for entry.
  const auto file = triage::KnownDifferences::load(test::source_dir() / "triage" / "known_differences.json");
  const auto shipped = triage::KnownDifferences::shipped();
  ASSERT_FALSE(file.entries().empty());
  ASSERT_GT(shipped.entries().size(), file.entries().size()) << "the known-bug suite's cases come after the file's";
  for (std::size_t i = 0; i < file.entries().size(); ++i) {
    EXPECT_EQ(shipped.entries()[i].id, file.entries()[i].id);
    EXPECT_FALSE(shipped.entries()[i].reason.empty());
  }
  // clang ignoring __managed__: the shipped entry knows it; --no-known does not, not even a
  // dialect difference; a file's entries come after the shipped ones.
  triage::Signature managed;
  managed.kind = "compile_status_mismatch";
  managed.side = "clang";
  managed.ids = {"reference to __host__ variable '_' in __global__ function"};
  ASSERT_NE(shipped.match(managed), nullptr);
  EXPECT_EQ(triage::KnownDifferences::none().match(managed), nullptr);
  triage::Signature dialect;
  dialect.kind = "dialect_difference";
  EXPECT_NE(shipped.match(dialect), nullptr);
  EXPECT_EQ(triage::KnownDifferences::none().match(dialect), nullptr);
  // A known-bug case (corpus/known-bugs/clang-thread-local-device-crash) by its title: known.
  triage::Signature thread_local_crash;
  thread_local_crash.kind = "crash";
  thread_local_crash.side = "clang";
  thread_local_crash
      .title = "clang crash in device-codegen: error in backend: Cannot select: 0x_: iN = GlobalTLSAddress";
  const triage::KnownDifference* bug = shipped.match(thread_local_crash);
  ASSERT_NE(bug, nullptr);
  EXPECT_TRUE(bug->reason.starts_with("known bug, corpus/known-bugs/clang-thread-local-device-crash")) << bug->reason;
  thread_local_crash.kind = "hang";
  EXPECT_EQ(shipped.match(thread_local_crash), nullptr) << "the case's kind must match too";
  // A wrong output's title names only the configs that differ: no case's title makes a new
  // ptxas miscompile of the same shape known (corpus/known-bugs/ptxas-dense-nvcc-*).
  triage::Signature miscompile;
  miscompile.kind = "wrong_code";
  miscompile.side = "nvcc";
  miscompile.stage = "ptxas";
  miscompile.title = "wrong code: nvcc-O3 prints another checksum than the generator (clang-O0, clang-O3 match)";
  EXPECT_EQ(shipped.match(miscompile), nullptr);
  triage::Signature ptxas_crash;
  ptxas_crash.kind = "crash";
  ptxas_crash.side = "nvcc";
  ptxas_crash.title = "nvcc crash in ptxas: signal 11";
  EXPECT_EQ(shipped.match(ptxas_crash), nullptr);
  auto more = triage::KnownDifferences::none();
  more.add(triage::KnownDifferences::parse(
      R"({"known": [{"kind": "compile_status_mismatch", "side": "clang", "id": "*", "reason": "mine"}]})", "k.json"));
  ASSERT_NE(more.match(managed), nullptr);
  EXPECT_EQ(more.match(managed)->reason, "mine");
}
