// End-to-end: `cudiff check --db` and `cudiff triage` as black boxes — buckets from two real
// files, merges, bad databases, kill -9 during writes, two writers, schema versions, the list
// grouped by class, and the HTML report rendered by headless Chromium.
#include "support/test_support.h"
#include "triage/triage.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <fstream>
#include <set>
#include <thread>

using cudiff::read_file;
using cudiff::TempDir;
using cudiff::write_file;
using cudiff::test::contains;
using cudiff::test::count_lines;
using cudiff::test::data;
using cudiff::test::run_cudiff;
using cudiff::test::source_dir;

namespace {

boost::json::array list_json(const std::filesystem::path& db) {
  auto result = run_cudiff({"triage", "list", "--json", "--db", db.string()});
  EXPECT_EQ(result.exit_code, 0) << result.err.text;
  return boost::json::parse(result.out.text).as_array();
}

std::map<std::string, std::int64_t> counts(const std::filesystem::path& db) {
  std::map<std::string, std::int64_t> by_key;
  for (const auto& bucket : list_json(db))
    by_key[std::string(bucket.at("key").as_string())] = bucket.at("count").as_int64();
  return by_key;
}

void synthetic(const std::filesystem::path& db, int count, int buckets) {
  auto result = run_cudiff({"triage", "synthetic", std::to_string(count), "--buckets", std::to_string(buckets),
                            "--batch", "50", "--db", db.string()});
  ASSERT_EQ(result.exit_code, 0) << result.err.text;
}

} // namespace

TEST(TriageE2E, CheckDbOnTwoFilesWithTheSameDiscrepancyGivesOneBucketCountedTwice) {
  TempDir dir;
  const auto db = dir.path() / "t.db";
  const auto known = dir.path() / "known.json";
  write_file(known, read_file(source_dir() / "triage" / "known_differences.json"));
  // Two different files (other names, variables, lines), checked at once: two writers too.
  cudiff::runners::SubprocessResult first, second;
  std::thread a([&] {
    first = run_cudiff({"check", (source_dir() / "examples" / "managed_counter.cu").string(), "--mode", "syntax",
                        "--db", db.string()});
  });
  std::thread b([&] {
    second = run_cudiff({"check", data("golden/signatures/managed_renamed.cu").string(), "--mode", "syntax", "--db",
                         db.string(), "--known", known.string(), "--json"});
  });
  a.join();
  b.join();
  EXPECT_EQ(first.exit_code, 1) << first.out.text << first.err.text;
  EXPECT_TRUE(contains(first.out.text, "note: triage: ")) << first.out.text;
  // A known difference is still a discrepancy: labelled, exit 1.
  EXPECT_EQ(second.exit_code, 1) << second.out.text << second.err.text;
  const auto json = boost::json::parse(second.out.text);
  const auto& finding = json.at("verdict").at("findings").at(0);
  EXPECT_TRUE(finding.at("details").at("triage").at("known").as_bool());
  EXPECT_TRUE(contains(std::string(finding.at("summary").as_string()), "[known difference]"));

  const auto buckets = list_json(db);
  ASSERT_EQ(buckets.size(), 1u) << boost::json::serialize(buckets);
  EXPECT_EQ(buckets[0].at("count").as_int64(), 2);
  EXPECT_EQ(buckets[0].at("status").as_string(), "known");
  EXPECT_EQ(buckets[0].at("kind").as_string(), "compile_status_mismatch");

  auto exported = run_cudiff({"triage", "export", "1", (dir.path() / "bug").string(), "--db", db.string()});
  ASSERT_EQ(exported.exit_code, 0) << exported.err.text;
  const std::string md = read_file(dir.path() / "bug" / "report.md");
  EXPECT_TRUE(contains(md, "/usr/local/cuda/bin/nvcc") || contains(md, "nvcc")) << md;
  EXPECT_TRUE(contains(md, "reference to __host__ variable")) << md;
  EXPECT_TRUE(contains(md, "## Expected vs observed")) << md;
}

