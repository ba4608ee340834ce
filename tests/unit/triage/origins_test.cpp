// triage origins: the engines and configs of each bucket's findings (Database::bucket_origins)
// on real databases: every campaign kind, metamorphic findings, reductions left out, a finding
// without its campaign row; the index seeks give what reading every finding gives, on a
// current database and on an older one opened read-only (no index).
#include "support/test_support.h"
#include "triage/triage.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <map>
#include <set>

using namespace cudiff;

namespace {

triage::Campaign campaign(const std::string& name, const std::string& kind, double started) {
  triage::Campaign c;
  c.id = triage::content_key("campaign " + name);
  c.kind = kind;
  c.host = "test";
  c.started = started;
  c.ended = started + 50;
  return c;
}

/// The index-th synthetic finding of a campaign, filed with `configs` instead of its own (the
/// key stays the symptom's: configs are not in a compile-status key).
triage::NewFinding finding(const triage::Campaign& c, int index, int buckets, std::vector<std::string> configs) {
  triage::NewFinding f = triage::synthetic_finding(c.id, index, buckets, c.started + index);
  if (!configs.empty()) f.finding.configs = std::move(configs);
  return f;
}

/// A real metamorphic finding (as judge_metamorphic makes them): one bucket whatever the seed.
triage::NewFinding metamorphic(const triage::Campaign& c, int index) {
  triage::NewFinding f = triage::synthetic_finding(c.id, index, 1, c.started + index);
  f.finding.kind = oracle::FindingKind::metamorphic;
  f.finding.configs = {"clang-O3", "nvcc-O3"};
  f.finding.summary = "metamorphic: variant s7v1/kernel_0 prints 0x1, its original s7/kernel_0 0x2 under clang-O3";
  f.finding.details = boost::json::object{{"matching", boost::json::array{"nvcc-O3"}},
                                          {"differing", boost::json::array{"clang-O3"}},
                                          {"differing_groups", boost::json::array{boost::json::array{"clang-O3"}}},
                                          {"differing_kernels", boost::json::array{"s7v1/kernel_0"}},
                                          {"first_difference", "output"},
                                          {"line_kind", "checksum"}};
  f.signature = triage::signature_of(f.finding);
  return f;
}

/// What the origins must be, by reading every finding of every bucket.
std::map<std::string, std::pair<std::set<std::string>, std::set<std::string>>> expected(const triage::Database& db) {
  std::map<std::string, std::string> kinds;
  for (const auto& c : db.campaigns()) kinds[c.id] = c.kind;
  std::map<std::string, std::pair<std::set<std::string>, std::set<std::string>>> origins;
  for (const auto& bucket : db.buckets()) {
    for (const auto& f : db.findings_of(bucket.key, 1000000)) {
      const auto engine = triage::engine_of(kinds.contains(f.campaign_id) ? kinds[f.campaign_id] : "", f.kind);
      if (!engine) continue;
      origins[bucket.key].first.insert(*engine);
      for (const auto& config : f.configs.as_array()) origins[bucket.key].second.emplace(config.as_string());
    }
  }
  return origins;
}

std::map<std::string, std::pair<std::set<std::string>, std::set<std::string>>> actual(const triage::Database& db) {
  std::map<std::string, std::pair<std::set<std::string>, std::set<std::string>>> origins;
  for (const auto& [key, origin] : db.bucket_origins()) {
    origins[key].first.insert(origin.engines.begin(), origin.engines.end());
    origins[key].second.insert(origin.configs.begin(), origin.configs.end());
    EXPECT_EQ(origin.engines.size(), origins[key].first.size()) << key << ": an engine twice";
    EXPECT_TRUE(std::ranges::is_sorted(origin.configs)) << key;
  }
  return origins;
}

/// Campaigns of every kind over 6 synthetic buckets (0 and 5 crashes, 1 a run mismatch, the
/// rest compile-status mismatches), config lists that are prefixes of one another, a
/// metamorphic bucket, a finding whose campaign row is missing, and a reduction.
void fill(triage::Database& db) {
  const auto fuzz = campaign("fuzz", "fuzz", 1000), guided = campaign("guided", "guided", 2000),
             baseline = campaign("baseline", "baseline", 3000), check = campaign("check", "check", 4000),
             reduce = campaign("reduce", "reduce", 5000);
  for (const auto& c : {fuzz, guided, baseline, check, reduce}) db.put_campaign(c);
  db.transaction([&] {
    for (int i = 0; i < 30; ++i) db.add_finding(finding(fuzz, i, 6, {}));
    db.add_finding(finding(guided, 2, 6, {"nvcc-O3"}));
    db.add_finding(finding(guided, 8, 6, {"nvcc-O3", "clang-O3"}));
    db.add_finding(finding(guided, 14, 6, {"nvcc-O3", "clang-O0"}));
    db.add_finding(finding(baseline, 3, 6, {}));
    db.add_finding(finding(check, 4, 6, {"nvcc-G", "clang-O3"}));
    for (int i = 0; i < 3; ++i) db.add_finding(metamorphic(fuzz, 100 + i));
    db.add_finding(finding(campaign("gone", "fuzz", 6000), 4, 6, {"clang-O3-rdc"}));  // no campaign row
  });
  triage::NewFinding reproducer = finding(reduce, 2, 6, {"clang-O3-old-driver"});
  reproducer.source = "// smaller\n";
  db.add_reproducer(reproducer);
}

} // namespace

