// triage: re-keying — a database whose bucket keys were made by an older signature version gets
// every finding's key computed anew from its stored details, and buckets that now share a key
// merged, in one transaction. The version the keys were made with is kept in a table of its own
// (`signature_keys`), apart from the schema version (PRAGMA user_version): a new normalization
// is not a new schema.
#include "triage/sqlite.h"

#include <algorithm>
#include <map>
#include <set>

namespace cudiff::triage {
namespace {

/// The version the keys of a database without the table were made with: every cudiff before
/// the table existed wrote version 1 keys.
constexpr int unrecorded_version = 1;

bool has_table(Database::Impl& impl, std::string_view name) {
  auto& query = impl.statement("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?1");
  query.bind(1, name);
  const bool found = query.step() && query.integer(0) > 0;
  query.reset();
  return found;
}

boost::json::value parse_or_null(const std::string& text) {
  boost::system::error_code ec;
  boost::json::value value = boost::json::parse(text, ec);
  return ec ? boost::json::value(nullptr) : value;
}

/// A crash's key is refined by the crashed compile's stderr, kept in the finding's outputs.
std::string crash_output(const boost::json::value& outputs, const std::string& config) {
  const auto* object = outputs.if_object();
  const auto* configs = object != nullptr ? object->if_contains("configs") : nullptr;
  if (configs == nullptr || !configs->is_array()) return {};
  for (const auto& entry : configs->as_array()) {
    if (!entry.is_object()) continue;
    const auto* name = entry.as_object().if_contains("config");
    const auto* err = entry.as_object().if_contains("stderr");
    if (name != nullptr && name->is_string() && name->as_string() == config && err != nullptr && err->is_string())
      return std::string(err->as_string());
  }
  return {};
}

struct StoredKey {
  std::string id, old_key;
  double time = 0;
  std::int64_t size = 0;
  std::optional<Signature> signature;  ///< none for a kind this cudiff does not know: kept as it is
};

std::vector<StoredKey> new_keys(Database::Impl& impl) {
  std::vector<StoredKey> keys;
  auto& select = impl.statement(
      "SELECT f.id, f.bucket_key, f.time, f.source_size, f.kind, f.summary, f.configs, f.details, "
      "CASE WHEN f.kind = 'crash' THEN o.data ELSE NULL END FROM findings f "
      "LEFT JOIN blobs o ON o.hash = f.outputs_hash ORDER BY f.time, f.id");
  while (select.step()) {
    StoredKey key{select.text(0), select.text(1), select.real(2), select.integer(3), std::nullopt};
    if (const std::optional<oracle::FindingKind> kind = oracle::parse_finding_kind(select.text(4))) {
      oracle::Finding finding;
      finding.kind = *kind;
      finding.summary = select.text(5);
      if (const auto configs = parse_or_null(select.text(6)); configs.is_array())
        for (const auto& config : configs.as_array())
          if (config.is_string()) finding.configs.emplace_back(config.as_string());
      if (auto details = parse_or_null(select.text(7)); details.is_object()) finding.details = details.as_object();
      const std::string output = *kind == oracle::FindingKind::crash && !select.is_null(8) && !finding.configs.empty()
                                     ? crash_output(parse_or_null(select.text(8)), finding.configs.front())
                                     : std::string();
      key.signature = signature_of(finding, output);
    }
    keys.push_back(std::move(key));
  }
  return keys;
}

struct OldBucket {
  std::int64_t id = 0;
  std::string key, status, known_reason;
  std::int64_t count = 0;
  double first_seen = 0, last_seen = 0;
};

/// One bucket after re-keying: the findings now under its key, and the old buckets they came from.
struct NewBucket {
  Signature signature;  ///< of its earliest finding
  std::vector<const StoredKey*> findings;
  std::set<std::string> old_keys;
};

/// A person's decision (reported, fixed, invalid, or known with its reason) wins over `new`;
/// among several, the one of the bucket seen most often.
const OldBucket* deciding(const std::vector<const OldBucket*>& contributors) {
  const OldBucket* best = nullptr;
  for (const OldBucket* bucket : contributors) {
    if (best == nullptr) {
      best = bucket;
      continue;
    }
    const bool decided = bucket->status != "new", best_decided = best->status != "new";
    if (decided != best_decided ? decided : bucket->count > best->count) best = bucket;
  }
  return best;
}

void rekey_in_transaction(Database::Impl& impl) {
  const std::vector<StoredKey> keys = new_keys(impl);
  std::map<std::string, OldBucket> old;
  auto& buckets = impl.statement("SELECT id, key, status, known_reason, count, first_seen, last_seen FROM buckets");
  while (buckets.step())
    old[buckets.text(1)] = OldBucket{buckets.integer(0), buckets.text(1), buckets.text(2), buckets.text(3),
                                     buckets.integer(4), buckets.real(5), buckets.real(6)};

  std::map<std::string, NewBucket> fresh;  // new key -> bucket
  std::map<std::string, std::set<std::string>> parts;  // old key -> the new keys its findings went to
  for (const StoredKey& key : keys) {
    if (!key.signature) continue;
    NewBucket& bucket = fresh[key.signature->key];
    if (bucket.findings.empty()) bucket.signature = *key.signature;
    bucket.findings.push_back(&key);
    bucket.old_keys.insert(key.old_key);
    parts[key.old_key].insert(key.signature->key);
  }

  auto& move_finding = impl.statement("UPDATE findings SET bucket_key = ?2 WHERE id = ?1");
  for (const StoredKey& key : keys)
    if (key.signature && key.signature->key != key.old_key)
      move_finding.reset().bind(1, key.id).bind(2, key.signature->key).run();

  // Old rows go; each new bucket takes the local id of the old bucket that gave it the most
  // findings (people name buckets by id), unless that id went to another part of a split.
  std::set<std::int64_t> ids_taken;
  std::vector<std::pair<std::string, std::int64_t>> survivors;  // new key -> id (0: a new id)
  for (auto& [new_key, bucket] : fresh) {
    std::map<std::string, std::size_t> from;
    for (const StoredKey* finding : bucket.findings) ++from[finding->old_key];
    std::int64_t id = 0;
    std::size_t most = 0;
    for (const auto& [old_key, count] : from) {
      const auto found = old.find(old_key);
      if (found == old.end() || ids_taken.contains(found->second.id) || count <= most) continue;
      id = found->second.id;
      most = count;
    }
    if (id != 0) ids_taken.insert(id);
    survivors.emplace_back(new_key, id);
  }
  for (const auto& [old_key, bucket] : old)
    if (parts.contains(old_key)) impl.statement("DELETE FROM buckets WHERE key = ?1").bind(1, old_key).run();

  auto& insert = impl.statement(
      "INSERT INTO buckets(id, key, title, kind, side, stage, symptom, status, known_reason, count, first_seen, "
      "last_seen, best_finding, best_size) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14)");
  auto& move_notes = impl.statement("UPDATE notes SET bucket_key = ?2 WHERE bucket_key = ?1");
  // A bucket's facts follow it; of several old buckets merged into one, the first one's stay.
  auto& move_facts = impl.statement("UPDATE OR IGNORE bucket_facts SET bucket_key = ?2 WHERE bucket_key = ?1");
  for (const auto& [new_key, id] : survivors) {
    const NewBucket& bucket = fresh.at(new_key);
    std::vector<const OldBucket*> contributors;
    std::int64_t count = 0;
    double first = 0, last = 0;
    bool any = false;
    for (const std::string& old_key : bucket.old_keys) {
      const auto found = old.find(old_key);
      const std::size_t here = static_cast<std::size_t>(
          std::ranges::count_if(bucket.findings, [&](const StoredKey* f) { return f->old_key == old_key; }));
      if (found == old.end()) {  // a finding without its bucket row: counted as what it is
        count += static_cast<std::int64_t>(here);
        continue;
      }
      contributors.push_back(&found->second);
      // An old bucket that went whole into this one brings its count (reductions stored by
      // `triage reduce` are findings that were never counted); a split one, its findings.
      const bool whole = parts.at(old_key).size() == 1;
      count += whole ? found->second.count : static_cast<std::int64_t>(here);
      first = any ? std::min(first, found->second.first_seen) : found->second.first_seen;
      last = any ? std::max(last, found->second.last_seen) : found->second.last_seen;
      any = true;
    }
    if (!any) {
      first = bucket.findings.front()->time;
      last = bucket.findings.back()->time;
    }
    const StoredKey* best = *std::ranges::min_element(bucket.findings, [](const StoredKey* a, const StoredKey* b) {
      return a->size != b->size ? a->size < b->size : a->id < b->id;
    });
    const OldBucket* decision = deciding(contributors);
    const Signature& s = bucket.signature;
    insert.reset();
    if (id != 0) insert.bind(1, id);
    else insert.bind_null(1);
    insert.bind(2, new_key)
        .bind(3, s.title)
        .bind(4, s.kind)
        .bind(5, s.side)
        .bind(6, s.stage)
        .bind(7, s.symptom)
        .bind(8, decision != nullptr ? decision->status : "new")
        .bind(9, decision != nullptr ? decision->known_reason : "")
        .bind(10, std::max<std::int64_t>(count, 1))
        .bind(11, first)
        .bind(12, last)
        .bind(13, best->id)
        .bind(14, best->size)
        .run();
    for (const std::string& old_key : bucket.old_keys) {
      move_notes.reset().bind(1, old_key).bind(2, new_key).run();
      move_facts.reset().bind(1, old_key).bind(2, new_key).run();
    }
  }
  impl.exec("DELETE FROM bucket_facts WHERE bucket_key NOT IN (SELECT key FROM buckets)");
  // Causes are filed under the signature's key: the new one; the buckets split by cause went
  // with the old keys, and are split again from the new ones.
  impl.exec("UPDATE causes SET base_key = (SELECT bucket_key FROM findings WHERE findings.id = causes.finding_id) "
            "WHERE finding_id IN (SELECT id FROM findings)");
  impl.exec("DELETE FROM cause_buckets");
  apply_cause_splits(impl);
}

} // namespace

int recorded_signature_version(Database::Impl& impl) {
  if (!has_table(impl, "signature_keys"))
    return impl.scalar("SELECT count(*) FROM buckets") == 0 ? signature_version : unrecorded_version;
  auto& query = impl.statement("SELECT max(version) FROM signature_keys");
  const int version = query.step() && !query.is_null(0) ? static_cast<int>(query.integer(0)) : unrecorded_version;
  query.reset();
  return version;
}

void bring_keys_up_to_date(Database::Impl& impl) {
  // A schema left older on purpose (OpenOptions::upgrade_to, tests only) lacks columns the
  // re-key reads: its keys wait for the upgrade.
  if (impl.version < schema_version) return;
  // Another process may be doing the same: the version is read again under the write lock.
  impl.exec("BEGIN IMMEDIATE");
  try {
    const int version = recorded_signature_version(impl);
    // Keys this cudiff cannot make: writing its own beside them would split every bucket.
    if (version > signature_version)
      throw_environment(impl.path.string() + " has bucket keys of signature version " + std::to_string(version) +
                        ", newer than this cudiff makes (" + std::to_string(signature_version) +
                        "); use a newer cudiff");
    impl.exec("CREATE TABLE IF NOT EXISTS signature_keys(version INTEGER NOT NULL)");
    if (version < signature_version) rekey_in_transaction(impl);
    if (version != signature_version || impl.scalar("SELECT count(*) FROM signature_keys") != 1) {
      impl.exec("DELETE FROM signature_keys");
      impl.exec("INSERT INTO signature_keys(version) VALUES(" + std::to_string(signature_version) + ")");
    }
    impl.exec("COMMIT");
  } catch (...) {
    impl.cache.clear();
    sqlite3_exec(impl.db, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
  impl.cache.clear();
}

int Database::key_version() const { return recorded_signature_version(*impl_); }

} // namespace cudiff::triage
