// triage: writing and reading campaigns, tests, findings, buckets and notes.
#include "triage/sqlite.h"

#include <charconv>

namespace cudiff::triage {
namespace {

std::string json_text(const boost::json::value& value) { return boost::json::serialize(value); }

boost::json::value parse_json(const std::string& text) {
  boost::system::error_code ec;
  boost::json::value value = boost::json::parse(text, ec);
  return ec ? boost::json::value(text) : value;
}

std::string strings_json(const std::vector<std::string>& strings) {
  boost::json::array array;
  for (const auto& text : strings) array.emplace_back(text);
  return json_text(array);
}

std::vector<std::string> strings_from(const std::string& text) {
  std::vector<std::string> strings;
  const boost::json::value value = parse_json(text);
  if (const auto* array = value.if_array())
    for (const auto& item : *array)
      if (item.is_string()) strings.emplace_back(item.as_string());
  return strings;
}

constexpr std::string_view bucket_columns =
    "id, key, title, kind, side, stage, symptom, status, known_reason, count, first_seen, last_seen, "
    "best_finding, best_size";

Bucket bucket_from(const sql::Statement& row) {
  Bucket bucket;
  bucket.id = row.integer(0);
  bucket.key = row.text(1);
  bucket.title = row.text(2);
  bucket.kind = row.text(3);
  bucket.side = row.text(4);
  bucket.stage = row.text(5);
  bucket.symptom = row.text(6);
  bucket.status = parse_status(row.text(7));
  bucket.known_reason = row.text(8);
  bucket.count = row.integer(9);
  bucket.first_seen = row.real(10);
  bucket.last_seen = row.real(11);
  bucket.best_finding = row.text(12);
  bucket.best_size = row.integer(13);
  return bucket;
}

constexpr std::string_view campaign_columns =
    "id, kind, host, started, ended, cudiff_version, nvcc_version, clang_version, gpus, configs, mode, "
    "tests, findings";

Campaign campaign_from(const sql::Statement& row) {
  Campaign campaign;
  campaign.id = row.text(0);
  campaign.kind = row.text(1);
  campaign.host = row.text(2);
  campaign.started = row.real(3);
  campaign.ended = row.real(4);
  campaign.cudiff_version = row.text(5);
  campaign.nvcc_version = row.text(6);
  campaign.clang_version = row.text(7);
  campaign.gpus = row.text(8);
  campaign.configs = strings_from(row.text(9));
  campaign.mode = row.text(10);
  campaign.tests = row.integer(11);
  campaign.findings = row.integer(12);
  return campaign;
}

std::string with_columns(std::string_view columns, std::string_view rest) {
  return "SELECT " + std::string(columns) + " " + std::string(rest);
}

bool is_hex(std::string_view text) {
  return !text.empty() && text.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

/// The issue a finding's accepting compiler is already reported in (the spec oracle's
/// `details.upstream.url`, from the rules catalog's evidence), or "".
std::string upstream_link(const boost::json::object& details) {
  const auto* upstream = details.if_contains("upstream");
  if (upstream == nullptr || !upstream->is_object()) return {};
  const auto* url = upstream->as_object().if_contains("url");
  return url != nullptr && url->is_string() ? std::string(url->as_string()) : std::string();
}

} // namespace

std::string to_string(Status status) {
  switch (status) {
  case Status::fresh: return "new";
  case Status::known: return "known";
  case Status::reported: return "reported";
  case Status::fixed: return "fixed";
  case Status::invalid: return "invalid";
  }
  return "new";
}

Status parse_status(std::string_view text) {
  for (Status status : {Status::fresh, Status::known, Status::reported, Status::fixed, Status::invalid})
    if (to_string(status) == text) return status;
  throw_usage("unknown status '" + std::string(text) + "' (new, known, reported, fixed, invalid)");
}

void Database::put_campaign(const Campaign& c) {
  impl_
      ->statement("INSERT INTO campaigns(id, kind, host, started, ended, cudiff_version, nvcc_version, clang_version, "
                  "gpus, configs, mode, tests, findings) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13) "
                  "ON CONFLICT(id) DO UPDATE SET ended = excluded.ended, tests = excluded.tests, "
                  "findings = excluded.findings")
      .bind(1, c.id)
      .bind(2, c.kind)
      .bind(3, c.host)
      .bind(4, c.started)
      .bind(5, c.ended)
      .bind(6, c.cudiff_version)
      .bind(7, c.nvcc_version)
      .bind(8, c.clang_version)
      .bind(9, c.gpus)
      .bind(10, strings_json(c.configs))
      .bind(11, c.mode)
      .bind(12, c.tests)
      .bind(13, c.findings)
      .run();
}

void Database::add_test(const Test& t) {
  impl_
      ->statement(
          "INSERT OR IGNORE INTO tests(id, campaign_id, name, seed, policy_hash, configs, outcome, time, seconds) "
          "VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9)")
      .bind(1, t.id)
      .bind(2, t.campaign_id)
      .bind(3, t.name)
      .bind(4, t.seed)
      .bind(5, t.policy_hash)
      .bind(6, strings_json(t.configs))
      .bind(7, t.outcome)
      .bind(8, t.time)
      .bind(9, t.seconds)
      .run();
}

Recorded Database::add_finding(const NewFinding& f, const KnownDifference* known) {
  Recorded result;
  const std::string upstream = upstream_link(f.finding.details);
  transaction([&] {
    const std::string outputs = json_text(f.outputs);
    const std::string source_hash = content_key(f.source);
    const std::string outputs_hash = content_key(outputs);
    auto& blob = impl_->statement("INSERT OR IGNORE INTO blobs(hash, data) VALUES(?1, ?2)");
    blob.bind(1, source_hash).bind(2, f.source).run();
    blob.reset().bind(1, outputs_hash).bind(2, outputs).run();

    boost::json::array configs;
    for (const auto& config : f.finding.configs) configs.emplace_back(config);
    impl_
        ->statement(
            "INSERT OR IGNORE INTO findings(id, bucket_key, campaign_id, test_id, time, kind, summary, configs, "
            "details, source_name, source_hash, source_size, outputs_hash) "
            "VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13)")
        .bind(1, f.id)
        .bind(2, f.signature.key)
        .bind(3, f.campaign_id)
        .bind(4, f.test_id)
        .bind(5, f.time)
        .bind(6, f.signature.kind)
        .bind(7, f.finding.summary)
        .bind(8, json_text(configs))
        .bind(9, json_text(f.finding.details))
        .bind(10, f.source_name)
        .bind(11, source_hash)
        .bind(12, static_cast<std::int64_t>(f.source.size()))
        .bind(13, outputs_hash)
        .run();
    if (sqlite3_changes(impl_->db) == 0) {
      result.duplicate = true;
      result.bucket = bucket(f.signature.key);
      return;
    }
    // Every expression in DO UPDATE reads the row as it was, so `status` below is the old one.
    auto& upsert = impl_->statement(
        std::string(
            "INSERT INTO buckets(key, title, kind, side, stage, symptom, status, known_reason, count, first_seen, "
            "last_seen, best_finding, best_size) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,1,?9,?9,?10,?11) "
            "ON CONFLICT(key) DO UPDATE SET count = count + 1, "
            "first_seen = min(first_seen, excluded.first_seen), last_seen = max(last_seen, excluded.last_seen), "
            "best_finding = CASE WHEN excluded.best_size < best_size OR (excluded.best_size = best_size AND "
            "excluded.best_finding < best_finding) THEN excluded.best_finding ELSE best_finding END, "
            "best_size = min(best_size, excluded.best_size), "
            "status = CASE WHEN status = 'new' AND excluded.status IN ('known', 'reported') THEN excluded.status "
            "ELSE status END, "
            "known_reason = CASE WHEN status = 'new' AND excluded.status = 'known' THEN excluded.known_reason "
            "ELSE known_reason END RETURNING ") +
        std::string(bucket_columns));
    upsert.bind(1, f.signature.key)
        .bind(2, f.signature.title)
        .bind(3, f.signature.kind)
        .bind(4, f.signature.side)
        .bind(5, f.signature.stage)
        .bind(6, f.signature.symptom)
        .bind(7, known != nullptr    ? "known"
                 : !upstream.empty() ? "reported"
                                     : "new")
        .bind(8, known != nullptr ? known->reason : "")
        .bind(9, f.time)
        .bind(10, f.id)
        .bind(11, static_cast<std::int64_t>(f.source.size()));
    if (!upsert.step()) throw_environment("database write failed: no bucket row for " + f.signature.key);
    result.bucket = bucket_from(upsert);
    upsert.reset();
    // The bucket of a missed diagnostic already reported upstream (the rules catalog's evidence
    // names the issue) carries that link from its first finding, as `triage mark ID reported
    // --link URL` would; a link a person set is kept.
    if (!upstream.empty())
      impl_
          ->statement("INSERT INTO bucket_facts(bucket_key, link) VALUES(?1, ?2) "
                      "ON CONFLICT(bucket_key) DO UPDATE SET link = CASE WHEN link = '' THEN excluded.link "
                      "ELSE link END")
          .bind(1, f.signature.key)
          .bind(2, upstream)
          .run();
    result.new_bucket = result.bucket.count == 1;
  });
  return result;
}

std::vector<Bucket> Database::buckets(const BucketQuery& query) const {
  auto& select = impl_->statement(
      with_columns(bucket_columns, "FROM buckets WHERE (?1 IS NULL OR status = ?1) AND (?2 IS NULL OR kind = ?2) "
                                   "ORDER BY count DESC, key LIMIT ?3"));
  if (query.status) select.bind(1, to_string(*query.status));
  if (query.kind) select.bind(2, *query.kind);
  select.bind(3, query.limit == 0 ? std::int64_t{-1} : static_cast<std::int64_t>(query.limit));
  std::vector<Bucket> buckets;
  while (select.step()) buckets.push_back(bucket_from(select));
  return buckets;
}

Bucket Database::bucket(std::string_view id_or_key) const {
  std::int64_t id = 0;
  const auto [end, error] = std::from_chars(id_or_key.data(), id_or_key.data() + id_or_key.size(), id);
  std::vector<Bucket> found;
  if (error == std::errc() && end == id_or_key.data() + id_or_key.size() && id_or_key.size() < 4) {
    auto& select = impl_->statement(with_columns(bucket_columns, "FROM buckets WHERE id = ?1"));
    select.bind(1, id);
    while (select.step()) found.push_back(bucket_from(select));
  }
  if (found.empty() && id_or_key.size() >= 4 && is_hex(id_or_key)) {
    // A key prefix, as git takes a commit prefix; a short number is a local id first.
    // A range on the unique index: every key with this prefix sorts between it and prefix + 'g'.
    auto& select = impl_->statement(with_columns(bucket_columns, "FROM buckets WHERE key >= ?1 AND key < ?2 LIMIT 2"));
    select.bind(1, id_or_key).bind(2, std::string(id_or_key) + "g");
    while (select.step()) found.push_back(bucket_from(select));
  }
  if (found.empty() && error == std::errc() && end == id_or_key.data() + id_or_key.size()) {
    auto& select = impl_->statement(with_columns(bucket_columns, "FROM buckets WHERE id = ?1"));
    select.bind(1, id);
    while (select.step()) found.push_back(bucket_from(select));
  }
  if (found.empty()) throw_usage("no bucket '" + std::string(id_or_key) + "' in " + impl_->path.string());
  if (found.size() > 1)
    throw_usage("bucket key prefix '" + std::string(id_or_key) + "' is ambiguous; give more digits");
  return found.front();
}

namespace {

constexpr std::string_view finding_select =
    "SELECT f.id, f.campaign_id, f.test_id, f.bucket_key, f.time, f.kind, f.summary, f.configs, f.details, "
    "f.source_name, s.data, o.data FROM findings f LEFT JOIN blobs s ON s.hash = f.source_hash "
    "LEFT JOIN blobs o ON o.hash = f.outputs_hash ";

StoredFinding finding_from(const sql::Statement& row) {
  StoredFinding finding;
  finding.id = row.text(0);
  finding.campaign_id = row.text(1);
  finding.test_id = row.text(2);
  finding.bucket_key = row.text(3);
  finding.time = row.real(4);
  finding.kind = row.text(5);
  finding.summary = row.text(6);
  finding.configs = parse_json(row.text(7));
  finding.details = parse_json(row.text(8));
  finding.source_name = row.text(9);
  finding.source = row.text(10);
  finding.outputs = parse_json(row.text(11));
  return finding;
}

} // namespace

std::optional<StoredFinding> Database::finding(std::string_view id) const {
  auto& select = impl_->statement(std::string(finding_select) + "WHERE f.id = ?1");
  select.bind(1, id);
  std::optional<StoredFinding> found;
  if (select.step()) found = finding_from(select);
  select.reset();
  return found;
}

std::vector<StoredFinding> Database::findings_of(const std::string& bucket_key, std::size_t limit) const {
  auto& select = impl_->statement(std::string(finding_select) +
                                  "WHERE f.bucket_key = ?1 ORDER BY f.source_size, f.id LIMIT ?2");
  select.bind(1, bucket_key).bind(2, static_cast<std::int64_t>(limit));
  std::vector<StoredFinding> findings;
  while (select.step()) findings.push_back(finding_from(select));
  return findings;
}

std::vector<Note> Database::notes(const std::string& bucket_key) const {
  auto& select = impl_->statement("SELECT time, text FROM notes WHERE bucket_key = ?1 ORDER BY time, id");
  select.bind(1, bucket_key);
  std::vector<Note> notes;
  while (select.step()) notes.push_back({select.real(0), select.text(1)});
  return notes;
}

std::vector<Campaign> Database::campaigns() const {
  auto& select = impl_->statement(with_columns(campaign_columns, "FROM campaigns ORDER BY started, id"));
  std::vector<Campaign> campaigns;
  while (select.step()) campaigns.push_back(campaign_from(select));
  return campaigns;
}

std::optional<Campaign> Database::campaign(const std::string& id) const {
  auto& select = impl_->statement(with_columns(campaign_columns, "FROM campaigns WHERE id = ?1"));
  select.bind(1, id);
  std::optional<Campaign> found;
  if (select.step()) found = campaign_from(select);
  select.reset();
  return found;
}

void Database::set_status(const std::string& bucket_key, Status status) {
  impl_->statement("UPDATE buckets SET status = ?2 WHERE key = ?1")
      .bind(1, bucket_key)
      .bind(2, to_string(status))
      .run();
}

bool Database::mark_known(const std::string& bucket_key, std::string_view reason) {
  impl_->statement("UPDATE buckets SET status = 'known', known_reason = ?2 WHERE key = ?1 AND status = 'new'")
      .bind(1, bucket_key)
      .bind(2, reason)
      .run();
  return sqlite3_changes(impl_->db) > 0;
}

void Database::add_note(const std::string& bucket_key, std::string_view text, double time) {
  // The id is the note's content, so a merged shard does not repeat notes it shares.
  const std::string id = content_key(bucket_key + "\n" + std::to_string(time) + "\n" + std::string(text));
  impl_->statement("INSERT OR IGNORE INTO notes(id, bucket_key, time, text) VALUES(?1, ?2, ?3, ?4)")
      .bind(1, id)
      .bind(2, bucket_key)
      .bind(3, time)
      .bind(4, text)
      .run();
}

std::int64_t Database::apply_known(const KnownDifferences& known) {
  std::int64_t marked = 0;
  transaction([&] {
    for (const Bucket& bucket : buckets(BucketQuery{Status::fresh, std::nullopt, 0})) {
      Signature signature;
      signature.kind = bucket.kind;
      signature.side = bucket.side;
      for (const std::string& line : split_lines(bucket.symptom))
        if (line.starts_with("id ")) signature.ids.push_back(line.substr(3));
      if (const KnownDifference* entry = known.match(signature)) {
        impl_->statement("UPDATE buckets SET status = 'known', known_reason = ?2 WHERE key = ?1")
            .bind(1, bucket.key)
            .bind(2, entry->reason)
            .run();
        ++marked;
      }
    }
    // A bucket whose findings reduce to a known bug's cause is that bug, whatever its signature
    // (docs/triage.md, "Cause keys").
    for (const auto& [key, causes] : all_causes())
      for (const BucketCause& cause : causes)
        if (const KnownDifference* entry = known.match_cause(cause.key)) {
          if (mark_known(key, entry->reason)) ++marked;
          break;
        }
  });
  return marked;
}

std::vector<std::pair<double, std::string>> Database::finding_times() const {
  auto& select = impl_->statement("SELECT time, kind FROM findings ORDER BY time");
  std::vector<std::pair<double, std::string>> times;
  while (select.step()) times.emplace_back(select.real(0), select.text(1));
  return times;
}

boost::json::object to_json(const Bucket& b) {
  return boost::json::object{{"id", b.id},
                             {"key", b.key},
                             {"title", b.title},
                             {"kind", b.kind},
                             {"class", class_name(class_of_kind(b.kind))},
                             {"side", b.side},
                             {"stage", b.stage},
                             {"status", to_string(b.status)},
                             {"known_reason", b.known_reason},
                             {"count", b.count},
                             {"first_seen", b.first_seen},
                             {"last_seen", b.last_seen},
                             {"best_finding", b.best_finding},
                             {"best_size", b.best_size},
                             {"symptom", b.symptom}};
}

} // namespace cudiff::triage
