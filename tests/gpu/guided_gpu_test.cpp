// gpu-labeled: guided generation runs the programs on the GPU when there is one — the
// baseline's features carry both binaries' exit status, and `cudiff fuzz --engine libfuzzer`
// files a campaign in mode run. Skipped, with the reason, without a GPU.
#include "support/test_support.h"
#include "triage/triage.h"

#include <gtest/gtest.h>

#include <iostream>

namespace {

using cudiff::test::contains;
using cudiff::test::run_cudiff;
namespace fs = std::filesystem;

cudiff::runners::SubprocessResult run_libfuzzer(const std::vector<std::string>& args) {
  cudiff::runners::Command command;
  command.argv = {(cudiff::test::cudiff_binary().parent_path() / "cudiff-libfuzzer").string()};
  command.argv.insert(command.argv.end(), args.begin(), args.end());
  command.limits.wall_seconds = 600;
  return cudiff::runners::run_subprocess(command);
}

} // namespace

TEST(GpuGuided, BaselineRunsBothBinariesAndTheirStatusIsAFeature) {
  CUDIFF_SKIP_WITHOUT_GPU();
  cudiff::TempDir dir("cudiff-gpu-guided");
  const fs::path log = dir.path() / "plain.jsonl";
  auto result = run_libfuzzer({"--db=" + (dir.path() / "g.db").string(), "--features-log=" + log.string(),
                               "--baseline-seeds=0", "--baseline-tests=3"});
  ASSERT_EQ(result.exit_code, 0) << result.err.text;
  std::cout << result.err.text;  // the session's own lines, for the record
  EXPECT_TRUE(contains(result.err.text, "runs on ")) << result.err.text;
  const auto lines = cudiff::split_lines(cudiff::read_file(log));
  ASSERT_EQ(lines.size(), 3u);
  for (const std::string& line : lines) {
    const boost::json::value record = boost::json::parse(line);  // named: the loop reads into it
    std::set<std::string> features;
    for (const auto& feature : record.at("features").as_array()) features.insert(std::string(feature.as_string()));
    EXPECT_TRUE(features.count("run nvcc-O3 exit 0")) << line;
    EXPECT_TRUE(features.count("run clang-O3 exit 0")) << line;
    // Seeds 0..499 agree under both compilers (bench/RESULTS.md).
    EXPECT_TRUE(features.count("verdict agree")) << line;
  }
}

TEST(GpuGuided, EngineFilesACampaignInModeRun) {
  CUDIFF_SKIP_WITHOUT_GPU();
  cudiff::TempDir dir("cudiff-gpu-guided");
  const fs::path db = dir.path() / "g.db";
  auto result = run_cudiff({"fuzz", "--engine", "libfuzzer", "--tests", "6", "--seed", "1", "--db", db.string(),
                            "--corpus", (dir.path() / "corpus").string(), "--no-reduce", "--json"},
                           600);
  ASSERT_EQ(result.exit_code, 0) << result.out.text << result.err.text;
  std::cout << result.out.text;
  const auto summary = boost::json::parse(result.out.text);
  EXPECT_FALSE(summary.at("compile_only").as_bool());
  const auto campaigns = cudiff::triage::Database::open(db, {.create = false, .read_only = true}).campaigns();
  ASSERT_EQ(campaigns.size(), 1u);
  EXPECT_EQ(campaigns[0].kind, "guided");
  EXPECT_EQ(campaigns[0].mode, "run");
  EXPECT_GE(campaigns[0].tests, 2);
}
