// gpu-labeled: both compilers' binaries run on a real GPU and the verdict compares them.
// Skipped, with a visible reason, where there is no GPU (CI).
#include "support/test_support.h"

#include <gtest/gtest.h>

using cudiff::test::run_cudiff;
using cudiff::test::source_dir;

namespace {

std::string example(const std::string& name) { return (source_dir() / "examples" / name).string(); }

} // namespace

TEST(GpuCheck, BothBinariesRunAndPrintTheSameChecksum) {
  CUDIFF_SKIP_WITHOUT_GPU();
  // Without --config a check on a GPU uses the cross-level set: nvcc-O3, clang-O3,
  // nvcc-O3-ptxas0 and clang-O0.
  auto result = run_cudiff({"check", example("vector_add.cu"), "--mode", "run", "--json"});
  ASSERT_EQ(result.exit_code, 0) << result.out.text << result.err.text;
  boost::json::value json = boost::json::parse(result.out.text);
  auto& configs = json.at("configs").as_array();
  ASSERT_EQ(configs.size(), 4u);
  EXPECT_EQ(configs[2].at("config").as_string(), "nvcc-O3-ptxas0");
  std::vector<std::string> first_lines;
  for (auto& config : configs) {
    ASSERT_TRUE(config.as_object().contains("run")) << config.at("config").as_string();
    auto& run = config.at("run");
    EXPECT_EQ(run.at("exit_code").as_int64(), 0);
    auto& lines = run.at("output_lines").as_array();
    ASSERT_EQ(lines.size(), 1u);
    first_lines.emplace_back(lines[0].as_string());
  }
  for (const std::string& line : first_lines) EXPECT_EQ(line, first_lines[0]);
  EXPECT_TRUE(first_lines[0].starts_with("checksum scale_add ")) << first_lines[0];
}

TEST(GpuCheck, ManagedProgramRunsUnderNvccWhileClangRejectsIt) {
  CUDIFF_SKIP_WITHOUT_GPU();
  auto result = run_cudiff(
      {"check", example("managed_counter.cu"), "--mode", "run", "--json", "--config", "nvcc-O3,clang-O3"});
  ASSERT_EQ(result.exit_code, 1) << result.out.text << result.err.text;
  boost::json::value json = boost::json::parse(result.out.text);
  auto& nvcc = json.at("configs").as_array().at(0);
  ASSERT_TRUE(nvcc.as_object().contains("run"));
  EXPECT_EQ(nvcc.at("run").at("output_lines").as_array().at(0).as_string(), "counter 128");
  auto& clang = json.at("configs").as_array().at(1);
  EXPECT_FALSE(clang.as_object().contains("run"));
}

TEST(GpuCheck, ExecuteHonoursTheChosenGpuAndLimits) {
  CUDIFF_SKIP_WITHOUT_GPU();
  cudiff::TempDir dir("cudiff-gpu-exec");
  auto build = run_cudiff({"check", example("vector_add.cu"), "--mode", "binary", "--keep", dir.path().string()});
  ASSERT_EQ(build.exit_code, 0) << build.out.text << build.err.text;
  cudiff::runners::Limits limits;
  limits.wall_seconds = 60;
  limits.memory_bytes = 8ull << 30;  // resident memory: a CUDA context must still start under it
  auto run = cudiff::runners::execute(dir.path() / "nvcc-O3" / "vector_add", limits, std::string("0"), dir.path());
  EXPECT_EQ(run.exit_code, 0) << run.status_text() << run.err.text;
  EXPECT_TRUE(run.out.text.starts_with("checksum scale_add ")) << run.out.text;
}
