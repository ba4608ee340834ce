// bench: the triage database at campaign scale — insert 100,000 findings over 1,000 buckets,
// list the top buckets, merge two shards, render the report — each against the obvious
// alternative in the same run (bench/RESULTS.md).
//
//   build/bench/cudiff_triage_bench [FINDINGS=100000] [BUCKETS=1000] [SINGLE=10000] [DIR=/tmp/cudiff-triage-bench]
#include "triage/triage.h"

#include <sqlite3.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <thread>

namespace {

using namespace cudiff;
using Clock = std::chrono::steady_clock;

double since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

triage::Campaign campaign(const std::string& name) {
  triage::Campaign c;
  c.id = triage::content_key("bench campaign " + name);
  c.kind = "synthetic";
  c.host = "bench";
  c.started = 1.7e9;
  c.ended = 1.7e9 + 3600;
  return c;
}

/// Inserts `count` synthetic findings, `batch` per transaction; returns seconds.
double insert(triage::Database& db, const triage::Campaign& c, std::int64_t first, std::int64_t count,
              std::int64_t buckets, std::int64_t batch) {
  db.put_campaign(c);
  const auto start = Clock::now();
  for (std::int64_t i = first; i < first + count; i += batch) {
    db.transaction([&] {
      for (std::int64_t j = i; j < std::min(first + count, i + batch); ++j)
        db.add_finding(
            triage::synthetic_finding(c.id, j, buckets, c.started + 3600.0 * static_cast<double>(j) / count));
    });
  }
  return since(start);
}

/// The alternative to stored counts: counting findings per bucket at query time.
double group_by_top(const std::filesystem::path& path) {
  sqlite3* db = nullptr;
  sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
  sqlite3_stmt* query = nullptr;
  sqlite3_prepare_v2(db, "SELECT bucket_key, count(*) AS n FROM findings GROUP BY bucket_key ORDER BY n DESC LIMIT 25",
                     -1, &query, nullptr);
  const auto start = Clock::now();
  while (sqlite3_step(query) == SQLITE_ROW) {
  }
  const double seconds = since(start);
  sqlite3_finalize(query);
  sqlite3_close(db);
  return seconds;
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.starts_with("model name")) return std::string(trim(line.substr(line.find(':') + 1)));
  return "?";
}

void row(const std::string& what, double seconds, const std::string& note) {
  std::printf("| %s | %.3f s | %s |\n", what.c_str(), seconds, note.c_str());
}

} // namespace

int main(int argc, char** argv) {
  const std::int64_t findings = argc > 1 ? std::atoll(argv[1]) : 100000;
  const std::int64_t buckets = argc > 2 ? std::atoll(argv[2]) : 1000;
  const std::int64_t single = argc > 3 ? std::atoll(argv[3]) : 10000;
  const std::filesystem::path dir = argc > 4 ? argv[4] : "/tmp/cudiff-triage-bench";
  try {
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    std::printf("triage bench: %lld findings over %lld buckets; machine: %s, %u threads; SQLite %s\n\n",
                static_cast<long long>(findings), static_cast<long long>(buckets), cpu_model().c_str(),
                std::thread::hardware_concurrency(), sqlite3_libversion());
    std::printf("| step | time | note |\n|---|---|---|\n");

    auto a = triage::Database::open(dir / "a.db");
    const double batched = insert(a, campaign("a"), 0, findings, buckets, 1000);
    row("insert " + std::to_string(findings) + " findings, 1000 per transaction", batched,
        std::to_string(static_cast<long long>(findings / batched)) + " findings/s");

    // Like for like: both on a fresh database of the same size (the insert rate falls as the
    // database outgrows the page cache, so the 100,000 row above is no fair baseline).
    auto small = triage::Database::open(dir / "batched_small.db");
    const double batched_small = insert(small, campaign("small"), 0, single, buckets, 1000);
    row("insert " + std::to_string(single) + " findings, 1000 per transaction", batched_small,
        std::to_string(static_cast<long long>(single / batched_small)) + " findings/s");
    auto one = triage::Database::open(dir / "single.db");
    const double per_finding = insert(one, campaign("single"), 0, single, buckets, 1);
    const double batched_rate = single / batched_small, single_rate = single / per_finding;
    row("insert " + std::to_string(single) + " findings, one transaction each (alternative)", per_finding,
        std::to_string(static_cast<long long>(single_rate)) + " findings/s; batched is " +
            std::to_string(batched_rate / single_rate).substr(0, 5) + "x faster");

    constexpr int repeats = 20;
    auto start = Clock::now();
    std::size_t listed = 0;
    for (int i = 0; i < repeats; ++i) listed = a.buckets(triage::BucketQuery{std::nullopt, std::nullopt, 25}).size();
    const double list = since(start) / repeats;
    double grouped = 0;
    for (int i = 0; i < repeats; ++i) grouped += group_by_top(dir / "a.db") / repeats;
    row("list top 25 buckets (stored counts, index)", list, std::to_string(listed) + " rows");
    row("top 25 by GROUP BY over findings (alternative)", grouped,
        "stored counts are " + std::to_string(grouped / list).substr(0, 6) + "x faster");

    auto b = triage::Database::open(dir / "b.db");
    insert(b, campaign("b"), 0, findings, buckets, 1000);
    auto out = triage::Database::open(dir / "merged.db");
    start = Clock::now();
    auto first = out.merge_from(dir / "a.db");
    auto second = out.merge_from(dir / "b.db");
    const double merge = since(start);
    start = Clock::now();
    auto again = out.merge_from(dir / "b.db");
    const double remerge = since(start);
    const auto totals = out.totals();
    row("merge two shards into an empty db", merge,
        std::to_string(first.findings_added + second.findings_added) + " findings, " + std::to_string(totals.buckets) +
            " buckets, top count " + std::to_string(out.buckets({std::nullopt, std::nullopt, 1}).front().count));
    row("merge the second shard again (idempotent)", remerge, std::to_string(again.findings_added) + " findings added");
    auto replay = triage::Database::open(dir / "replayed.db");
    start = Clock::now();
    for (const auto& shard : {"a", "b"}) insert(replay, campaign(shard), 0, findings, buckets, 1000);
    const double replayed = since(start);
    row("re-insert both shards' findings instead (alternative)", replayed,
        "merge is " + std::to_string(replayed / merge).substr(0, 5) + "x faster");

    start = Clock::now();
    const std::string html = triage::render_html_report(out, 1.7e9 + 7200);
    const double render = since(start);
    write_file(dir / "report.html", html);
    row("render the HTML report of the merged db", render,
        std::to_string(totals.findings) + " findings, " + format_bytes(html.size()) + " page");
    std::printf("\nintegrity: %s; files in %s\n", out.integrity_check().c_str(), dir.c_str());
    return 0;
  } catch (const std::exception& error) {
    std::cerr << "cudiff_triage_bench: " << error.what() << "\n";
    return 2;
  }
}