TEST(TriageE2E, MergeKeepsEachBucketOnceWithSummedCountsAndTwiceChangesNothing) {
  TempDir dir;
  synthetic(dir.path() / "a.db", 300, 20);
  synthetic(dir.path() / "b.db", 100, 20);
  const auto out = dir.path() / "out.db";
  auto merged = run_cudiff(
      {"triage", "merge", out.string(), (dir.path() / "a.db").string(), (dir.path() / "b.db").string()});
  ASSERT_EQ(merged.exit_code, 0) << merged.err.text;
  const auto once = counts(out);
  ASSERT_EQ(once.size(), 20u);
  for (const auto& [key, count] : once) EXPECT_EQ(count, 15 + 5) << key;
  auto again = run_cudiff(
      {"triage", "merge", out.string(), (dir.path() / "a.db").string(), (dir.path() / "b.db").string()});
  ASSERT_EQ(again.exit_code, 0) << again.err.text;
  EXPECT_TRUE(contains(again.out.text, "0 findings, 0 new buckets")) << again.out.text;
  EXPECT_EQ(counts(out), once);
}

TEST(TriageE2E, CorruptOrForeignDatabaseIsOneLineExit2AndUntouched) {
  TempDir dir;
  const auto text = dir.path() / "notes.db";
  write_file(text, "not a database at all\n");
  const auto broken = dir.path() / "broken.db";
  write_file(broken, std::string("SQLite format 3\0", 16) + std::string(8192, '\x7f'));
  for (const auto& path : {text, broken}) {
    const std::string before = read_file(path);
    for (const auto& args :
         std::vector<std::vector<std::string>>{{"triage", "list", "--db", path.string()},
                                               {"triage", "merge", (dir.path() / "out.db").string(), path.string()},
                                               {"triage", "synthetic", "5", "--db", path.string()}}) {
      auto result = run_cudiff(args);
      EXPECT_EQ(result.exit_code, 2) << args[1] << " " << path;
      EXPECT_EQ(count_lines(result.err.text), 1u) << result.err.text;
      EXPECT_TRUE(contains(result.err.text, path.string())) << result.err.text;
      EXPECT_EQ(read_file(path), before) << args[1];
    }
  }
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "out.db"));  // shards are checked first
  auto missing = run_cudiff({"triage", "list", "--db", (dir.path() / "nothing.db").string()});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_TRUE(contains(missing.err.text, "no such database")) << missing.err.text;
}

TEST(TriageE2E, KillDashNineDuringWritesLosesNothingCommitted) {
  TempDir dir;
  const auto db = dir.path() / "t.db";
  cudiff::runners::Command writer;
  writer.argv = {cudiff::test::cudiff_binary().string(),
                 "triage",
                 "synthetic",
                 "100000000",
                 "--buckets",
                 "50",
                 "--batch",
                 "7",
                 "--db",
                 db.string()};
  writer.limits.wall_seconds = 1.5;  // then the whole group gets SIGKILL, mid-write
  const auto result = cudiff::runners::run_subprocess(writer);
  ASSERT_TRUE(result.timed_out) << result.status_text();
  std::vector<std::string> committed;
  for (const auto& line : cudiff::split_lines(result.out.text))
    if (line.starts_with("committed ")) committed.push_back(line.substr(10));
  ASSERT_GT(committed.size(), 20u) << "the writer committed too little to test anything";
  ASSERT_FALSE(result.out.truncated);

  auto opened = cudiff::triage::Database::open(db);
  EXPECT_EQ(opened.integrity_check(), "ok");
  for (const auto& id : committed) ASSERT_TRUE(opened.finding(id).has_value()) << id;
  std::int64_t sum = 0;
  for (const auto& bucket : opened.buckets()) sum += bucket.count;
  const auto totals = opened.totals();
  EXPECT_EQ(sum, totals.findings);  // counts and findings were committed together
  EXPECT_GE(totals.findings, static_cast<std::int64_t>(committed.size()));
}

TEST(TriageE2E, TwoProcessesWritingOneDatabaseBothSucceed) {
  TempDir dir;
  const auto db = dir.path() / "t.db";
  cudiff::runners::SubprocessResult one, two;
  auto write = [&](cudiff::runners::SubprocessResult& into) {
    into = run_cudiff({"triage", "synthetic", "400", "--buckets", "10", "--batch", "1", "--db", db.string()}, 120);
  };
  std::thread a(write, std::ref(one)), b(write, std::ref(two));
  a.join();
  b.join();
  EXPECT_EQ(one.exit_code, 0) << one.err.text;
  EXPECT_EQ(two.exit_code, 0) << two.err.text;
  auto opened = cudiff::triage::Database::open(db);
  EXPECT_EQ(opened.totals().findings, 800);
  EXPECT_EQ(opened.totals().campaigns, 2);
  EXPECT_EQ(opened.buckets().size(), 10u);  // the same symptoms: the same buckets
  EXPECT_EQ(opened.integrity_check(), "ok");
}

