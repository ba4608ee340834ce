// gpu-labeled: a campaign spread over every GPU of the host, with one GPU's executors killed
// from outside while it runs. A killed executor must cost the runs it held a re-run as a
// process (or nothing, when it was idle: the next run gets a new one), never the campaign:
// every batch is committed and the findings are those of the same campaign left alone. Also
// checks the per-GPU figures of the JSON summary. Runs on one GPU too (its executors are the
// ones killed); skipped without a GPU.
#include "runners/runners.h"
#include "support/test_support.h"
#include "triage/triage.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <iostream>
#include <iterator>
#include <thread>

#include <signal.h>

namespace {

using namespace cudiff;

std::string read_proc(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

/// The live cudiff-executor processes of GPU `gpu` whose parent is the campaign writing `db`:
/// found through /proc, as a person would find them to kill them.
std::vector<pid_t> executors_of(int gpu, const std::filesystem::path& db) {
  std::vector<pid_t> found;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::error_code link_ec;
    const auto exe = std::filesystem::read_symlink(entry.path() / "exe", link_ec);
    // Its stderr is its log, in its GPU's executor directory (its cwd is each run's own).
    const auto log = std::filesystem::read_symlink(entry.path() / "fd" / "2", link_ec);
    if (link_ec || exe.filename() != "cudiff-executor" ||
        log.parent_path().filename() != "executor-gpu" + std::to_string(gpu))
      continue;
    const std::string stat = read_proc(entry.path() / "stat");  // pid (comm) state ppid ...
    const auto close = stat.rfind(')');
    if (close == std::string::npos) continue;
    const int parent = std::atoi(stat.c_str() + close + 4);
    if (test::contains(read_proc("/proc/" + std::to_string(parent) + "/cmdline"), db.string()))
      found.push_back(std::stoi(name));
  }
  return found;
}

/// Bucket keys of a campaign database, sorted.
std::vector<std::string> bucket_keys(const std::filesystem::path& db) {
  std::vector<std::string> keys;
  for (const auto& bucket : triage::Database::open(db, {.create = false, .read_only = true}).buckets())
    keys.push_back(bucket.key);
  std::sort(keys.begin(), keys.end());
  return keys;
}

TEST(GpuMultiGpu, AKilledExecutorCostsItsRunsAReRunNotTheCampaign) {
  CUDIFF_SKIP_WITHOUT_GPU();
  const runners::GpuDiscovery gpus = runners::discover_gpus();
  ASSERT_FALSE(gpus.gpus.empty());
  const int victim = gpus.gpus.back().index;
  TempDir dir("cudiff-gpu-multi");
  // As GpuFuzz: generated programs the two compilers agree on, so the campaign is about the
  // GPUs, not the findings (test::accepted_by_both's constructs off, no long double members).
  const auto policy = dir.path() / "policy.json";
  write_file(policy, R"({"edge.share": 0, "construct.managed_memory": 0, "probe.clang_rejects": 0,
                         "construct.long_double_members": 0})");
  const auto campaign = [&](const std::filesystem::path& db) {
    return test::run_cudiff({"fuzz", "--tests", "96", "--batch", "8", "--seed", "0", "--no-reduce", "--gpus", "all",
                             "--db", db.string(), "--policy", policy.string(), "--json"},
                            900);
  };
  const auto alone_db = dir.path() / "alone.db";
  const auto alone = campaign(alone_db);
  ASSERT_EQ(alone.exit_code, 0) << alone.out.text << alone.err.text;

  // The same campaign, with GPU `victim`'s executors killed as soon as they show up and again
  // every two seconds while it runs.
  const auto killed_db = dir.path() / "killed.db";
  std::atomic<bool> done{false};
  std::atomic<int> kills{0};
  std::thread killer([&] {
    while (!done) {
      const auto pids = executors_of(victim, killed_db);
      for (pid_t pid : pids)
        if (::kill(pid, SIGKILL) == 0) ++kills;
      std::this_thread::sleep_for(pids.empty() ? std::chrono::milliseconds(50) : std::chrono::seconds(2));
    }
  });
  const auto result = campaign(killed_db);
  done = true;
  killer.join();
  std::cout << result.err.text << result.out.text;  // the campaign's own lines, for the record
  ASSERT_EQ(result.exit_code, 0) << result.out.text << result.err.text;
  ASSERT_GT(kills.load(), 0) << "no executor of GPU " << victim << " was seen to kill";

  const auto summary = boost::json::parse(result.out.text);
  const auto reference = boost::json::parse(alone.out.text);
  EXPECT_EQ(summary.at("tests").to_number<int>(), 96);
  EXPECT_EQ(summary.at("dropped_batches").to_number<int>(), 0);
  EXPECT_EQ(summary.at("findings").to_number<int>(), reference.at("findings").to_number<int>());
  EXPECT_EQ(bucket_keys(killed_db), bucket_keys(alone_db));

  // One executor set per GPU; the victim's replaced its killed executors and re-ran as a
  // process whatever a kill cut short.
  const auto& shares = summary.at("gpus").as_array();
  ASSERT_EQ(shares.size(), gpus.gpus.size());
  std::int64_t batches = 0;
  for (const auto& value : shares) {
    const auto& share = value.as_object();
    batches += share.at("batches").to_number<std::int64_t>();
    EXPECT_GE(share.at("busy").to_number<double>(), 0.0);
    EXPECT_LE(share.at("busy").to_number<double>(), 1.0);
    ASSERT_TRUE(share.at("executor").is_object()) << value;
    if (share.at("index").to_number<int>() != victim) continue;
    const auto& executor = share.at("executor").as_object();
    EXPECT_GE(executor.at("ran_as_processes").to_number<int>() + executor.at("executors_lost").to_number<int>(), 1)
        << value;
    // Every executor found dead while idle was replaced before the next run: by a new one, or by
    // a start that failed (the killer may strike while a replacement sets up its context).
    EXPECT_GE(executor.at("executors_started").to_number<int>() +
                  executor.at("executor_start_failures").to_number<int>(),
              1 + executor.at("executors_lost").to_number<int>())
        << value;
  }
  EXPECT_EQ(batches, 12);  // 96 seeds in batches of 8, each on exactly one GPU
  if (gpus.gpus.size() > 1)
    for (const auto& value : shares) EXPECT_GT(value.at("batches").to_number<int>(), 0) << "an idle GPU: " << value;
}

} // namespace
