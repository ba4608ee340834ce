// Re-keying: a database whose bucket keys an older signature version made is re-keyed when it
// is opened for writing — every finding's key computed from its stored details, buckets that
// now share a key merged (counts, first/last seen, best reproducer, notes, status) in one
// transaction — and left untouched when that fails.
#include "oracle/oracle.h"
#include "support/test_support.h"
#include "triage/triage.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>

using namespace cudiff;

namespace {

void sql(const std::filesystem::path& path, const std::string& statement) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* message = nullptr;
  EXPECT_EQ(sqlite3_exec(db, statement.c_str(), nullptr, nullptr, &message), SQLITE_OK)
      << statement << ": " << (message != nullptr ? message : "");
  sqlite3_free(message);
  sqlite3_close(db);
}

std::vector<std::string> column(const std::filesystem::path& path, const std::string& query) {
  sqlite3* db = nullptr;
  std::vector<std::string> values;
  if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) return values;
  sqlite3_stmt* statement = nullptr;
  sqlite3_prepare_v2(db, query.c_str(), -1, &statement, nullptr);
  while (sqlite3_step(statement) == SQLITE_ROW)
    values.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(statement, 0)));
  sqlite3_finalize(statement);
  sqlite3_close(db);
  return values;
}

/// A program's wrong-code finding from the real oracle: nvcc-O3 prints `bad` for `kernel`.
oracle::Finding wrong_code(const std::string& kernel, const std::string& good, const std::string& bad) {
  oracle::Observations observations;
  observations.expected_checksums = {{kernel, good}};
  for (const auto& [config, compiler] :
       std::vector<std::pair<std::string, runners::CompilerKind>>{{"nvcc-O3", runners::CompilerKind::nvcc},
                                                                  {"clang-O3", runners::CompilerKind::clang}}) {
    oracle::CompileObservation compile;
    compile.config = config;
    compile.compiler = compiler;
    observations.compiles.push_back(compile);
    oracle::RunObservation run;
    run.config = config;
    run.exit_code = 0;
    run.output_lines = {"checksum " + kernel + " " + (config == "nvcc-O3" ? bad : good)};
    observations.runs.push_back(run);
  }
  oracle::Finding finding = oracle::judge(observations, {}).findings.at(0);
  finding.details["stage"] = "ptxas";
  return finding;
}

/// The finding as a version-1 cudiff filed it: a key of its own per program, made from the
/// output line's text (masked numbers, but kernel names and hex letters left), as v1 did.
triage::NewFinding filed_with_old_key(const std::string& campaign, int index, const std::string& kernel,
                                      const std::string& good, const std::string& bad, std::size_t source_size) {
  triage::NewFinding f;
  f.campaign_id = campaign;
  f.id = triage::content_key(campaign + "/" + std::to_string(index));
  f.test_id = f.id;
  f.time = 1000 + index;
  f.finding = wrong_code(kernel, good, bad);
  f.signature = triage::signature_of(f.finding);
  f.signature.symptom = "kind run_mismatch\nside nvcc vs clang\nstage run\ngroup 'checksum " + kernel + " " + bad + "'";
  f.signature.key = triage::content_key("cudiff-signature v1\n" + f.signature.symptom);
  f.signature.title = "run differs (output): nvcc vs clang: 'checksum " + kernel + "'";
  f.source_name = "p" + std::to_string(index) + ".cu";
  f.source = std::string(source_size, 'x');
  f.outputs = boost::json::object{{"configs", boost::json::array{}}};
  return f;
}

/// Three programs, one cause (nvcc-O3's ptxas), three v1 buckets; statuses and notes on them.
std::vector<std::string> write_old_database(const std::filesystem::path& path) {
  std::vector<std::string> old_keys;
  auto db = triage::Database::open(path);
  triage::Campaign c;
  c.id = "campaign";
  c.kind = "fuzz";
  db.put_campaign(c);
  const std::vector<triage::NewFinding> findings = {
      filed_with_old_key("campaign", 1, "kernel_3", "00000000deadbeef", "00000000feedface", 900),
      filed_with_old_key("campaign", 2, "kernel_0", "1111222233334444", "5555666677778888", 300),
      filed_with_old_key("campaign", 3, "s77/kernel_2", "0123456789abcdef", "fedcba9876543210", 600),
      filed_with_old_key("campaign", 4, "kernel_3", "00000000deadbeef", "00000000feedface", 950)};
  for (const auto& f : findings) {
    db.add_finding(f);
    if (std::ranges::find(old_keys, f.signature.key) == old_keys.end()) old_keys.push_back(f.signature.key);
  }
  db.set_status(old_keys[1], triage::Status::reported);
  db.add_note(old_keys[0], "first note", 5);
  db.add_note(old_keys[1], "reported upstream", 6);
  return old_keys;
}