TEST(TriageE2E, NewerSchemaIsRefusedAndOlderIsUpgradedInPlace) {
  TempDir dir;
  const auto newer = dir.path() / "newer.db";
  synthetic(newer, 5, 5);
  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open(newer.c_str(), &raw), SQLITE_OK);
  sqlite3_exec(raw, "PRAGMA user_version = 99", nullptr, nullptr, nullptr);
  sqlite3_close(raw);
  auto refused = run_cudiff({"triage", "list", "--db", newer.string()});
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_EQ(count_lines(refused.err.text), 1u);
  EXPECT_TRUE(contains(refused.err.text, "schema version 99, newer than this cudiff understands")) << refused.err.text;

  const auto older = dir.path() / "older.db";
  cudiff::triage::Database::open(older, cudiff::triage::OpenOptions{.upgrade_to = 1});
  auto upgraded = run_cudiff({"triage", "synthetic", "5", "--db", older.string()});
  EXPECT_EQ(upgraded.exit_code, 0) << upgraded.err.text;
  EXPECT_EQ(cudiff::triage::Database::open(older, {.read_only = true}).version(), cudiff::triage::schema_version);
}

TEST(TriageE2E, MarkNoteAndShowRoundTrip) {
  TempDir dir;
  const auto db = dir.path() / "t.db";
  synthetic(db, 20, 4);
  EXPECT_EQ(run_cudiff({"triage", "mark", "2", "reported", "--db", db.string()}).exit_code, 0);
  EXPECT_EQ(run_cudiff({"triage", "note", "2", "filed", "upstream", "--db", db.string()}).exit_code, 0);
  auto shown = run_cudiff({"triage", "show", "2", "--db", db.string()});
  EXPECT_TRUE(contains(shown.out.text, "status:  reported")) << shown.out.text;
  EXPECT_TRUE(contains(shown.out.text, "filed upstream")) << shown.out.text;
  auto listed = run_cudiff({"triage", "list", "--status", "reported", "--db", db.string()});
  EXPECT_TRUE(contains(listed.out.text, "1 of 4 buckets")) << listed.out.text;
  auto bad = run_cudiff({"triage", "mark", "2", "done", "--db", db.string()});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_TRUE(contains(bad.err.text, "unknown status 'done'")) << bad.err.text;
}

