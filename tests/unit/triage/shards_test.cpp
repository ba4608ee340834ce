// triage: the shards of one campaign (one campaign id, disjoint tests) merge into one
// campaign, and a database leaves node-local scratch as a one-file snapshot without a WAL.
#include "support/test_support.h"
#include "triage/triage.h"

#include <gtest/gtest.h>

#include <fstream>

using namespace cudiff;

namespace {

triage::Campaign shard_campaign(const std::string& host, double started, double ended, std::int64_t tests) {
  triage::Campaign c;
  c.id = triage::content_key("one campaign");
  c.kind = "fuzz";
  c.host = host;
  c.started = started;
  c.ended = ended;
  c.tests = tests;
  return c;
}

/// A shard's database: its campaign row, tests for `seeds`, findings `first` ... of the
/// synthetic stream (spread over 5 buckets).
void write_shard(const std::filesystem::path& path, const triage::Campaign& campaign, std::vector<int> seeds, int first,
                 int findings) {
  auto db = triage::Database::open(path);
  db.transaction([&] {
    db.put_campaign(campaign);
    for (int seed : seeds) {
      const std::string text = std::to_string(seed);
      db.add_test(triage::Test{triage::content_key(campaign.id + "/" + text),
                               campaign.id,
                               "cudiff_" + text,
                               text,
                               "p",
                               {"nvcc-O3"},
                               "agree",
                               campaign.started,
                               1});
    }
    for (int i = first; i < first + findings; ++i)
      db.add_finding(triage::synthetic_finding(campaign.id, i, 5, campaign.started + i));
  });
}

/// Bytes 18 and 19 of an SQLite file: 1 for rollback journaling, 2 for WAL.
int file_format(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  char header[20] = {};
  in.read(header, sizeof header);
  return header[18] == header[19] ? header[18] : -1;
}

} // namespace

TEST(TriageShards, ShardsOfOneCampaignMergeIntoOneCampaign) {
  TempDir dir;
  write_shard(dir.path() / "0.db", shard_campaign("node1", 1000, 2000, 3), {1, 2, 3}, 0, 12);
  write_shard(dir.path() / "1.db", shard_campaign("node2", 900, 2500, 2), {4, 5}, 12, 8);
  auto out = triage::Database::open(dir.path() / "merged.db");
  const auto first = out.merge_from(dir.path() / "0.db");
  EXPECT_EQ(first.campaigns_added, 1);
  EXPECT_EQ(first.campaigns_joined, 0);
  const auto second = out.merge_from(dir.path() / "1.db");
  EXPECT_EQ(second.campaigns_added, 0);
  EXPECT_EQ(second.campaigns_joined, 1);
  EXPECT_EQ(second.tests_added, 2);
  EXPECT_EQ(second.tests_present, 0);  // disjoint shards share no test
  EXPECT_EQ(second.findings_added, 8);

  const auto campaigns = out.campaigns();
  ASSERT_EQ(campaigns.size(), 1u);
  EXPECT_EQ(campaigns[0].host, "node1, node2");
  EXPECT_EQ(campaigns[0].started, 900);
  EXPECT_EQ(campaigns[0].ended, 2500);
  EXPECT_EQ(campaigns[0].tests, 5);
  EXPECT_EQ(campaigns[0].findings, 20);
  EXPECT_EQ(out.tested_seeds(campaigns[0].id).size(), 5u);
  std::int64_t counted = 0;
  for (const auto& bucket : out.buckets()) counted += bucket.count;
  EXPECT_EQ(counted, 20);
  EXPECT_EQ(out.buckets().size(), 5u);

  // The same shard again: every test is there already, and nothing changes.
  const auto again = out.merge_from(dir.path() / "1.db");
  EXPECT_EQ(again.tests_present, 2);
  EXPECT_EQ(again.findings_added, 0);
  EXPECT_EQ(out.campaigns()[0].host, "node1, node2");
  EXPECT_EQ(out.campaigns()[0].tests, 5);
  EXPECT_EQ(out.integrity_check(), "ok");
}

TEST(TriageShards, AnUnfinishedShardLeavesTheCampaignUnfinished) {
  TempDir dir;
  write_shard(dir.path() / "0.db", shard_campaign("node1", 1000, 2000, 1), {1}, 0, 1);
  write_shard(dir.path() / "1.db", shard_campaign("node1", 1000, 0, 1), {2}, 1, 1);  // cancelled
  auto out = triage::Database::open(dir.path() / "merged.db");
  out.merge_from(dir.path() / "0.db");
  out.merge_from(dir.path() / "1.db");
  EXPECT_EQ(out.campaigns().at(0).ended, 0);
  EXPECT_EQ(out.campaigns().at(0).host, "node1");
}