TEST(TriageRekey, AnOldDatabaseIsReKeyedIntoOneBucketPerCause) {
  TempDir dir;
  const auto path = dir.path() / "old.db";
  const std::vector<std::string> old_keys = write_old_database(path);
  ASSERT_EQ(old_keys.size(), 3u);
  const std::string first_bucket_id = column(path, "SELECT id FROM buckets WHERE key = '" + old_keys[0] + "'").at(0);
  // As a database written before cudiff recorded its key version.
  sql(path, "DROP TABLE signature_keys");
  ASSERT_EQ(triage::Database::open(path, {.read_only = true}).key_version(), 1);

  auto db = triage::Database::open(path);
  EXPECT_EQ(db.key_version(), triage::signature_version);
  const auto buckets = db.buckets();
  ASSERT_EQ(buckets.size(), 1u);
  const triage::Bucket& bucket = buckets[0];
  EXPECT_EQ(bucket.key, triage::signature_of(wrong_code("kernel_9", "0000000000000001", "0000000000000002")).key);
  EXPECT_EQ(bucket.kind, "wrong_code");
  EXPECT_EQ(bucket.stage, "ptxas");
  EXPECT_EQ(bucket.count, 4);
  EXPECT_EQ(bucket.first_seen, 1001);
  EXPECT_EQ(bucket.last_seen, 1004);
  EXPECT_EQ(bucket.best_size, 300);
  EXPECT_EQ(bucket.best_finding, triage::content_key("campaign/2"));
  EXPECT_EQ(bucket.status, triage::Status::reported);  // a person's decision wins over new
  EXPECT_EQ(std::to_string(bucket.id), first_bucket_id);  // the bucket with the most findings keeps its id
  EXPECT_EQ(db.notes(bucket.key).size(), 2u);
  EXPECT_EQ(db.findings_of(bucket.key, 10).size(), 4u);
  for (const std::string& old : old_keys) EXPECT_TRUE(db.findings_of(old, 10).empty());
  EXPECT_EQ(db.integrity_check(), "ok");
  EXPECT_EQ(column(path, "SELECT count(*) FROM notes WHERE bucket_key != '" + bucket.key + "'").at(0), "0");
}

TEST(TriageRekey, OpeningAgainChangesNothing) {
  TempDir dir;
  const auto path = dir.path() / "old.db";
  write_old_database(path);
  sql(path, "UPDATE signature_keys SET version = 1");
  const auto before = triage::Database::open(path).buckets();
  const auto after = triage::Database::open(path).buckets();
  ASSERT_EQ(before.size(), 1u);
  ASSERT_EQ(after.size(), 1u);
  EXPECT_EQ(before[0].key, after[0].key);
  EXPECT_EQ(before[0].count, after[0].count);
}

TEST(TriageRekey, KeysAlreadyCurrentStayAsTheyAre) {
  TempDir dir;
  const auto path = dir.path() / "synthetic.db";
  {
    auto db = triage::Database::open(path);
    triage::write_synthetic_campaign(db, 300, 25, 50, [](const std::vector<std::string>&) {});
  }
  const std::vector<std::string> keys = column(path,
                                               "SELECT key || ' ' || count || ' ' || id FROM buckets ORDER BY key");
  ASSERT_EQ(keys.size(), 25u);
  sql(path, "UPDATE signature_keys SET version = 1");
  auto db = triage::Database::open(path);
  EXPECT_EQ(column(path, "SELECT key || ' ' || count || ' ' || id FROM buckets ORDER BY key"), keys);
  EXPECT_EQ(db.integrity_check(), "ok");
}

TEST(TriageRekey, AFailedReKeyLeavesTheDatabaseUntouched) {
  TempDir dir;
  const auto path = dir.path() / "old.db";
  const std::vector<std::string> old_keys = write_old_database(path);
  sql(path, "UPDATE signature_keys SET version = 1");
  // A trigger that makes the re-key fail half way, after the findings have moved.
  sql(path, "CREATE TRIGGER refuse BEFORE DELETE ON buckets BEGIN SELECT RAISE(ABORT, 'refused by test'); END");
  EXPECT_THROW(triage::Database::open(path), Error);
  EXPECT_EQ(column(path, "SELECT version FROM signature_keys"), std::vector<std::string>{"1"});
  EXPECT_EQ(column(path, "SELECT count(*) FROM buckets").at(0), "3");
  EXPECT_EQ(column(path, "SELECT count(*) FROM findings WHERE bucket_key IN ('" + old_keys[0] + "','" + old_keys[1] +
                             "','" + old_keys[2] + "')")
                .at(0),
            "4");
  sql(path, "DROP TRIGGER refuse");
  EXPECT_EQ(triage::Database::open(path).buckets().size(), 1u);
}

TEST(TriageRekey, KeysOfANewerVersionAreRefused) {
  TempDir dir;
  const auto path = dir.path() / "newer.db";
  write_old_database(path);
  sql(path, "UPDATE signature_keys SET version = " + std::to_string(triage::signature_version + 1));
  try {
    triage::Database::open(path);
    ADD_FAILURE() << "opened";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("newer than this cudiff"), std::string::npos) << error.what();
  }
}

TEST(TriageRekey, AShardWithOldKeysIsReKeyedInACopyWhenMerged) {
  TempDir dir;
  const auto shard = dir.path() / "shard.db";
  write_old_database(shard);
  sql(shard, "UPDATE signature_keys SET version = 1");
  const std::vector<std::string> shard_keys = column(shard, "SELECT key FROM buckets ORDER BY key");
  auto db = triage::Database::open(dir.path() / "main.db");
  const triage::MergeStats stats = db.merge_from(shard);
  EXPECT_EQ(stats.findings_added, 4);
  ASSERT_EQ(db.buckets().size(), 1u);
  EXPECT_EQ(db.buckets()[0].count, 4);
  EXPECT_EQ(column(shard, "SELECT key FROM buckets ORDER BY key"), shard_keys);  // the shard is only read
}

} // namespace