TEST(TriageOrigins, EnginesAndConfigsOfEveryBucketFromItsFindings) {
  TempDir dir;
  auto db = triage::Database::open(dir.path() / "t.db");
  fill(db);
  const auto origins = db.bucket_origins();
  ASSERT_EQ(origins.size(), db.buckets().size());

  const auto of = [&](int synthetic_bucket) {
    const std::string key = triage::synthetic_finding("x", synthetic_bucket, 6, 0).signature.key;
    const auto found = origins.find(key);
    EXPECT_NE(found, origins.end()) << synthetic_bucket;
    return found == origins.end() ? triage::BucketOrigins{} : found->second;
  };
  // Bucket 2: the fuzz campaign, the guided one with three config lists, the reduction's
  // reproducer left out (its config too).
  EXPECT_EQ(of(2).engines, (std::vector<std::string>{"random", "guided"}));
  EXPECT_EQ(of(2).configs, (std::vector<std::string>{"clang-O0", "clang-O3", "nvcc-O3"}));
  // Bucket 3: fuzz and the guided engine's unguided baseline are both random generation.
  EXPECT_EQ(of(3).engines, (std::vector<std::string>{"random"}));
  // Bucket 4: a person's file, and a finding whose campaign row is not in the database.
  EXPECT_EQ(of(4).engines, (std::vector<std::string>{"random", "check", "unknown"}));
  EXPECT_EQ(of(4).configs, (std::vector<std::string>{"clang-O3", "clang-O3-rdc", "nvcc-G", "nvcc-O3"}));
  EXPECT_EQ(of(0).configs, (std::vector<std::string>{"clang-O3"}));

  const std::string metamorphic_key = metamorphic(campaign("x", "fuzz", 0), 0).signature.key;
  ASSERT_TRUE(origins.contains(metamorphic_key));
  EXPECT_EQ(origins.at(metamorphic_key).engines, (std::vector<std::string>{"metamorphic"}));
  EXPECT_EQ(db.bucket(metamorphic_key).kind, "metamorphic");
  EXPECT_EQ(triage::class_of_kind(db.bucket(metamorphic_key).kind), triage::FindingClass::wrong_code);

  EXPECT_EQ(actual(db), expected(db));
}

TEST(TriageOrigins, OlderDatabaseReadOnlyGivesTheSameAndTheUpgradeAddsTheIndex) {
  TempDir dir;
  const auto path = dir.path() / "v4.db";
  {
    auto old = triage::Database::open(path, triage::OpenOptions{.upgrade_to = 4});
    ASSERT_EQ(old.version(), 4);
    fill(old);
  }
  const auto index_exists = [&] {
    sqlite3* raw = nullptr;
    EXPECT_EQ(sqlite3_open_v2(path.c_str(), &raw, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    sqlite3_stmt* query = nullptr;
    sqlite3_prepare_v2(raw, "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'findings_origin'", -1,
                       &query, nullptr);
    const bool found = sqlite3_step(query) == SQLITE_ROW && sqlite3_column_int(query, 0) == 1;
    sqlite3_finalize(query);
    sqlite3_close(raw);
    return found;
  };
  std::map<std::string, std::pair<std::set<std::string>, std::set<std::string>>> before;
  {
    auto read_only = triage::Database::open(path, triage::OpenOptions{.create = false, .read_only = true});
    ASSERT_EQ(read_only.version(), 4);
    EXPECT_FALSE(index_exists());
    before = actual(read_only);
    EXPECT_EQ(before, expected(read_only));
  }
  auto upgraded = triage::Database::open(path);
  EXPECT_EQ(upgraded.version(), triage::schema_version);
  EXPECT_TRUE(index_exists());
  EXPECT_EQ(actual(upgraded), before);
  EXPECT_EQ(upgraded.integrity_check(), "ok");
}

TEST(TriageOrigins, ManyCampaignsAndConfigListsPerBucketAreAllSeen) {
  TempDir dir;
  auto db = triage::Database::open(dir.path() / "t.db");
  const std::vector<std::vector<std::string>> lists = {
      {"nvcc-O3"}, {"nvcc-O3", "clang-O3"}, {"clang-O3"}, {"nvcc-O3-jit", "clang-O0"}, {}};
  const std::vector<std::string> kinds = {"fuzz", "guided", "check", "baseline", "reduce", "synthetic"};
  db.transaction([&] {
    for (int c = 0; c < 24; ++c) {
      const auto run = campaign("c" + std::to_string(c), kinds[static_cast<std::size_t>(c) % kinds.size()], 100.0 * c);
      db.put_campaign(run);
      for (int i = 0; i < 40; ++i)
        db.add_finding(finding(run, i + c, 9, lists[static_cast<std::size_t>(i * 7 + c) % lists.size()]));
    }
  });
  EXPECT_EQ(actual(db), expected(db));
  for (const auto& [key, origin] : db.bucket_origins())
    EXPECT_EQ(origin.engines, (std::vector<std::string>{"random", "guided", "check", "synthetic"})) << key;
}