TEST(TriageShards, OverlappingShardsShowAsTestsAlreadyPresent) {
  TempDir dir;
  write_shard(dir.path() / "0.db", shard_campaign("node1", 1000, 2000, 3), {1, 2, 3}, 0, 1);
  write_shard(dir.path() / "1.db", shard_campaign("node2", 1000, 2000, 3), {3, 4, 5}, 1, 1);
  auto out = triage::Database::open(dir.path() / "merged.db");
  out.merge_from(dir.path() / "0.db");
  const auto second = out.merge_from(dir.path() / "1.db");
  EXPECT_EQ(second.tests_present, 1);  // seed 3, tested by both
  EXPECT_EQ(out.campaigns().at(0).tests, 5);
}

TEST(TriageShards, SnapshotIsOneFileWithoutWalHoldingEveryCommit) {
  TempDir dir;
  auto db = triage::Database::open(dir.path() / "live.db");
  db.put_campaign(shard_campaign("n", 1, 2, 3));
  db.transaction([&] {
    for (int i = 0; i < 30; ++i) db.add_finding(triage::synthetic_finding(db.campaigns()[0].id, i, 5, 10 + i));
  });
  // The commits are still in the write-ahead log: a plain copy of live.db would miss them.
  ASSERT_TRUE(std::filesystem::exists(dir.path() / "live.db-wal"));
  ASSERT_GT(std::filesystem::file_size(dir.path() / "live.db-wal"), 0u);

  std::filesystem::create_directories(dir.path() / "shared");
  const auto copy = dir.path() / "shared" / "shard-0.db";
  db.snapshot_to(copy);
  EXPECT_EQ(file_format(copy), 1) << "the snapshot must not be in WAL mode";
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path() / "shared"))
    names.push_back(entry.path().filename().string());
  EXPECT_EQ(names, std::vector<std::string>{"shard-0.db"});  // no -wal, -shm or part file
  {
    const auto read = triage::Database::open(copy, triage::OpenOptions{.create = false, .read_only = true});
    EXPECT_EQ(read.totals().findings, 30);
    EXPECT_EQ(read.integrity_check(), "ok");
  }
  EXPECT_EQ(file_format(copy), 1);  // reading it did not switch it to WAL

  // Taken again later, it replaces the old copy.
  db.transaction([&] { db.add_finding(triage::synthetic_finding(db.campaigns()[0].id, 30, 5, 50)); });
  db.snapshot_to(copy);
  EXPECT_EQ(triage::Database::open(copy, triage::OpenOptions{.create = false, .read_only = true}).totals().findings,
            31);
}

TEST(TriageShards, SnapshotToADirectoryOrAMissingDirectoryIsAClearError) {
  TempDir dir;
  auto db = triage::Database::open(dir.path() / "live.db");
  try {
    db.snapshot_to(dir.path());
    ADD_FAILURE() << "a directory was accepted";
  } catch (const Error& error) {
    EXPECT_TRUE(test::contains(error.what(), "is a directory")) << error.what();
  }
  try {
    db.snapshot_to(dir.path() / "no" / "such" / "x.db");
    ADD_FAILURE() << "a missing directory was accepted";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::environment);
    EXPECT_TRUE(test::contains(error.what(), "cannot write the snapshot")) << error.what();
  }
  try {
    db.snapshot_to(dir.path() / "live.db");
    ADD_FAILURE() << "a snapshot onto itself was accepted";
  } catch (const Error& error) {
    EXPECT_TRUE(test::contains(error.what(), "onto itself")) << error.what();
  }
}

TEST(TriageShards, ADatabaseOnLocalDiskIsInWalModeAndItsSnapshotIsNot) {
  TempDir dir;
  EXPECT_FALSE(triage::on_network_filesystem(dir.path() / "live.db")) << dir.path();
  auto db = triage::Database::open(dir.path() / "live.db");
  EXPECT_EQ(db.journal_mode(), "wal");
  db.snapshot_to(dir.path() / "copy.db");
  EXPECT_EQ(triage::Database::open(dir.path() / "copy.db", triage::OpenOptions{.create = false, .read_only = true})
                .journal_mode(),
            "delete");
}
