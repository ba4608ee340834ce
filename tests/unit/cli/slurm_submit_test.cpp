// `cudiff slurm submit` before anything reaches Slurm: the sbatch command lines it builds
// (--dry-run), and the mistakes it refuses at once instead of after a night in the queue.
// tests/slurm/slurm_campaign_test.sh submits for real, to a Slurm it starts.
#include "cli/cli.h"
#include "common/common.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <sstream>

namespace {

using cudiff::test::contains;

struct Ran {
  int status;
  std::string out, err;
};

Ran run(std::vector<std::string> args) {
  std::ostringstream out, err;
  const int status = cudiff::cli::run_cli(args, out, err);
  return {status, out.str(), err.str()};
}

TEST(SlurmSubmit, DryRunShowsTheArrayAndTheMergeJobAfterIt) {
  cudiff::TempDir dir("cudiff-slurm-dry");
  const auto out = dir.path() / "night";
  const auto result = run({"slurm",           "submit",     "--shards",        "3",
                           "--gpus-per-task", "2",          "--cpus-per-task", "16",
                           "--partition",     "gpu",        "--sbatch-flags",  "--account=lab --qos=high",
                           "--out",           out.string(), "--dry-run",       "--",
                           "--time",          "2h",         "--batch",         "16"});
  ASSERT_EQ(result.status, 0) << result.err;
  const auto lines = cudiff::split_lines(result.out);
  ASSERT_EQ(lines.size(), 4u) << result.out;
  const std::string& array = lines[2];
  const std::string& merge = lines[3];
  for (const char* part : {"--array=0-2", "--gres=gpu:2", "--cpus-per-task=16", "--partition=gpu", "--account=lab",
                           "--qos=high", "--time=150", "--requeue", "campaign.sbatch"})
    EXPECT_TRUE(contains(array, part)) << part << " missing from: " << array;
  EXPECT_TRUE(contains(array, (out / "logs" / "shard-%a.out").string())) << array;
  for (const char* part : {"--dependency=afterany:ARRAY_JOB", "--partition=gpu", "--account=lab", "merge.sbatch"})
    EXPECT_TRUE(contains(merge, part)) << part << " missing from: " << merge;
  EXPECT_FALSE(contains(merge, "--gres")) << "the merge job needs no GPU: " << merge;
  EXPECT_TRUE(merge.size() > 2 && merge.substr(merge.size() - 2) == " 3")
      << "the merge job is told the shard count: " << merge;
  EXPECT_TRUE(contains(lines[1], "--time 2h --batch 16")) << lines[1];
  EXPECT_FALSE(std::filesystem::exists(out)) << "a dry run writes nothing";
}

TEST(SlurmSubmit, AGivenTimeLimitWinsOverTheBudgetsDefault) {
  cudiff::TempDir dir("cudiff-slurm-dry");
  auto result = run({"slurm", "submit", "--shards", "2", "--out", dir.path().string(), "--dry-run", "--sbatch-flags",
                     "--time=12:00:00", "--", "--time", "8h"});
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_TRUE(contains(result.out, "--time=12:00:00"));
  EXPECT_FALSE(contains(result.out, "--time=510"));
  result = run({"slurm", "submit", "--shards", "2", "--out", dir.path().string(), "--dry-run", "--", "--tests", "500"});
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_FALSE(contains(cudiff::split_lines(result.out)[2], "--time=")) << "no budget, no limit of our own";
}

TEST(SlurmSubmit, MistakesAreRefusedBeforeAnythingIsSubmitted) {
  cudiff::TempDir dir("cudiff-slurm-bad");
  const auto out = (dir.path() / "c").string();
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"slurm", "submit", "--out", out}, "--shards N"},
      {{"slurm", "submit", "--shards", "0", "--out", out}, "--shards N"},
      {{"slurm", "submit", "--shards", "2", "--out", out, "--", "--db", "x.db"}, "--db is set by the job scripts"},
      {{"slurm", "submit", "--shards", "2", "--out", out, "--", "--shard=0/2"},
       "--shard=0/2 is set by the job scripts"},
      {{"slurm", "submit", "--shards", "2", "--out", out, "--", "--tets", "5"}, "unknown option '--tets'"},
      {{"slurm", "submit", "--shards", "2", "--out", out, "--", "--time", "soon"}, "--time"},
      {{"slurm", "submit", "--shards", "2", "--out", out, "--", "--known", "/no/such.json"}, "no such file"},
      {{"slurm", "submit", "--shards", "2", "--out", out, "--", "--time", "1h", "--tests", "9"}, "not both"},
      {{"slurm", "submit", "--shards", "2", "--out", out, "--", "--mode", "fast"}, "unknown mode 'fast'"},
      {{"slurm", "submit", "--shards", "2", "--out", out, "--", "--config", "gcc-O2"}, "gcc-O2"},
      {{"slurm", "status", dir.path().string()}, "no campaign submitted"},
      {{"slurm", "launch"}, "unknown slurm action"},
      {{"check", "a.cu", "--", "x"}, "takes nothing after '--'"},
  };
  for (const auto& [args, message] : cases) {
    const auto result = run(args);
    EXPECT_EQ(result.status, 2) << cudiff::join(args, " ");
    EXPECT_TRUE(contains(result.err, message)) << cudiff::join(args, " ") << ": " << result.err;
    EXPECT_EQ(cudiff::test::count_lines(result.err), 1u) << result.err;
  }
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(SlurmSubmit, WithoutSlurmTheSubmissionSaysSoInOneLine) {
  if (cudiff::find_on_path("sbatch"))
    GTEST_SKIP() << "sbatch is installed here: the slurm label's test submits for real";
  cudiff::TempDir dir("cudiff-slurm-none");
  const auto result = run(
      {"slurm", "submit", "--shards", "2", "--out", (dir.path() / "c").string(), "--", "--tests", "4"});
  EXPECT_EQ(result.status, 2);
  EXPECT_TRUE(contains(result.err, "sbatch not found on PATH")) << result.err;
}

} // namespace
