// `cudiff fuzz` on the real compilers (label compilers), compile-only: a planted discrepancy
// class files exactly one bucket; a batch with one bad test is split down to that test; a
// campaign killed with SIGKILL resumes to the same counts as an uninterrupted one.
#include "generator/generator.h"
#include "support/test_support.h"
#include "triage/triage.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace {

using cudiff::test::contains;
using cudiff::test::run_cudiff;
namespace fs = std::filesystem;

/// A policy file switching the planted construct on with this probability: a kernel reading a
/// __managed__ array, which clang-22 rejects (it ignores the attribute) and nvcc accepts. No
/// edge programs (these tests count the findings of batches of generated programs) and no
/// probes (a host probe's own kernel would confuse reads_managed_on_device's text scan).
fs::path planted_policy(const fs::path& dir, double share) {
  const fs::path file = dir / "planted.json";
  cudiff::write_file(file, "{\"construct.managed_memory\": " + std::to_string(share) +
                               ", \"edge.share\": 0, \"probe.share\": 0}");
  return file;
}

/// Whether the lone program of `seed` reads its __managed__ input in device code.
bool reads_managed_on_device(const cudiff::generator::Policy& policy, std::uint64_t seed) {
  return cudiff::test::reads_managed_on_device(
      cudiff::generator::generate_program(policy, seed, cudiff::generator::Size::small).source);
}

cudiff::triage::Totals totals(const fs::path& db) {
  return cudiff::triage::Database::open(db, {.create = false, .read_only = true}).totals();
}

} // namespace

TEST(FuzzE2E, PlantedDiscrepancyClassFilesExactlyOneBucket) {
  cudiff::TempDir dir("cudiff-fuzz-e2e");
  const fs::path db = dir.path() / "campaign.db";
  auto result = run_cudiff({"fuzz", "--tests", "8", "--batch", "4", "--jobs", "1", "--seed", "300", "--no-reduce",
                            "--policy", planted_policy(dir.path(), 1.0).string(), "--db", db.string(), "--json"});
  ASSERT_EQ(result.exit_code, 0) << result.out.text << result.err.text;
  const auto summary = boost::json::parse(result.out.text);
  EXPECT_EQ(summary.at("tests").to_number<int>(), 8);
  EXPECT_TRUE(summary.at("compile_only").as_bool());
  EXPECT_TRUE(contains(result.err.text, "compile-only")) << result.err.text;  // said at the start
  EXPECT_GE(summary.at("findings").to_number<int>(), 1);
  ASSERT_EQ(summary.at("new_buckets").as_array().size(), 1u) << result.out.text;
  auto database = cudiff::triage::Database::open(db, {.create = false});
  const auto buckets = database.buckets();
  ASSERT_EQ(buckets.size(), 1u);
  // A generated program must be accepted (its sidecar says so): clang's rejection is a false
  // rejection, not just a mismatch.
  EXPECT_EQ(buckets[0].kind, "false_rejection");
  EXPECT_EQ(buckets[0].side, "clang");
  EXPECT_TRUE(fs::exists(summary.at("report").as_string().c_str()));
  // The stored reproducer is one test alone, and really shows the bucket when re-checked.
  const auto finding = database.finding(buckets[0].best_finding);
  ASSERT_TRUE(finding);
  EXPECT_TRUE(contains(finding->source_name, "_1.cu")) << finding->source_name;
  cudiff::write_file(dir.path() / finding->source_name, finding->source);
  auto recheck = run_cudiff({"check", (dir.path() / finding->source_name).string(), "--mode", "binary", "--json"});
  EXPECT_EQ(recheck.exit_code, 1) << recheck.out.text;
  EXPECT_TRUE(contains(recheck.out.text, "reference to __host__ variable")) << recheck.out.text;
}

