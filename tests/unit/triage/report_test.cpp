// triage reports: the HTML page is self-contained (inline CSS and SVG, no scripts, nothing
// fetched) and has its sections, one per class with its buckets; the Markdown bug report has
// what a compiler team needs.
#include "support/test_support.h"
#include "triage/triage.h"

#include <gtest/gtest.h>

using namespace cudiff;
using cudiff::test::contains;

namespace {

void fill(triage::Database& db, const std::string& name, double started, int count) {
  triage::Campaign c;
  c.id = triage::content_key(name);
  c.kind = "synthetic";
  c.host = "test-host";
  c.started = started;
  c.ended = started + 100;
  c.tests = count;
  c.gpus = name == "gpu" ? "0: NVIDIA H100 (sm_90)" : "";
  db.put_campaign(c);
  db.transaction([&] {
    for (int i = 0; i < count; ++i)
      db.add_finding(triage::synthetic_finding(c.id, i, name == "gpu" ? 12 : 10, started + i));
  });
}

/// The part of the page from the heading of one class to the next heading.
std::string class_section(const std::string& html, const std::string& anchor) {
  const auto start = html.find("<h3 id='class-" + anchor + "'>");
  if (start == std::string::npos) return {};
  const auto end = html.find("<h", start + 4);
  return html.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

} // namespace

TEST(TriageReport, HtmlIsOneOfflinePageWithSummaryPlotsClassesAndNewBuckets) {
  TempDir dir;
  auto db = triage::Database::open(dir.path() / "t.db");
  fill(db, "compile", 1.7e9, 60);
  fill(db, "gpu", 1.7e9 + 1000, 40);
  const std::string html = triage::render_html_report(db, 1.7e9 + 2000);
  EXPECT_TRUE(html.starts_with("<!DOCTYPE html>"));
  EXPECT_FALSE(contains(html, "<script"));
  EXPECT_FALSE(contains(html, "src="));
  EXPECT_FALSE(contains(html, "<link"));
  EXPECT_FALSE(contains(html, "https://"));
  EXPECT_TRUE(contains(html, "<style>"));
  EXPECT_TRUE(contains(html, "<polyline"));  // findings over time
  EXPECT_TRUE(contains(html, "<rect"));
  EXPECT_TRUE(contains(html, "tests/s"));
  EXPECT_TRUE(contains(html, "compile only"));
  EXPECT_TRUE(contains(html, "GPU: 0: NVIDIA H100"));
  EXPECT_TRUE(contains(html, "Buckets by class"));
  EXPECT_TRUE(contains(html, "Findings over time, per class"));
  EXPECT_TRUE(contains(html, "Cumulative findings per class over time"));
  EXPECT_TRUE(contains(html, "New since the previous campaign"));
  // Buckets 10 (a crash, "k") and 11 (a run mismatch, "l") exist only in the second
  // campaign: they, and only they, are new since the previous one.
  const auto section = html.substr(html.find("New since the previous campaign"));
  EXPECT_TRUE(contains(section, "synthetic_k")) << section.substr(0, 2000);
  EXPECT_TRUE(contains(section, "synthetic l")) << section.substr(0, 2000);
  EXPECT_FALSE(contains(section, "synthetic error c")) << section.substr(0, 2000);
}

TEST(TriageReport, HtmlHasASectionPerClassWithItsBucketsAndTheInvalidTestsByCause) {
  TempDir dir;
  auto db = triage::Database::open(dir.path() / "t.db");
  // 50 synthetic buckets, 5 findings each: 10 crashes, 10 run mismatches, 30 compile-status
  // mismatches.
  triage::Campaign c;
  c.id = triage::content_key("classes");
  c.kind = "synthetic";
  c.started = 1.7e9;
  db.put_campaign(c);
  db.transaction([&] {
    for (int i = 0; i < 250; ++i) db.add_finding(triage::synthetic_finding(c.id, i, 50, c.started + i));
  });
  triage::InvalidTest invalid;
  invalid.id = "i1";
  invalid.campaign_id = c.id;
  invalid.time = 1.7e9 + 20;
  invalid.name = "cudiff_3";
  invalid.tool = "memcheck";
  invalid.cause = "stack overflow";
  db.add_invalid_test(invalid);
  const std::string html = triage::render_html_report(db, 1.7e9 + 2000);

  const std::string wrong = class_section(html, "wrong-code");
  EXPECT_TRUE(contains(wrong, "10 buckets, 50 findings")) << wrong.substr(0, 300);
  EXPECT_TRUE(contains(wrong, "synthetic l")) << "a run mismatch";
  EXPECT_FALSE(contains(wrong, "synthetic error c"));
  EXPECT_TRUE(contains(wrong, "<td>synthetic</td>")) << "the engine";
  EXPECT_TRUE(contains(wrong, "<td>clang-O3, nvcc-O3</td>")) << "the configs";
  EXPECT_TRUE(contains(wrong, "<td>unknown</td>")) << "the stage";
  const std::string crash = class_section(html, "crash");
  EXPECT_TRUE(contains(crash, "synthetic_k")) << crash.substr(0, 300);
  EXPECT_FALSE(contains(crash, "synthetic l"));
  const std::string rejects = class_section(html, "rejects-valid");
  EXPECT_TRUE(contains(rejects, "30 buckets, 150 findings")) << rejects.substr(0, 300);
  EXPECT_TRUE(contains(rejects, "clang rejects, nvcc accepts: synthetic error"));
  EXPECT_TRUE(contains(html, "5 less frequent buckets not shown: <code>cudiff triage list --class rejects-valid"));
  EXPECT_TRUE(contains(class_section(html, "missed-diagnostic"), "0 buckets, 0 findings"));
  EXPECT_TRUE(contains(class_section(html, "dialect-difference"), "0 buckets, 0 findings"));
  const std::string invalid_tests = class_section(html, "invalid-tests");
  EXPECT_TRUE(contains(invalid_tests, "1 tests rejected by the sanitizer gate")) << invalid_tests;
  EXPECT_TRUE(contains(html, "<td>stack overflow</td><td class='n'>1</td>"));
  EXPECT_TRUE(contains(html, "invalid tests (1)")) << "the plot's legend";
}

TEST(TriageReport, EmptyDatabaseStillRenders) {
  TempDir dir;
  auto db = triage::Database::open(dir.path() / "t.db");
  const std::string html = triage::render_html_report(db, 1.7e9);
  EXPECT_TRUE(contains(html, "No findings yet"));
}

TEST(TriageReport, MarkdownExportHasReproducerCommandsOutputsAndExpectation) {
  TempDir dir;
  auto db = triage::Database::open(dir.path() / "t.db");
  fill(db, "compile", 1.7e9, 20);
  db.add_note(db.buckets().front().key, "looks like a clang bug", 1.7e9 + 5);
  const auto bucket = db.bucket(db.buckets().front().key);
  const auto report = triage::export_bucket(db, bucket, dir.path() / "export");
  const std::string md = read_file(report);
  EXPECT_TRUE(md.starts_with("# " + bucket.title));
  EXPECT_TRUE(contains(md, "## Reproducer"));
  EXPECT_TRUE(contains(md, "```cuda"));
  EXPECT_TRUE(contains(md, "## Expected vs observed"));
  EXPECT_TRUE(contains(md, "nvcc -O3 -c"));
  EXPECT_TRUE(contains(md, "clang++-22 -x cuda -O3 -c"));
  EXPECT_TRUE(contains(md, "looks like a clang bug"));
  const auto best = db.finding(bucket.best_finding);
  ASSERT_TRUE(best.has_value());
  EXPECT_EQ(read_file(dir.path() / "export" / best->source_name), best->source);
}
