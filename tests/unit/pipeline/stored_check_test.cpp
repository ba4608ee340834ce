// How a stored finding is checked again (pipeline/bucket_parts.h): under the limits recorded
// with it, and looking for its signature's key when its bucket was split by cause.
#include "pipeline/bucket_parts.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

using namespace cudiff;

namespace {

triage::Campaign campaign(const std::string& name, const std::string& kind) {
  triage::Campaign c;
  c.id = triage::content_key(name);
  c.kind = kind;
  c.started = 1000;
  c.ended = 2000;
  return c;
}

triage::NewFinding finding(const triage::Campaign& c, int index) {
  triage::NewFinding f = triage::synthetic_finding(c.id, 0, 1, 1000 + index);
  f.id = triage::content_key(c.id + std::to_string(index));
  f.source += std::string(static_cast<std::size_t>(index), ' ');
  return f;
}

TEST(StoredCheck, UsesTheLimitsRecordedWithTheFindingElseAPersonsFiles) {
  TempDir dir;
  triage::Database db = triage::Database::open(dir.path() / "t.db");
  const auto fuzz = campaign("fuzz", "fuzz");
  db.put_campaign(fuzz);
  triage::NewFinding recorded = finding(fuzz, 0), older = finding(fuzz, 1);
  recorded.outputs["limits"] = boost::json::object{{"compile_seconds", 120.0},
                                                   {"run_seconds", 30.0},
                                                   {"hang_confirmation_factor", 3.0}};
  db.add_finding(recorded);
  db.add_finding(older);
  const triage::Bucket bucket = db.bucket(recorded.signature.key);
  const pipeline::CheckRequest with = pipeline::stored_check_request(db, bucket, *db.finding(recorded.id));
  EXPECT_DOUBLE_EQ(with.compile_limits.wall_seconds, 120);
  EXPECT_DOUBLE_EQ(with.run_limits.wall_seconds, 30);
  const pipeline::CheckRequest without = pipeline::stored_check_request(db, bucket, *db.finding(older.id));
  EXPECT_DOUBLE_EQ(without.compile_limits.wall_seconds, pipeline::kFileCompileSeconds);
  EXPECT_DOUBLE_EQ(without.run_limits.wall_seconds, pipeline::kRunSeconds);
}

TEST(StoredCheck, ABucketSplitByCauseLooksForItsSignaturesKey) {
  TempDir dir;
  triage::Database db = triage::Database::open(dir.path() / "t.db");
  const auto fuzz = campaign("fuzz", "fuzz"), reductions = campaign("reduce", "reduce");
  db.put_campaign(fuzz);
  db.put_campaign(reductions);
  std::vector<triage::NewFinding> found = {finding(fuzz, 0), finding(fuzz, 1), finding(fuzz, 2)};
  for (const auto& f : found) db.add_finding(f);
  const std::string base = found[0].signature.key;
  for (int i = 0; i < 2; ++i) {
    triage::NewFinding reduced = found[static_cast<std::size_t>(i)];
    reduced.id = triage::content_key("reduced" + std::to_string(i));
    reduced.campaign_id = reductions.id;
    reduced.source = "// reduced\n";
    db.transaction([&] {
      db.add_reproducer(reduced);
      db.add_cause(reduced.id, found[static_cast<std::size_t>(i)].id,
                   triage::make_cause("ptx", i == 0 ? "add.u16x2" : "sub.u16x2"));
    });
  }
  ASSERT_EQ(db.buckets().size(), 3u);
  for (const triage::Bucket& bucket : db.buckets()) EXPECT_EQ(pipeline::signature_key(db, bucket), base);
}

} // namespace
