// End-to-end with the real nvcc and clang-22: every preset builds and links a real program, and
// the compile-side stages of stage attribution come out of real compiler output.
#include "pipeline/pipeline.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

using cudiff::test::contains;
using cudiff::test::run_cudiff;
using cudiff::test::source_dir;

namespace cudiff {
namespace {

std::string example(const std::string& name) { return (source_dir() / "examples" / name).string(); }
std::filesystem::path stages_data(const std::string& name) {
  return source_dir() / "tests" / "e2e" / "data" / "stages" / name;
}

std::vector<std::string> preset_names() {
  std::vector<std::string> names;
  for (const runners::Config& config : runners::preset_configs()) names.push_back(config.name);
  return names;
}

// Every preset, the JIT, rdc and other-architecture ones included, builds and links a real
// program (binary mode, no GPU needed). The builds run in parallel, one thread per config.
TEST(StagesE2E, EveryPresetBuildsAndLinksARealProgram) {
  const std::vector<std::string> names = preset_names();
  const double seconds = test::seconds_of([&] {
    // Fifteen builds at once: on a loaded machine one may pass the default 300 s, which would
    // only rebuild it as a hang candidate (docs/architecture.md, "Oracles" 4).
    auto result = run_cudiff({"check", example("vector_add.cu"), "--mode", "binary", "--json", "--timeout", "900",
                              "--config", join(names, ",")},
                             1200);
    ASSERT_EQ(result.exit_code, 0) << result.out.text << result.err.text;
    const boost::json::value json = boost::json::parse(result.out.text);
    const auto& configs = json.at("configs").as_array();
    ASSERT_EQ(configs.size(), names.size());
    for (std::size_t i = 0; i < configs.size(); ++i) {
      EXPECT_EQ(configs[i].at("config").as_string(), names[i]);
      EXPECT_EQ(configs[i].at("observation").at("outcome").as_string(), "accepted") << names[i] << ":\n"
                                                                                    << result.out.text;
    }
  });
  // About a minute on 2 idle cores (the builds run in parallel); printed, not asserted: a
  // loaded machine is slower.
  std::printf("%zu presets built and linked in %.1f s\n", names.size(), seconds);
}

// nvcc -G used to fail on every program ("libnvvm : error: -opt defined more than once").
TEST(StagesE2E, NvccDeviceDebugBuildsAgain) {
  auto result = run_cudiff({"check", example("vector_add.cu"), "--mode", "binary", "--config", "nvcc-G,nvcc-O3"});
  EXPECT_EQ(result.exit_code, 0) << result.out.text << result.err.text;
  EXPECT_FALSE(contains(result.out.text, "defined more than once")) << result.out.text;
}

TEST(StagesE2E, HelpShowsTheDefaultConfigRule) {
  for (const char* command : {"check", "fuzz"}) {
    auto result = run_cudiff({command, "--help"}, 60);
    EXPECT_EQ(result.exit_code, 0) << result.err.text;
    EXPECT_TRUE(contains(result.out.text, "default nvcc-O3,clang-O3; with a GPU and a mode that runs, the cross-level "
                                          "set nvcc-O3,clang-O3,nvcc-O3-ptxas0,clang-O0"))
        << command << ":\n"
        << result.out.text;
  }
}

class CompileStages : public ::testing::Test {
protected:
  runners::Toolchain toolchain = runners::Toolchain::from(runners::discover_toolchain({}));
  runners::GpuDiscovery no_gpu{{}, "not needed"};

  /// `file` checked as an object file by nvcc-O3 and clang-O3; with `must_accept`, judged as a
  /// generated program is (every rejection is a false rejection).
  pipeline::TestCheck check(const std::filesystem::path& file, bool must_accept) {
    pipeline::CheckRequest request;
    request.input = pipeline::file_input(file);
    request.mode = runners::Mode::object;
    request.configs = runners::default_configs();
    if (must_accept) request.expected = oracle::Expectation{};
    return pipeline::check_test(request, toolchain, no_gpu, dir.path());
  }

  pipeline::StageAttribution attribute(const pipeline::TestCheck& run, const oracle::Finding& finding) {
    pipeline::AttributionRequest request;
    request.input = pipeline::file_input(run.file);
    request.crash_output = pipeline::crash_output(run, finding);
    return pipeline::attribute_stage(finding, request, toolchain, no_gpu, dir.path() / "attribution");
  }

  TempDir dir{"cudiff-stages-e2e"};
};

TEST_F(CompileStages, AnInvalidInlinePtxInstructionIsRejectedByPtxas) {
  const pipeline::TestCheck run = check(stages_data("ptxas_rejects_inline_asm.cu"), true);
  ASSERT_EQ(run.verdict.findings.size(), 1u) << run.verdict.headline();
  oracle::Finding finding = run.verdict.findings.front();
  ASSERT_EQ(finding.kind, oracle::FindingKind::false_rejection) << finding.summary;
  const pipeline::StageAttribution attribution = attribute(run, finding);
  EXPECT_EQ(attribution.stage, oracle::Stage::ptxas) << attribution.why << "\n" << finding.summary;
  EXPECT_EQ(attribution.builds, 0u);  // the tool that spoke says it; nothing is rebuilt
  pipeline::record_stage(finding, attribution);
  EXPECT_EQ(finding.details.at("stage").as_string(), "ptxas");
  const auto& evidence = finding.details.at("stage_evidence").as_array();
  ASSERT_EQ(evidence.size(), 1u);
  EXPECT_TRUE(contains(std::string(evidence[0].at("line").as_string()), "frobnicate")) << evidence[0];
}

TEST_F(CompileStages, AnUndeclaredNameIsRejectedByTheFrontEnd) {
  const pipeline::TestCheck run = check(stages_data("frontend_rejects_undeclared.cu"), true);
  ASSERT_EQ(run.verdict.findings.size(), 1u) << run.verdict.headline();
  const pipeline::StageAttribution attribution = attribute(run, run.verdict.findings.front());
  EXPECT_EQ(attribution.stage, oracle::Stage::frontend) << attribution.why;
}

// A real clang-22 crash: the NVPTX backend cannot select a thread-local address.
TEST_F(CompileStages, ClangsBackendCrashIsDeviceCodegen) {
  const pipeline::TestCheck run = check(example("clang_thread_local_device_crash.cu"), false);
  const auto crash = std::ranges::find_if(run.verdict.findings, [](const oracle::Finding& finding) {
    return finding.kind == oracle::FindingKind::crash;
  });
  ASSERT_NE(crash, run.verdict.findings.end()) << run.verdict.headline();
  oracle::Finding finding = *crash;
  const pipeline::StageAttribution attribution = attribute(run, finding);
  EXPECT_EQ(attribution.stage, oracle::Stage::device_codegen) << attribution.why;
  pipeline::record_stage(finding, attribution);
  EXPECT_EQ(finding.details.at("stage").as_string(), "device-codegen");
  EXPECT_EQ(finding.details.at("tool").as_string(), "clang");  // what crashed stays on record
}

} // namespace
} // namespace cudiff
