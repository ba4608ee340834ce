// triage: cause keys in the database (schema 6) — each reduced finding's cause, and a signature's
// bucket split into one bucket per cause once its findings have two. The split is a function of
// the findings' causes alone, applied again after every change (a new cause, a merge, a
// re-key), so two databases that hold the same causes split the same way and merge cleanly.
#include "triage/sqlite.h"

#include <algorithm>
#include <map>
#include <set>

namespace cudiff::triage {
namespace {

/// The key of the bucket of one cause of a signature's findings.
std::string cause_bucket_key(const std::string& base, const std::string& cause) {
  return content_key("cudiff-cause-bucket v1\n" + base + "\n" + cause);
}

/// The signature's key a bucket's findings were filed by: its own, or the one it was split from.
std::string base_of(Database::Impl& impl, const std::string& bucket_key) {
  auto& query = impl.statement("SELECT base_key FROM cause_buckets WHERE key = ?1");
  query.bind(1, bucket_key);
  std::string base = query.step() ? query.text(0) : bucket_key;
  query.reset();
  return base;
}

struct Template {
  std::string title, kind, side, stage, symptom, status, known_reason, key;
};

/// What a bucket of the family is made from: the signature's bucket, else one of its parts
/// (its title and symptom as the signature's: cause_buckets keeps them).
std::optional<Template> family_template(Database::Impl& impl, const std::string& base,
                                        const std::set<std::string>& family) {
  auto& row = impl.statement(
      "SELECT title, kind, side, stage, symptom, status, known_reason FROM buckets WHERE key = ?1");
  for (const std::string& key : family) {
    row.reset().bind(1, key);
    if (!row.step()) continue;
    Template made{row.text(0), row.text(1), row.text(2), row.text(3), row.text(4), row.text(5), row.text(6), key};
    row.reset();
    if (key != base) {
      auto& split = impl.statement("SELECT base_title, base_symptom FROM cause_buckets WHERE key = ?1");
      split.bind(1, key);
      if (split.step()) {
        made.title = split.text(0);
        made.symptom = split.text(1);
      }
      split.reset();
    }
    return made;
  }
  return std::nullopt;
}

/// Creates the bucket `key` of the family when it is missing, with the template's status,
/// notes and facts (a person's decision and the upstream link hold for each part).
void ensure_bucket(Database::Impl& impl, const std::string& key, const std::string& base, const std::string& cause,
                   const Template& from, const std::string& finding, double time, std::int64_t size) {
  const bool part = key != base;
  impl.statement("INSERT OR IGNORE INTO buckets(key, title, kind, side, stage, symptom, status, known_reason, count, "
                 "first_seen, last_seen, best_finding, best_size) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,0,?9,?9,?10,?11)")
      .bind(1, key)
      .bind(2, part ? from.title + " (cause " + cause.substr(0, 8) + ")" : from.title)
      .bind(3, from.kind)
      .bind(4, from.side)
      .bind(5, from.stage)
      .bind(6, part ? from.symptom + "\ncause " + cause : from.symptom)
      .bind(7, from.status)
      .bind(8, from.known_reason)
      .bind(9, time)
      .bind(10, finding)
      .bind(11, size)
      .run();
  if (sqlite3_changes(impl.db) == 0) return;
  if (part)
    impl.statement("INSERT OR REPLACE INTO cause_buckets(key, base_key, cause_key, base_title, base_symptom) "
                   "VALUES(?1, ?2, ?3, ?4, ?5)")
        .bind(1, key)
        .bind(2, base)
        .bind(3, cause)
        .bind(4, from.title)
        .bind(5, from.symptom)
        .run();
  std::vector<std::pair<double, std::string>> notes;
  auto& read = impl.statement("SELECT time, text FROM notes WHERE bucket_key = ?1");
  read.bind(1, from.key);
  while (read.step()) notes.emplace_back(read.real(0), read.text(1));
  read.reset();
  for (const auto& [time, text] : notes)  // the id as Database::add_note makes it
    impl.statement("INSERT OR IGNORE INTO notes(id, bucket_key, time, text) VALUES(?1, ?2, ?3, ?4)")
        .bind(1, content_key(key + "\n" + std::to_string(time) + "\n" + text))
        .bind(2, key)
        .bind(3, time)
        .bind(4, text)
        .run();
  impl.statement("INSERT OR IGNORE INTO bucket_facts(bucket_key, link, versions, recheck, recheck_time, "
                 "recheck_compilers) SELECT ?2, link, versions, recheck, recheck_time, recheck_compilers "
                 "FROM bucket_facts WHERE bucket_key = ?1")
      .bind(1, from.key)
      .bind(2, key)
      .run();
}

struct Member {
  std::string id, bucket;
  double time = 0;
  std::int64_t size = 0;
  bool sighting = true;  ///< not a reduction (`reduce` campaigns' findings are not counted)
};

/// Puts every finding of the signature `base` where its cause says: with two causes or more,
/// each finding with a cause in its cause's bucket and the others in the signature's; with one
/// or none, all in the signature's. Counts move with the sightings; buckets left without a
/// finding go, with their notes and facts (each part has copies).
void split_family(Database::Impl& impl, const std::string& base) {
  std::map<std::string, std::string> cause_of;
  std::set<std::string> causes;
  auto& read_causes = impl.statement("SELECT finding_id, cause_key FROM causes WHERE base_key = ?1");
  read_causes.bind(1, base);
  while (read_causes.step()) {
    cause_of[read_causes.text(0)] = read_causes.text(1);
    causes.insert(read_causes.text(1));
  }
  read_causes.reset();
  std::set<std::string> family = {base};
  for (const std::string& cause : causes) family.insert(cause_bucket_key(base, cause));
  auto& parts = impl.statement("SELECT key FROM cause_buckets WHERE base_key = ?1");
  parts.bind(1, base);
  while (parts.step()) family.insert(parts.text(0));
  parts.reset();

  std::vector<Member> members;
  auto& read = impl.statement("SELECT f.id, f.time, f.source_size, coalesce(c.kind, '') FROM findings f "
                              "LEFT JOIN campaigns c ON c.id = f.campaign_id WHERE f.bucket_key = ?1");
  for (const std::string& key : family) {
    read.reset().bind(1, key);
    while (read.step()) members.push_back({read.text(0), key, read.real(1), read.integer(2), read.text(3) != "reduce"});
  }
  read.reset();
  const std::optional<Template> from = family_template(impl, base, family);
  if (!from) return;

  const bool split = causes.size() >= 2;
  std::map<std::string, std::int64_t> delta;
  std::set<std::string> changed;
  for (const Member& member : members) {
    const auto cause = cause_of.find(member.id);
    const std::string target = split && cause != cause_of.end() ? cause_bucket_key(base, cause->second) : base;
    if (target == member.bucket) continue;
    ensure_bucket(impl, target, base, cause != cause_of.end() ? cause->second : "", *from, member.id, member.time,
                  member.size);
    impl.statement("UPDATE findings SET bucket_key = ?2 WHERE id = ?1").bind(1, member.id).bind(2, target).run();
    if (member.sighting) {
      --delta[member.bucket];
      ++delta[target];
    }
    changed.insert(member.bucket);
    changed.insert(target);
  }
  for (const std::string& key : changed) {
    auto& any = impl.statement("SELECT 1 FROM findings WHERE bucket_key = ?1 LIMIT 1");
    any.bind(1, key);
    const bool holds = any.step();
    any.reset();
    if (!holds) {
      for (const char* table :
           {"DELETE FROM buckets WHERE key = ?1", "DELETE FROM notes WHERE bucket_key = ?1",
            "DELETE FROM bucket_facts WHERE bucket_key = ?1", "DELETE FROM cause_buckets WHERE key = ?1"})
        impl.statement(table).bind(1, key).run();
      continue;
    }
    // Count by the sightings moved; first and last seen, and the best reproducer, from the
    // findings it holds now (its sightings' times, or its reductions' when it has only those).
    impl.statement(
            "UPDATE buckets SET count = max(count + ?2, 0), "
            "first_seen = coalesce((SELECT min(f.time) FROM findings f LEFT JOIN campaigns c ON c.id = f.campaign_id "
            "WHERE f.bucket_key = ?1 AND coalesce(c.kind, '') != 'reduce'), "
            "(SELECT min(time) FROM findings WHERE bucket_key = ?1)), "
            "last_seen = coalesce((SELECT max(f.time) FROM findings f LEFT JOIN campaigns c ON c.id = f.campaign_id "
            "WHERE f.bucket_key = ?1 AND coalesce(c.kind, '') != 'reduce'), "
            "(SELECT max(time) FROM findings WHERE bucket_key = ?1)), "
            "best_finding = (SELECT id FROM findings WHERE bucket_key = ?1 ORDER BY source_size, id LIMIT 1), "
            "best_size = (SELECT source_size FROM findings WHERE bucket_key = ?1 ORDER BY source_size, id LIMIT 1) "
            "WHERE key = ?1")
        .bind(1, key)
        .bind(2, delta[key])
        .run();
  }
}

} // namespace

void apply_cause_splits(Database::Impl& impl) {
  std::vector<std::string> bases;
  auto& read = impl.statement("SELECT DISTINCT base_key FROM causes UNION SELECT base_key FROM cause_buckets");
  while (read.step()) bases.push_back(read.text(0));
  read.reset();
  for (const std::string& base : bases) split_family(impl, base);
}

std::string Database::add_cause(const std::string& reduced, const std::string& source, const Cause& cause) {
  std::string now;
  transaction([&] {
    auto& where = impl_->statement("SELECT bucket_key FROM findings WHERE id = ?1");
    where.bind(1, reduced);
    if (!where.step()) throw_usage("no finding " + reduced + " to record a cause for");
    const std::string base = base_of(*impl_, where.text(0));
    where.reset();
    auto& insert = impl_->statement("INSERT OR IGNORE INTO causes(finding_id, base_key, cause_key, basis, text, "
                                    "reduced_finding) VALUES(?1, ?2, ?3, ?4, ?5, ?6)");
    for (const std::string& finding : {reduced, source})
      if (!finding.empty())
        insert.reset()
            .bind(1, finding)
            .bind(2, base)
            .bind(3, cause.key)
            .bind(4, cause.basis)
            .bind(5, cause.text)
            .bind(6, reduced)
            .run();
    split_family(*impl_, base);
    where.reset().bind(1, reduced);
    now = where.step() ? where.text(0) : std::string();
    where.reset();
  });
  return now;
}

std::map<std::string, std::vector<BucketCause>> Database::all_causes() const {
  std::map<std::string, std::vector<BucketCause>> by_bucket;
  std::map<std::string, std::set<std::string>> buckets_of;  // cause -> bucket keys
  auto& read = impl_->statement("SELECT f.bucket_key, c.cause_key, min(c.basis), min(c.text), count(*) FROM causes c "
                                "JOIN findings f ON f.id = c.finding_id GROUP BY f.bucket_key, c.cause_key");
  while (read.step()) {
    by_bucket[read.text(0)].push_back({read.text(1), read.text(2), read.text(3), read.integer(4), {}});
    buckets_of[read.text(1)].insert(read.text(0));
  }
  read.reset();
  for (auto& [bucket, causes] : by_bucket) {
    for (BucketCause& cause : causes)
      for (const std::string& other : buckets_of[cause.key])
        if (other != bucket) cause.other_buckets.push_back(other);
    std::ranges::sort(causes, [](const BucketCause& a, const BucketCause& b) {
      return a.findings != b.findings ? a.findings > b.findings : a.key < b.key;
    });
  }
  return by_bucket;
}

std::vector<BucketCause> Database::causes(const std::string& bucket_key) const {
  auto all = all_causes();
  const auto found = all.find(bucket_key);
  return found == all.end() ? std::vector<BucketCause>() : found->second;
}

CauseSampling Database::cause_sampling(const std::string& bucket_key) const {
  CauseSampling sampling;
  sampling.base = base_of(*impl_, bucket_key);
  // Sightings only: a reduction (a `reduce` campaign's finding) has its original's cause.
  auto& reduced = impl_->statement("SELECT count(*) FROM causes c JOIN findings f ON f.id = c.finding_id "
                                   "LEFT JOIN campaigns k ON k.id = f.campaign_id "
                                   "WHERE c.base_key = ?1 AND coalesce(k.kind, '') != 'reduce'");
  reduced.bind(1, sampling.base);
  if (reduced.step()) sampling.reduced = reduced.integer(0);
  reduced.reset();
  // A sighting without a cause stays in the signature's bucket when it splits.
  auto& open = impl_->statement("SELECT f.id FROM findings f LEFT JOIN campaigns k ON k.id = f.campaign_id "
                                "WHERE f.bucket_key = ?1 AND coalesce(k.kind, '') != 'reduce' "
                                "AND NOT EXISTS (SELECT 1 FROM causes c WHERE c.finding_id = f.id) "
                                "ORDER BY f.source_size, f.id");
  open.bind(1, sampling.base);
  while (open.step()) sampling.open.push_back(open.text(0));
  open.reset();
  return sampling;
}

std::string Database::split_from(const std::string& bucket_key) const {
  auto& query = impl_->statement("SELECT base_key FROM cause_buckets WHERE key = ?1");
  query.bind(1, bucket_key);
  std::string base = query.step() ? query.text(0) : std::string();
  query.reset();
  return base;
}

} // namespace cudiff::triage
