// triage reports: the HTML page is self-contained (inline CSS and SVG, no scripts, nothing
// fetched) and has its sections, one per class with its buckets; the Markdown bug report has
// what a compiler team needs.
#include "runners/runners.h"
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
  const auto exported = triage::export_bucket(db, bucket, dir.path() / "export");
  const std::string md = read_file(exported.report);
  EXPECT_TRUE(std::filesystem::exists(exported.script));
  EXPECT_TRUE(read_file(exported.script).starts_with("#!/usr/bin/env bash\n"));
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

TEST(TriageFacts, LinkBisectionAndRecheckRoundTripAndMergeKeepsWhatEachHas) {
  TempDir dir;
  const auto shard_path = dir.path() / "shard.db";
  std::string key;
  {
    auto shard = triage::Database::open(shard_path);
    fill(shard, "compile", 1.7e9, 10);
    key = shard.buckets().front().key;
    shard.set_link(key, "https://bugs.example/1");
    shard.set_recheck(key, "fixed", "nvcc 13.1, clang 23", 2e9);
  }
  auto db = triage::Database::open(dir.path() / "main.db");
  fill(db, "compile", 1.7e9, 10);
  EXPECT_EQ(db.facts(key).link, "");  // none set: empty facts
  db.set_versions(key, "not bisectable: one toolkit");
  db.set_recheck(key, "present", "nvcc 13.0, clang 22", 1.8e9);
  db.merge_from(shard_path);
  const triage::BucketFacts facts = db.facts(key);
  EXPECT_EQ(facts.link, "https://bugs.example/1");             // the shard's, this one had none
  EXPECT_EQ(facts.versions, "not bisectable: one toolkit");    // this one's, the shard had none
  EXPECT_EQ(facts.recheck, "fixed");                           // the newer recheck
  EXPECT_EQ(facts.recheck_compilers, "nvcc 13.1, clang 23");
  EXPECT_DOUBLE_EQ(facts.recheck_time, 2e9);
  db.set_link(key, "https://bugs.example/2");
  EXPECT_EQ(db.facts(key).link, "https://bugs.example/2");
  EXPECT_EQ(db.facts(key).versions, "not bisectable: one toolkit");  // one fact set leaves the others
}

/// A stored finding of `kind` with `details` and two configs' recorded builds and runs.
triage::StoredFinding finding_of(const std::string& kind, const std::string& details) {
  triage::StoredFinding finding;
  finding.kind = kind;
  finding.source_name = "repro.cu";
  finding.details = boost::json::parse(details);
  finding.outputs = boost::json::parse(R"({"file": "/tmp/x/repro.cu", "mode": "run",
    "toolchain": {"nvcc": {"path": "/usr/local/cuda/bin/nvcc"}, "clang": {"path": "/usr/bin/clang++-22"},
                  "cuda_home": "/usr/local/cuda"},
    "configs": [
      {"config": "nvcc-O3", "compiler": "nvcc", "outcome": "accepted", "run": {"status": "exit 0"},
       "command": "TMPDIR=/tmp/x/t LC_ALL=C /usr/local/cuda/bin/nvcc -O3 -o /tmp/x/nvcc-O3/repro --time /tmp/x/t.csv /tmp/x/repro.cu"},
      {"config": "clang-O3", "compiler": "clang", "outcome": "rejected", "run": {"status": "exit 0"},
       "command": "LC_ALL=C /usr/bin/clang++-22 -x cuda '--cuda-path=/usr/local/cuda' -fcrash-diagnostics-dir=/tmp/x -O3 -o /tmp/x/clang-O3/repro /tmp/x/repro.cu -L/usr/local/cuda/lib64"}]})");
  return finding;
}

TEST(TriageReproScript, ARunMismatchWithOnlyItsGroupsIsTheFirstGroupAgainstTheOthers) {
  // A run mismatch `cudiff check` filed from a person's file names no sides, only groups.
  triage::Bucket bucket;
  bucket.key = "0123456789abcdef0123456789abcdef";
  bucket.kind = "run_mismatch";
  const std::string script = triage::render_repro_script(
      bucket, finding_of("run_mismatch", R"({"groups": [{"configs": ["nvcc-O3"]}, {"configs": ["clang-O3"]}]})"),
      "repro.cu");
  EXPECT_TRUE(contains(script, "present \"clang-O3 print other output than nvcc-O3\"")) << script;
}

TEST(TriageReproScript, EveryKindGivesAScriptBashCanParseWithTheRecordedCommandsMadePortable) {
  TempDir dir;
  const std::vector<std::pair<std::string, std::string>> kinds = {
      {"wrong_code", R"({"expected": {"k": "01"}, "differing": ["nvcc-O3"], "matching": ["clang-O3"],
                         "differing_kernels": ["k"]})"},
      {"run_mismatch", R"({"groups": [{"configs": ["nvcc-O3"]}, {"configs": ["clang-O3"]}],
                           "differing": ["clang-O3"], "matching": ["nvcc-O3"]})"},
      // Both configs in one group: the reference and a config that must keep printing as it does.
      {"run_mismatch", R"({"matching": ["nvcc-O3", "clang-O3"], "differing": []})"},
      {"crash", R"({})"},
      {"false_rejection", R"({})"},
      {"missed_diagnostic", R"({})"},
      {"layout_mismatch", R"({})"}};
  for (const auto& [kind, details] : kinds) {
    triage::Bucket bucket;
    bucket.key = "0123456789abcdef0123456789abcdef";
    bucket.kind = kind;
    bucket.title = "a title\nwith a newline";
    const std::string script = triage::render_repro_script(bucket, finding_of(kind, details), "repro.cu");
    const auto path = dir.path() / (kind + ".sh");
    write_file(path, script);
    runners::Command parse;
    parse.argv = {"bash", "-n", path.string()};
    const runners::SubprocessResult parsed = runners::run_subprocess(parse);
    EXPECT_TRUE(parsed.exited_zero()) << kind << ": " << parsed.err.text << "\n" << script;
    // The recorded compilers and toolkit are defaults only; cudiff's own instrumentation is gone.
    EXPECT_TRUE(contains(script, "\"$NVCC\" -O3 -o \"$work\"/nvcc-O3/repro \"$src\"")) << script;
    EXPECT_TRUE(contains(script, "--cuda-path=\"$CUDA_HOME\"")) << script;
    EXPECT_TRUE(contains(script, "-L\"$CUDA_HOME\"/lib64")) << script;
    EXPECT_FALSE(contains(script, "--time")) << script;
    EXPECT_FALSE(contains(script, "crash-diagnostics")) << script;
    EXPECT_FALSE(contains(script, "TMPDIR=")) << script;
  }
}