TEST(FuzzE2E, BatchBisectionIsolatesTheOneBadTest) {
  cudiff::TempDir dir("cudiff-fuzz-bisect");
  const fs::path policy_file = planted_policy(dir.path(), 0.25);
  const auto policy = cudiff::generator::Policy::load(cudiff::read_file(policy_file));
  // The first window of 4 consecutive seeds of which exactly one reads managed memory on the
  // device, found from the generator itself so the test follows generator changes.
  constexpr std::uint64_t k = 4;
  std::uint64_t first = 0, bad = 0;
  for (std::uint64_t start = 1000; start < 1400 && first == 0; start += k) {
    std::vector<std::uint64_t> bad_seeds;
    for (std::uint64_t seed = start; seed < start + k; ++seed)
      if (reads_managed_on_device(policy, seed)) bad_seeds.push_back(seed);
    if (bad_seeds.size() == 1) {
      first = start;
      bad = bad_seeds.front();
    }
  }
  ASSERT_NE(first, 0u) << "no window with exactly one planted test";
  const fs::path db = dir.path() / "bisect.db";
  auto result = run_cudiff({"fuzz", "--tests", std::to_string(k), "--batch", std::to_string(k), "--jobs", "1", "--seed",
                            std::to_string(first), "--no-reduce", "--policy", policy_file.string(), "--db",
                            db.string()});
  ASSERT_EQ(result.exit_code, 0) << result.out.text << result.err.text;
  auto database = cudiff::triage::Database::open(db, {.create = false});
  ASSERT_EQ(database.totals().findings, 1) << result.out.text;
  const auto buckets = database.buckets();
  ASSERT_EQ(buckets.size(), 1u);
  const auto finding = database.finding(buckets[0].best_finding);
  ASSERT_TRUE(finding);
  // Pinned on the bad seed: its batch of one is the reproducer.
  EXPECT_TRUE(contains(finding->source, "// seeds: " + std::to_string(bad) + "\n")) << finding->source.substr(0, 200);
}

TEST(FuzzE2E, ResumeAfterKillNineEndsWithTheUninterruptedCounts) {
  cudiff::TempDir dir("cudiff-fuzz-resume");
  const fs::path policy = planted_policy(dir.path(), 0.3);
  const std::vector<std::string> campaign = {
      "fuzz",   "--tests", "8",           "--batch", "2",        "--jobs",       "1",
      "--seed", "500",     "--no-reduce", "--quiet", "--policy", policy.string()};
  auto with_db = [&](const fs::path& db) {
    auto args = campaign;
    args.insert(args.end(), {"--db", db.string()});
    return args;
  };

  const fs::path whole = dir.path() / "whole.db";
  auto uninterrupted = run_cudiff(with_db(whole));
  ASSERT_EQ(uninterrupted.exit_code, 0) << uninterrupted.out.text << uninterrupted.err.text;

  // The same campaign, killed with SIGKILL once its first batches are committed.
  const fs::path killed = dir.path() / "killed.db";
  std::vector<std::string> argv = {cudiff::test::cudiff_binary().string()};
  for (const auto& arg : with_db(killed)) argv.push_back(arg);
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    std::vector<char*> raw;
    for (auto& arg : argv) raw.push_back(arg.data());
    raw.push_back(nullptr);
    ::execv(raw[0], raw.data());
    ::_exit(127);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(3);
  std::int64_t committed = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (!fs::exists(killed)) continue;
    try {
      committed = totals(killed).tests;
    } catch (const cudiff::Error&) {
      continue;  // created but not yet initialized
    }
    if (committed >= 2) break;
  }
  ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the campaign finished before it could be killed";
  ASSERT_GE(committed, 2);
  ASSERT_LT(totals(killed).tests, 8);

  auto resumed = run_cudiff({"fuzz", "--resume", "--quiet", "--no-reduce", "--db", killed.string(), "--json"});
  ASSERT_EQ(resumed.exit_code, 0) << resumed.out.text << resumed.err.text;
  const auto a = totals(whole), b = totals(killed);
  EXPECT_EQ(b.tests, 8);  // every seed once: tests are keyed by campaign and seed
  EXPECT_EQ(a.tests, b.tests);
  EXPECT_EQ(a.findings, b.findings);
  EXPECT_EQ(a.buckets, b.buckets);
  EXPECT_EQ(boost::json::parse(resumed.out.text).at("tests").to_number<int>(), 8);
  // Nothing left to resume.
  auto again = run_cudiff({"fuzz", "--resume", "--db", killed.string()});
  EXPECT_EQ(again.exit_code, 2);
  EXPECT_TRUE(contains(again.err.text, "no unfinished fuzz campaign")) << again.err.text;
}

TEST(FuzzE2E, BadArgumentsAndDatabasesAreOneLineErrors) {
  cudiff::TempDir dir("cudiff-fuzz-bad");
  auto both = run_cudiff({"fuzz", "--time", "1m", "--tests", "5"});
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_TRUE(contains(both.err.text, "--time or --tests")) << both.err.text;
  auto duration = run_cudiff({"fuzz", "--time", "soon"});
  EXPECT_EQ(duration.exit_code, 2);
  const fs::path junk = dir.path() / "junk.db";
  cudiff::write_file(junk, "this is not a database\n");
  auto corrupt = run_cudiff({"fuzz", "--tests", "1", "--db", junk.string()});
  EXPECT_EQ(corrupt.exit_code, 2);
  EXPECT_EQ(cudiff::read_file(junk), "this is not a database\n");  // left as it was
  auto nothing = run_cudiff({"fuzz", "--resume", "--db", (dir.path() / "empty.db").string()});
  EXPECT_EQ(nothing.exit_code, 2);
}