TEST(TriageE2E, ListGroupsBucketsByClassWithStageEnginesAndConfigs) {
  TempDir dir;
  const auto db = dir.path() / "t.db";
  synthetic(db, 100, 10);  // 10 buckets: 2 crashes, 2 run mismatches, 6 compile-status mismatches
  auto text = run_cudiff({"triage", "list", "--db", db.string()});
  ASSERT_EQ(text.exit_code, 0) << text.err.text;
  const std::string& out = text.out.text;
  const std::vector<std::string> headings = {"wrong code: 2 buckets, 20 findings\n",
                                             "crash: 2 buckets, 20 findings\n",
                                             "rejects valid: 6 buckets, 60 findings\n",
                                             "missed diagnostic: 0 buckets, 0 findings\n",
                                             "dialect difference: 0 buckets, 0 findings\n",
                                             "invalid tests: 0 tests rejected by the sanitizer gate, not filed\n"};
  std::size_t at = 0;
  for (const auto& heading : headings) {
    const auto found = out.find(heading, at);
    ASSERT_NE(found, std::string::npos) << "missing or out of order: " << heading << out;
    at = found;
  }
  EXPECT_TRUE(contains(out, "engines")) << out;
  EXPECT_TRUE(contains(out, "  synthetic  clang-O3,nvcc-O3  ")) << out;
  EXPECT_TRUE(contains(out, "10 of 10 buckets; 100 findings")) << out;

  // The flat array stays what scripts parse, in the text's order, each bucket with its class,
  // stage, engines and configs besides every field it had.
  const auto buckets = list_json(db);
  ASSERT_EQ(buckets.size(), 10u);
  EXPECT_EQ(buckets[0].at("class").as_string(), "wrong code");
  EXPECT_EQ(buckets[9].at("class").as_string(), "rejects valid");
  for (const auto& bucket : buckets) {
    for (const char* field : {"id", "key", "title", "kind", "side", "stage", "status", "known_reason", "count",
                              "first_seen", "last_seen", "best_finding", "best_size", "symptom"})
      EXPECT_TRUE(bucket.as_object().contains(field)) << field;
    EXPECT_EQ(bucket.at("engines"), (boost::json::array{"synthetic"})) << bucket;
    EXPECT_FALSE(bucket.at("configs").as_array().empty()) << bucket;
  }

  auto crashes = run_cudiff({"triage", "list", "--class", "crash", "--json", "--db", db.string()});
  ASSERT_EQ(crashes.exit_code, 0) << crashes.err.text;
  const auto crash_list = boost::json::parse(crashes.out.text).as_array();
  ASSERT_EQ(crash_list.size(), 2u);
  for (const auto& bucket : crash_list) {
    EXPECT_EQ(bucket.at("kind").as_string(), "crash");
    EXPECT_EQ(bucket.at("configs"), (boost::json::array{"clang-O3"}));
  }
  auto crash_text = run_cudiff({"triage", "list", "--class", "crash", "--db", db.string()});
  EXPECT_FALSE(contains(crash_text.out.text, "wrong code:")) << crash_text.out.text;
  EXPECT_FALSE(contains(crash_text.out.text, "invalid tests:")) << crash_text.out.text;
  EXPECT_TRUE(contains(crash_text.out.text, "2 of 10 buckets")) << crash_text.out.text;

  auto grouped = run_cudiff({"triage", "list", "--json", "--by-class", "--db", db.string()});
  ASSERT_EQ(grouped.exit_code, 0) << grouped.err.text;
  const auto listed = boost::json::parse(grouped.out.text);
  const auto classes = listed.at("classes").as_array();
  ASSERT_EQ(classes.size(), 7u);
  EXPECT_EQ(classes[2].at("class").as_string(), "rejects valid");
  EXPECT_EQ(classes[2].at("bucket_count").as_int64(), 6);
  EXPECT_EQ(classes[2].at("finding_count").as_int64(), 60);
  EXPECT_EQ(classes[2].at("buckets").as_array().size(), 6u);
  EXPECT_EQ(classes[6].at("invalid_tests").as_int64(), 0);
  // The list leads with the bugs: every bucket new, none known, none dialect.
  EXPECT_EQ(listed.at("bugs").at("new_bugs").as_int64(), 10);
  EXPECT_EQ(listed.at("bugs").at("known_or_reported").as_int64(), 0);
  auto all_text = run_cudiff({"triage", "list", "--db", db.string()});
  EXPECT_TRUE(all_text.out.text.starts_with("10 new bugs (")) << all_text.out.text;

  auto bad = run_cudiff({"triage", "list", "--class", "bugs", "--db", db.string()});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_TRUE(contains(bad.err.text, "unknown class 'bugs'")) << bad.err.text;
}

/// The report in a real browser: headless Chromium renders it to a PNG that must show
/// something (a blank 1280x1600 page compresses to a few KiB; plots and tables do not).
TEST(TriageE2E, HtmlReportRendersInHeadlessChromium) {
  const auto chromium = cudiff::find_on_path("chromium");
  if (!chromium) GTEST_SKIP() << "chromium not installed (apt-get install chromium; scripts/setup.sh does)";
  TempDir dir;
  const auto db = dir.path() / "t.db";
  synthetic(db, 600, 25);
  const auto html = dir.path() / "report.html";
  auto report = run_cudiff({"triage", "report", "--html", html.string(), "--db", db.string()});
  ASSERT_EQ(report.exit_code, 0) << report.err.text;
  const auto png = dir.path() / "report.png";
  cudiff::runners::Command browser;
  browser.argv = {chromium->string(),
                  "--headless",
                  "--no-sandbox",
                  "--disable-gpu",
                  "--disable-quic",
                  "--no-first-run",
                  "--disable-background-networking",
                  "--disable-component-update",
                  "--disable-sync",
                  "--user-data-dir=" + (dir.path() / "profile").string(),
                  "--screenshot=" + png.string(),
                  "--window-size=1280,1600",
                  "file://" + html.string()};
  browser.limits.wall_seconds = 60;
  const auto shot = cudiff::runners::run_subprocess(browser);
  ASSERT_TRUE(std::filesystem::exists(png)) << shot.status_text() << shot.err.text;
  const std::string bytes = read_file(png);
  ASSERT_TRUE(bytes.starts_with("\x89PNG\r\n\x1a\n"));
  EXPECT_GT(bytes.size(), 40000u) << "the screenshot looks blank";
}
