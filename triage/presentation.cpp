// triage: what `cudiff triage` shows — the list by class, a bucket, the invalid tests, a
// merge's and an export's lines — as text tables or JSON.
#include "common/common.h"
#include "triage/triage.h"

#include <ctime>

namespace cudiff::triage {
namespace {

/// A bucket for `list --json`: every field of to_json, and where its findings came from.
boost::json::object listed_json(const Bucket& bucket, const std::map<std::string, BucketOrigins>& origins,
                                const std::map<std::string, BucketFacts>& facts) {
  boost::json::object json = to_json(bucket);
  // What is known of it beyond its findings: the upstream report, the bisection, the recheck.
  const auto known = facts.find(bucket.key);
  const BucketFacts none;
  const BucketFacts& fact = known == facts.end() ? none : known->second;
  json["link"] = fact.link;
  json["versions"] = fact.versions;
  json["recheck"] = fact.recheck;
  boost::json::array engines, configs;
  if (const auto found = origins.find(bucket.key); found != origins.end()) {
    for (const auto& engine : found->second.engines) engines.emplace_back(engine);
    for (const auto& config : found->second.configs) configs.emplace_back(config);
  }
  json["engines"] = std::move(engines);
  json["configs"] = std::move(configs);
  return json;
}

boost::json::array causes_json(const std::vector<BucketCause>& causes, bool with_text) {
  boost::json::array list;
  for (const BucketCause& cause : causes) {
    boost::json::array others;
    for (const std::string& other : cause.other_buckets) others.emplace_back(other);
    boost::json::object entry{{"key", cause.key},
                              {"basis", cause.basis},
                              {"findings", cause.findings},
                              {"other_buckets", std::move(others)}};
    if (with_text) entry["text"] = cause.text;
    list.push_back(std::move(entry));
  }
  return list;
}

/// "a1b2c3d4 ptx (also bucket 7)", one per cause: the list's cell and `show`'s lines.
std::string cause_text(const BucketCause& cause, const std::map<std::string, std::int64_t>& ids) {
  std::vector<std::string> others;
  for (const std::string& other : cause.other_buckets) {
    const auto id = ids.find(other);
    others.push_back(id == ids.end() ? other.substr(0, 12) : std::to_string(id->second));
  }
  return cause.key.substr(0, 8) + " " + cause.basis +
         (others.empty() ? ""
                         : " (also bucket" + std::string(others.size() > 1 ? "s " : " ") + join(others, ", ") + ")");
}

std::string causes_cell(const std::map<std::string, std::vector<BucketCause>>& causes, const std::string& key,
                        const std::map<std::string, std::int64_t>& ids) {
  const auto found = causes.find(key);
  if (found == causes.end()) return "-";
  std::vector<std::string> parts;
  for (const BucketCause& cause : found->second) parts.push_back(cause_text(cause, ids));
  return join(parts, "; ");
}

/// The local ids of every bucket (a cause's other buckets may be filtered out of the list).
std::map<std::string, std::int64_t> bucket_ids(const Database& db) {
  std::map<std::string, std::int64_t> ids;
  for (const Bucket& bucket : db.buckets()) ids[bucket.key] = bucket.id;
  return ids;
}

/// A bucket's bisection (`versions`) or last recheck verdict for the list's table; "-" when none.
std::string facts_cell(const std::map<std::string, BucketFacts>& facts, const std::string& key, bool versions) {
  const auto found = facts.find(key);
  if (found == facts.end()) return "-";
  const std::string& text = versions ? found->second.versions : found->second.recheck;
  if (text.empty()) return "-";
  // "not bisectable: <reasons>" says its reasons in `show`; the table keeps the verdict.
  return shorten(text.substr(0, text.find(':')), 32);
}

std::string causes_text(const std::vector<std::pair<std::string, std::int64_t>>& causes) {
  std::vector<std::string> parts;
  for (const auto& [cause, count] : causes) parts.push_back(cause + " " + std::to_string(count));
  return join(parts, ", ");
}

boost::json::object by_cause_json(const std::vector<std::pair<std::string, std::int64_t>>& causes) {
  boost::json::object by_cause;
  for (const auto& [cause, count] : causes) by_cause[cause] = count;
  return by_cause;
}

} // namespace

std::string day_time(double seconds) {
  if (seconds <= 0) return "-";
  const std::time_t t = static_cast<std::time_t>(seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%d %H:%M", &tm);
  return buffer;
}

Listing read_listing(const Database& db, const ListFilter& filter) {
  BucketQuery query;
  query.status = filter.status;
  query.kind = filter.kind;
  const std::optional<FindingClass>& only = filter.finding_class;
  const bool filtered = query.status || query.kind || only;
  // Invalid tests are no buckets: a filter on status or kind leaves them out.
  const bool with_invalid = !query.status && !query.kind && (!only || *only == FindingClass::invalid_tests);

  Listing listing;
  std::vector<Bucket> kept;
  for (auto& group : group_by_class(db.buckets(query))) {
    if (only && group.finding_class != only) continue;
    const bool invalid = group.finding_class == FindingClass::invalid_tests;
    if (filtered && group.buckets.empty() && !(invalid && with_invalid)) continue;
    listing.buckets += group.buckets.size();
    kept.insert(kept.end(), group.buckets.begin(), group.buckets.end());
    listing.groups.push_back(std::move(group));
  }
  listing.origins = db.bucket_origins();
  listing.facts = db.all_facts();
  if (with_invalid) listing.causes = db.invalid_test_causes();
  for (const auto& [cause, count] : listing.causes) listing.invalid_tests += count;
  listing.totals = db.totals();
  listing.bugs = tally_bugs(kept);
  listing.bucket_causes = db.all_causes();
  if (!listing.bucket_causes.empty()) listing.ids = bucket_ids(db);
  return listing;
}

boost::json::value to_json(const Listing& listing, bool by_class) {
  boost::json::array flat, classes;
  for (const auto& group : listing.groups) {
    boost::json::array buckets;
    for (const auto& b : group.buckets) {
      boost::json::object json = listed_json(b, listing.origins, listing.facts);
      const auto causes = listing.bucket_causes.find(b.key);
      json["causes"] = causes_json(causes == listing.bucket_causes.end() ? std::vector<BucketCause>() : causes->second,
                                   false);
      buckets.push_back(std::move(json));
    }
    if (!by_class) {
      for (auto& bucket : buckets) flat.push_back(std::move(bucket));
      continue;
    }
    boost::json::object entry{{"class", class_name(group.finding_class)},
                              {"bucket_count", static_cast<std::int64_t>(group.buckets.size())},
                              {"finding_count", group.findings},
                              {"buckets", std::move(buckets)}};
    if (group.finding_class == FindingClass::invalid_tests) {
      entry["invalid_tests"] = listing.invalid_tests;
      entry["by_cause"] = by_cause_json(listing.causes);
    }
    classes.push_back(std::move(entry));
  }
  if (!by_class) return flat;
  return boost::json::object{{"bugs", to_json(listing.bugs)}, {"classes", std::move(classes)}};
}

std::string render_listing(const Listing& listing) {
  std::string out = describe(listing.bugs) + "\n\n";
  for (const auto& group : listing.groups) {
    if (group.finding_class == FindingClass::invalid_tests) {
      out += "invalid tests: " + std::to_string(listing.invalid_tests) +
             " tests rejected by the sanitizer gate, not filed" +
             (listing.causes.empty() ? "" : ": " + causes_text(listing.causes)) + "\n\n";
      continue;
    }
    out += class_name(group.finding_class) + ": " + std::to_string(group.buckets.size()) + " buckets, " +
           std::to_string(group.findings) + " findings\n";
    if (group.buckets.empty()) {
      out += "\n";
      continue;
    }
    TextTable table({"id", "key", "kind", "stage", "status", "count", "first seen", "last seen", "engines", "configs",
                     "versions", "recheck", "causes", "title"});
    const BucketOrigins none;
    for (const auto& b : group.buckets) {
      const auto found = listing.origins.find(b.key);
      const BucketOrigins& origin = found == listing.origins.end() ? none : found->second;
      table.add_row({std::to_string(b.id), b.key.substr(0, 12), b.kind, b.stage, to_string(b.status),
                     std::to_string(b.count), day_time(b.first_seen), day_time(b.last_seen), join(origin.engines, ","),
                     shorten(join(origin.configs, ","), 48), facts_cell(listing.facts, b.key, true),
                     facts_cell(listing.facts, b.key, false),
                     shorten(causes_cell(listing.bucket_causes, b.key, listing.ids), 60), shorten(b.title, 100)});
    }
    out += table.render() + "\n";
  }
  const Totals& totals = listing.totals;
  return out + std::to_string(listing.buckets) + " of " + std::to_string(totals.buckets) + " buckets; " +
         std::to_string(totals.findings) + " findings from " + std::to_string(totals.tests) + " tests in " +
         std::to_string(totals.campaigns) + " campaigns\n";
}

BucketDetails read_details(const Database& db, const Bucket& bucket) {
  BucketDetails details{bucket,
                        db.findings_of(bucket.key, 5),
                        db.notes(bucket.key),
                        db.facts(bucket.key),
                        db.causes(bucket.key),
                        db.split_from(bucket.key),
                        {}};
  if (!details.causes.empty() || !details.split_from.empty()) details.ids = bucket_ids(db);
  return details;
}

boost::json::object to_json(const BucketDetails& details) {
  boost::json::object json = to_json(details.bucket);
  boost::json::array list;
  for (const auto& f : details.findings)
    list.push_back(boost::json::object{{"id", f.id},
                                       {"time", f.time},
                                       {"source_name", f.source_name},
                                       {"summary", f.summary},
                                       {"details", f.details}});
  json["smallest_findings"] = std::move(list);
  const BucketFacts& facts = details.facts;
  json["link"] = facts.link;
  json["versions"] = facts.versions;
  json["recheck"] = boost::json::object{{"verdict", facts.recheck},
                                        {"time", facts.recheck_time},
                                        {"compilers", facts.recheck_compilers}};
  json["causes"] = causes_json(details.causes, true);
  json["split_from"] = details.split_from;
  return json;
}

std::string render_details(const BucketDetails& details) {
  const Bucket& b = details.bucket;
  std::string out = "bucket " + std::to_string(b.id) + " " + b.key + "\n" + "title:   " + b.title + "\n" +
                    "kind:    " + b.kind + " (side " + b.side + ", stage " + b.stage + ")\n" +
                    "status:  " + to_string(b.status) + (b.known_reason.empty() ? "" : " (" + b.known_reason + ")") +
                    "\n" + "count:   " + std::to_string(b.count) + ", first seen " + day_time(b.first_seen) +
                    ", last seen " + day_time(b.last_seen) + "\n" + "best:    " + b.best_finding.substr(0, 12) + " (" +
                    format_bytes(static_cast<std::uint64_t>(b.best_size)) + ")\n" + "signature:\n";
  for (const auto& line : split_lines(b.symptom)) out += "  " + line + "\n";
  out += "smallest findings:\n";
  for (const auto& f : details.findings)
    out += "  " + f.id.substr(0, 12) + " " + f.source_name + ": " + f.summary + "\n";
  for (const auto& note : details.notes) out += "note " + day_time(note.time) + ": " + note.text + "\n";
  const BucketFacts& facts = details.facts;
  if (!facts.link.empty()) out += "reported: " + facts.link + "\n";
  if (!facts.versions.empty()) out += "versions: " + facts.versions + "\n";
  if (!facts.recheck.empty())
    out += "recheck: " + facts.recheck + " (" + day_time(facts.recheck_time) + ", " + facts.recheck_compilers + ")\n";
  if (!details.split_from.empty()) {
    const auto id = details.ids.find(details.split_from);
    out += "split from: " + (id == details.ids.end() ? std::string() : "bucket " + std::to_string(id->second) + " ") +
           details.split_from.substr(0, 12) + " (one bucket per cause of that signature's findings)\n";
  }
  for (const BucketCause& cause : details.causes) {
    out += "cause " + cause_text(cause, details.ids) + ", " + std::to_string(cause.findings) + " finding" +
           (cause.findings == 1 ? "" : "s") + " (" + cause.key + "):\n";
    const std::vector<std::string> lines = split_lines(cause.text);
    for (std::size_t i = 0; i < lines.size() && i < 40; ++i) out += "  " + lines[i] + "\n";
    if (lines.size() > 40) out += "  ... (" + std::to_string(lines.size() - 40) + " more lines: show --json)\n";
  }
  return out;
}

InvalidListing read_invalid_listing(const Database& db, std::size_t limit) {
  return {db.invalid_tests(limit), db.invalid_test_causes(), db.invalid_test_count()};
}

boost::json::object to_json(const InvalidListing& listing, bool full) {
  boost::json::array list;
  for (const InvalidTest& test : listing.tests) list.push_back(to_json(test, full));
  return {{"count", listing.total}, {"by_cause", by_cause_json(listing.causes)}, {"tests", std::move(list)}};
}

std::string render_invalid_listing(const InvalidListing& listing) {
  TextTable table({"time", "test", "tool", "cause", "configs", "first error"});
  for (const InvalidTest& test : listing.tests)
    table.add_row({day_time(test.time), shorten(test.name, 40), test.tool, test.cause,
                   join(test.erring_configs.empty() ? test.configs : test.erring_configs, ","),
                   shorten(test.first_error, 70)});
  std::string out = listing.tests.empty() ? "" : table.render();
  return out + std::to_string(listing.total) + " invalid test" + (listing.total == 1 ? "" : "s") +
         " (rejected by the sanitizer gate, not filed)" +
         (listing.causes.empty() ? "" : ": " + causes_text(listing.causes)) + "\n";
}

std::string describe_merge(const std::string& shard, const MergeStats& stats) {
  std::string out = shard + ": " + std::to_string(stats.tests_added) + " tests, " +
                    std::to_string(stats.findings_added) + " findings, " + std::to_string(stats.buckets_added) +
                    " new buckets, " + std::to_string(stats.invalid_tests_added) + " invalid tests, " +
                    std::to_string(stats.campaigns_added) + " campaigns added" +
                    (stats.campaigns_joined > 0 ? ", " + std::to_string(stats.campaigns_joined) + " joined" : "") +
                    "\n";
  // Shards of one campaign never share a test; merging a shard again does (harmlessly).
  if (stats.tests_present > 0)
    out += shard + ": " + std::to_string(stats.tests_present) +
           " of its tests were here already (merged before, or shards that overlap)\n";
  return out;
}

boost::json::object to_json(const Bucket& bucket, const ExportedReport& exported,
                            const std::vector<std::string>& notes) {
  boost::json::array files, note_list;
  for (const auto& file : exported.attachments) files.emplace_back(file.string());
  for (const auto& note : notes) note_list.emplace_back(note);
  return {{"bucket", bucket.key},
          {"kind", bucket.kind},
          {"stage", bucket.stage},
          {"directory", exported.directory.string()},
          {"report", exported.report.string()},
          {"repro", exported.script.string()},
          {"reproducer", exported.reproducer.string()},
          {"attachments", std::move(files)},
          {"notes", std::move(note_list)}};
}

std::string render_exported(const ExportedReport& exported) {
  std::string out = exported.report.string() + "\n" + exported.script.string() + "\n";
  if (!exported.reproducer.empty()) out += exported.reproducer.string() + "\n";
  for (const auto& file : exported.attachments) out += file.string() + "\n";
  return out;
}

} // namespace cudiff::triage
