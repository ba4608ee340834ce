// gpu-labeled: every preset's binary runs and prints the expected output, and stage attribution
// names the stage of recorded run-side cases (tests/gpu/data/attribution/README.md).
// Skipped, with a visible reason, where there is no GPU.
#include "pipeline/pipeline.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <fstream>

using cudiff::test::contains;
using cudiff::test::run_cudiff;
using cudiff::test::source_dir;

namespace cudiff {
namespace {

/// What examples/vector_add.cu prints: the sum of in[i] * 3 + i with in[i] = i % 17.
std::string vector_add_line() {
  long long sum = 0;
  for (int i = 0; i < 1024; ++i) sum += (i % 17) * 3 + i;
  char line[64];
  std::snprintf(line, sizeof line, "checksum scale_add %llx", static_cast<unsigned long long>(sum));
  return line;
}

TEST(GpuStages, EveryRunnablePresetsBinaryPrintsTheExpectedOutput) {
  CUDIFF_SKIP_WITHOUT_GPU();
  const runners::GpuInfo gpu = runners::discover_gpus().gpus.front();
  std::vector<std::string> names;
  for (const runners::Config& config : runners::preset_configs()) names.push_back(config.name);
  auto result = run_cudiff({"check", (source_dir() / "examples" / "vector_add.cu").string(), "--mode", "run", "--json",
                            "--config", join(names, ",")},
                           600);
  ASSERT_EQ(result.exit_code, 0) << result.out.text << result.err.text;
  const boost::json::value json = boost::json::parse(result.out.text);
  const auto& configs = json.at("configs").as_array();
  ASSERT_EQ(configs.size(), names.size());
  std::size_t ran = 0;
  for (std::size_t i = 0; i < configs.size(); ++i) {
    const runners::Config config = runners::parse_configs(names[i]).front();
    const auto& entry = configs[i].as_object();
    if (!runners::runs_on(config, gpu)) {
      EXPECT_FALSE(entry.contains("run")) << names[i] << " is for " << config.arch << ", not " << gpu.arch();
      EXPECT_TRUE(contains(std::string(entry.at("note").as_string()), "compile-only")) << names[i];
      continue;
    }
    ASSERT_TRUE(entry.contains("run")) << names[i] << ":\n" << result.out.text;
    const auto& lines = entry.at("run").at("output_lines").as_array();
    ASSERT_EQ(lines.size(), 1u) << names[i];
    EXPECT_EQ(lines[0].as_string(), vector_add_line()) << names[i];
    ++ran;
  }
  std::printf("%zu of %zu presets ran on %s\n", ran, names.size(), gpu.describe().c_str());
  EXPECT_GE(ran, 2u);
}

/// A recorded case: its configs and the stage it must get, from its first lines.
struct Case {
  std::filesystem::path file;
  std::string configs;
  std::string stage;
};

std::vector<Case> recorded_cases() {
  std::vector<Case> cases;
  const auto dir = source_dir() / "tests" / "gpu" / "data" / "attribution";
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".cu") continue;
    Case c{entry.path(), {}, {}};
    std::ifstream in(entry.path());
    for (std::string line; std::getline(in, line) && line.starts_with("//");) {
      if (line.starts_with("// configs: ")) c.configs = line.substr(12);
      if (line.starts_with("// stage: ")) c.stage = line.substr(10);
    }
    cases.push_back(c);
  }
  std::ranges::sort(cases, {}, &Case::file);
  return cases;
}

TEST(GpuStages, EveryRecordedCaseGetsItsStage) {
  CUDIFF_SKIP_WITHOUT_GPU();
  const std::vector<Case> cases = recorded_cases();
  ASSERT_FALSE(cases.empty()) << "no case in tests/gpu/data/attribution";
  for (const Case& c : cases) {
    SCOPED_TRACE(c.file.filename().string());
    ASSERT_FALSE(c.configs.empty() || c.stage.empty()) << "the file must name its configs and stage";
    ASSERT_TRUE(oracle::parse_stage(c.stage)) << "not a stage: " << c.stage;
    auto result = run_cudiff({"check", c.file.string(), "--mode", "run", "--json", "--config", c.configs}, 600);
    ASSERT_EQ(result.exit_code, 1) << "the case shows no finding:\n" << result.out.text << result.err.text;
    const boost::json::value json = boost::json::parse(result.out.text);
    const auto& findings = json.at("verdict").at("findings").as_array();
    ASSERT_EQ(findings.size(), 1u) << result.out.text;
    const auto& details = findings[0].at("details").as_object();
    ASSERT_TRUE(details.contains("stage_evidence")) << result.out.text;
    std::printf("%s: %s (%s)\n%s\n", c.file.filename().c_str(), std::string(details.at("stage").as_string()).c_str(),
                std::string(details.at("stage_why").as_string()).c_str(),
                boost::json::serialize(details.at("stage_evidence")).c_str());
    EXPECT_EQ(details.at("stage").as_string(), c.stage) << details.at("stage_why");
  }
}

// The mechanism the recorded ptxas cases rest on, checked on its own: ptxas -O3 fuses the PTX
// mul/add (2^-24), ptxas -O0 does not (0). If this fails, the cases above test nothing.
TEST(GpuStages, PtxasLevelDecidesTheContractionTheCasesRestOn) {
  CUDIFF_SKIP_WITHOUT_GPU();
  const auto file = source_dir() / "tests" / "gpu" / "data" / "attribution" / "ptxas_contracts_inline_mul_add.cu";
  auto result = run_cudiff(
      {"check", file.string(), "--mode", "run", "--json", "--no-attribution", "--config", "nvcc-O3,nvcc-O3-ptxas0"});
  ASSERT_EQ(result.exit_code, 1) << result.out.text << result.err.text;
  const boost::json::value json = boost::json::parse(result.out.text);  // kept: configs refers into it
  const auto& configs = json.at("configs").as_array();
  ASSERT_EQ(configs.size(), 2u) << result.out.text;
  EXPECT_EQ(configs.at(0).at("run").at("output_lines").at(0).as_string(), "checksum mul_add 33800000");
  EXPECT_EQ(configs.at(1).at("run").at("output_lines").at(0).as_string(), "checksum mul_add 00000000");
}

} // namespace
} // namespace cudiff
