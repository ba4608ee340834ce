// gpu-labeled: a run-time bucket from `cudiff check --db` goes through `cudiff triage reduce`
// and `triage export` as a person would send it. The known ptxas bug's reproducer
// (corpus/known-bugs/ptxas-vadd2-short-reduced) is checked with nvcc alone (-O3 against
// ptxas -O0 and -O0), reduced on the GPU, and the stored reduction must carry its own
// sanitizer verdict ("sanitizer gate: clean", from the final check of the reduced text);
// the exported repro.sh must exit 1 (present). Skipped, with the reason, without a GPU.
#include "common/common.h"
#include "runners/runners.h"
#include "support/test_support.h"

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include <iostream>

using cudiff::test::contains;
using cudiff::test::run_cudiff;

TEST(GpuTriageReduce, AReducedRunBucketIsStoredSanitizerCleanAndExportsAWorkingRepro) {
  CUDIFF_SKIP_WITHOUT_GPU();
  cudiff::TempDir dir("cudiff-gpu-triage-reduce");
  const auto file = dir.path() / "repro.cu";
  // The known-bug case is already reduced: lines a reduction must take away go before it, so
  // that the stored reproducer has something to be smaller than.
  const std::string padding =
      "#include <cstdlib>\n#include <climits>\n__device__ int unused_helper(int x) { return x * 3 + 1; }\n"
      "static int unused_host(int y) { return y - 7; }\n";
  cudiff::write_file(file, padding + cudiff::read_file(cudiff::test::source_dir() /
                                                       "corpus/known-bugs/ptxas-vadd2-short-reduced/repro.cu"));
  const std::string db = (dir.path() / "t.db").string();

  const auto check = run_cudiff({"check", file.string(), "--mode", "run", "--config", "nvcc-O3,nvcc-O3-ptxas0,nvcc-O0",
                                 "--db", db},
                                600);
  ASSERT_EQ(check.exit_code, 1) << check.out.text << check.err.text;
  const boost::json::value buckets = boost::json::parse(run_cudiff({"triage", "list", "--json", "--db", db}).out.text);
  ASSERT_EQ(buckets.as_array().size(), 1u) << boost::json::serialize(buckets);
  const std::string id = std::to_string(buckets.as_array().at(0).at("id").as_int64());

  const auto reduce = run_cudiff({"triage", "reduce", id, "--db", db, "--jobs", "4", "--time-limit", "120"}, 600);
  ASSERT_EQ(reduce.exit_code, 0) << reduce.out.text << reduce.err.text;
  EXPECT_TRUE(contains(reduce.out.text, "now the best reproducer")) << reduce.out.text;

  const auto out = dir.path() / "export";
  const auto exported = run_cudiff({"triage", "export", id, out.string(), "--db", db});
  ASSERT_EQ(exported.exit_code, 0) << exported.out.text << exported.err.text;
  const std::string report = cudiff::read_file(out / "report.md");
  EXPECT_TRUE(contains(report, "- sanitizer gate: clean (")) << report;
  EXPECT_TRUE(contains(report, "stage: **ptxas**")) << report;
  const std::size_t original_lines = cudiff::test::count_lines(cudiff::read_file(file));
  std::size_t reduced_lines = 0;
  for (const auto& entry : std::filesystem::directory_iterator(out))
    if (entry.path().extension() == ".cu") reduced_lines = cudiff::test::count_lines(cudiff::read_file(entry.path()));
  EXPECT_GT(reduced_lines, 0u);
  EXPECT_LT(reduced_lines, original_lines);

  cudiff::runners::Command repro;
  repro.argv = {"bash", "repro.sh"};
  repro.cwd = out;
  repro.limits.wall_seconds = 300;
  const auto ran = cudiff::runners::run_subprocess(repro);
  EXPECT_EQ(ran.exit_code, 1) << ran.out.text << ran.err.text;
  EXPECT_TRUE(contains(ran.out.text + ran.err.text, "present")) << ran.out.text << ran.err.text;
  std::cout << "[ triage reduce ] " << original_lines << " -> " << reduced_lines
            << " lines; report: sanitizer gate clean, stage ptxas; repro.sh exit " << ran.exit_code << "\n";
}
