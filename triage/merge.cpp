// triage: merging a shard (another host's database) into this one — idempotent because every
// row is keyed by content or by a unique id, and counts only grow by findings not yet here.
// The shards of one named campaign share its id: their campaign rows are joined into one.
#include "triage/sqlite.h"

namespace cudiff::triage {
namespace {

constexpr std::string_view finding_columns =
    "id, bucket_key, campaign_id, test_id, time, kind, summary, configs, details, source_name, source_hash, "
    "source_size, outputs_hash";
constexpr std::string_view campaign_columns =
    "id, kind, host, started, ended, cudiff_version, nvcc_version, clang_version, gpus, configs, mode, tests, findings";
constexpr std::string_view test_columns = "id, campaign_id, name, seed, policy_hash, configs, outcome, time, seconds";

std::string read_only_uri(const std::filesystem::path& path) {
  std::string uri = "file:";
  for (char c : std::filesystem::absolute(path).string()) {
    if (c == '?' || c == '#' || c == '%') {
      static constexpr char digits[] = "0123456789ABCDEF";
      uri += '%';
      uri += digits[(static_cast<unsigned char>(c) >> 4) & 0xf];
      uri += digits[static_cast<unsigned char>(c) & 0xf];
    } else {
      uri += c;
    }
  }
  return uri + "?mode=ro";
}

std::int64_t changes(Database::Impl& impl) { return sqlite3_changes(impl.db); }

MergeStats merge_attached(Database::Impl& impl) {
  MergeStats stats;
  const std::string c(campaign_columns), f(finding_columns), t(test_columns);
  // Campaigns both have: shards of one named campaign, joined after their rows are in.
  impl.exec("DROP TABLE IF EXISTS temp.joined");
  impl.exec("CREATE TEMP TABLE joined AS SELECT * FROM shard.campaigns WHERE id IN (SELECT id FROM main.campaigns)");
  stats.campaigns_joined = impl.scalar("SELECT count(*) FROM temp.joined");
  impl.exec("INSERT OR IGNORE INTO main.campaigns(" + c + ") SELECT " + c + " FROM shard.campaigns");
  stats.campaigns_added = changes(impl);
  impl.exec("INSERT OR IGNORE INTO main.tests(" + t + ") SELECT " + t + " FROM shard.tests");
  stats.tests_added = changes(impl);
  stats.tests_present = impl.scalar("SELECT count(*) FROM shard.tests") - stats.tests_added;
  impl.exec("INSERT OR IGNORE INTO main.blobs(hash, data) SELECT hash, data FROM shard.blobs");
  impl.exec(
      "INSERT OR IGNORE INTO main.notes(id, bucket_key, time, text) SELECT id, bucket_key, time, text FROM shard.notes");
  // Facts: a link or a bisection this database lacks is taken; the newer recheck wins.
  impl.exec("INSERT INTO main.bucket_facts(bucket_key, link, versions, recheck, recheck_time, recheck_compilers) "
            "SELECT bucket_key, link, versions, recheck, recheck_time, recheck_compilers FROM shard.bucket_facts "
            "WHERE true ON CONFLICT(bucket_key) DO UPDATE SET "
            "link = CASE WHEN link = '' THEN excluded.link ELSE link END, "
            "versions = CASE WHEN versions = '' THEN excluded.versions ELSE versions END, "
            "recheck = CASE WHEN excluded.recheck_time > recheck_time THEN excluded.recheck ELSE recheck END, "
            "recheck_compilers = CASE WHEN excluded.recheck_time > recheck_time THEN excluded.recheck_compilers "
            "ELSE recheck_compilers END, "
            "recheck_time = max(recheck_time, excluded.recheck_time)");
  // The findings this database does not have yet: the only ones that count.
  impl.exec("DROP TABLE IF EXISTS temp.incoming");
  impl.exec("CREATE TEMP TABLE incoming AS SELECT " + f +
            " FROM shard.findings WHERE id NOT IN (SELECT id FROM main.findings)");
  impl.exec("INSERT INTO main.findings(" + f + ") SELECT " + f + " FROM temp.incoming");
  stats.findings_added = changes(impl);
  impl.exec(
      "INSERT INTO main.buckets(key, title, kind, side, stage, symptom, status, known_reason, count, first_seen, "
      "last_seen, best_finding, best_size) SELECT key, title, kind, side, stage, symptom, status, known_reason, 0, "
      "first_seen, last_seen, best_finding, best_size FROM shard.buckets WHERE key NOT IN (SELECT key FROM main.buckets)");
  stats.buckets_added = changes(impl);
  // A person's decision (known, reported, fixed, invalid) wins over `new`.
  impl.exec("UPDATE main.buckets SET status = s.status, known_reason = s.known_reason FROM shard.buckets s "
            "WHERE s.key = buckets.key AND buckets.status = 'new' AND s.status != 'new'");
  // Sightings only: a reduction (a `reduce` campaign's finding) is not another sighting, as it is
  // not when `triage reduce` stores it (Database::add_reproducer).
  impl.exec("UPDATE main.buckets SET count = count + a.n, first_seen = min(first_seen, a.first), "
            "last_seen = max(last_seen, a.last) FROM (SELECT i.bucket_key, count(*) AS n, min(i.time) AS first, "
            "max(i.time) AS last FROM temp.incoming i LEFT JOIN main.campaigns c ON c.id = i.campaign_id "
            "WHERE coalesce(c.kind, '') != 'reduce' GROUP BY i.bucket_key) a WHERE a.bucket_key = buckets.key");
  impl.exec(
      "UPDATE main.buckets SET best_finding = b.id, best_size = b.source_size FROM (SELECT bucket_key, id, "
      "source_size, row_number() OVER (PARTITION BY bucket_key ORDER BY source_size, id) AS rank "
      "FROM temp.incoming) b WHERE b.rank = 1 AND b.bucket_key = buckets.key AND (b.source_size < buckets.best_size "
      "OR (b.source_size = buckets.best_size AND b.id < buckets.best_finding))");
  impl.exec("DROP TABLE temp.incoming");
  // Causes (schema 6) by finding, and the buckets split by them; then every signature's
  // findings split as their causes say (a shard's causes may split a bucket of this one).
  impl.exec("INSERT OR IGNORE INTO main.causes SELECT * FROM shard.causes");
  impl.exec("INSERT OR IGNORE INTO main.cause_buckets SELECT * FROM shard.cause_buckets");
  apply_cause_splits(impl);
  // Invalid tests (schema 4) by id, as findings: merging a shard twice adds none.
  impl.exec("INSERT OR IGNORE INTO main.invalid_tests SELECT * FROM shard.invalid_tests");
  stats.invalid_tests_added = changes(impl);
  // One campaign from its shards: it ended when the last shard did (and not while one is
  // unfinished, so that the report does not call a cancelled shard's campaign done).
  impl.exec("UPDATE main.campaigns SET started = min(campaigns.started, j.started), "
            "ended = CASE WHEN campaigns.ended = 0 OR j.ended = 0 THEN 0 ELSE max(campaigns.ended, j.ended) END, "
            "host = CASE WHEN instr(', ' || campaigns.host || ', ', ', ' || j.host || ', ') > 0 THEN campaigns.host "
            "ELSE campaigns.host || ', ' || j.host END, "
            "gpus = CASE WHEN campaigns.gpus = '' THEN j.gpus ELSE campaigns.gpus END, "
            "tests = (SELECT count(*) FROM main.tests t WHERE t.campaign_id = campaigns.id), "
            "findings = (SELECT count(*) FROM main.findings f WHERE f.campaign_id = campaigns.id) "
            "FROM temp.joined j WHERE j.id = campaigns.id");
  impl.exec("DROP TABLE temp.joined");
  return stats;
}

} // namespace

MergeStats Database::merge_from(const std::filesystem::path& shard) {
  std::error_code ec;
  if (std::filesystem::equivalent(shard, impl_->path, ec))
    throw_usage("cannot merge " + shard.string() + " into itself");
  // Opening it validates it (SQLite, not corrupt, not newer) and never writes to it.
  std::filesystem::path source = shard;
  std::optional<TempDir> upgraded;
  {
    Database check = Database::open(shard, OpenOptions{.create = false, .read_only = true});
    // An older shard is brought up to date in a copy: its schema, and its bucket keys (a
    // shard's findings must land in the buckets this database's keys name).
    if (check.version() < schema_version || check.key_version() < signature_version) {
      upgraded.emplace("cudiff-merge");
      source = upgraded->path() / "shard.db";
      std::filesystem::copy_file(shard, source, ec);
      if (ec) throw_environment("cannot copy " + shard.string() + " to upgrade it: " + ec.message());
      Database::open(source);  // upgrades the copy in place
    }
  }
  impl_->cache.clear();  // ATTACH needs no statement of this connection to be running
  // Read-only through a URI: a merge never writes to a shard.
  impl_->statement("ATTACH DATABASE ?1 AS shard").bind(1, read_only_uri(source)).run();
  impl_->cache.clear();
  MergeStats stats;
  try {
    transaction([&] { stats = merge_attached(*impl_); });
  } catch (...) {
    impl_->cache.clear();
    sqlite3_exec(impl_->db, "DETACH DATABASE shard", nullptr, nullptr, nullptr);
    throw;
  }
  impl_->cache.clear();
  impl_->exec("DETACH DATABASE shard");
  return stats;
}

} // namespace cudiff::triage
