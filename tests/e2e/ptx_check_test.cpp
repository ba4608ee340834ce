// End-to-end: `cudiff check FILE.ptx` with the real ptxas and no GPU needed (object mode): every
// level assembled, a .target for another GPU rewritten, a module ptxas rejects, and bad input.
#include "pipeline/pipeline.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

namespace {

using namespace cudiff;
using test::contains;

std::string ptx(const std::string& name) { return test::data("e2e/data/ptx/" + name).string(); }

TEST(PtxCheckE2E, EveryPtxasLevelAssemblesTheModuleInObjectMode) {
  const runners::SubprocessResult result = test::run_cudiff(
      {"check", ptx("store_tid.ptx"), "--mode", "object", "--arch", "sm_90", "--json"});
  ASSERT_EQ(result.exit_code, 0) << result.out.text << result.err.text;
  const boost::json::object check = boost::json::parse(result.out.text).as_object();
  const boost::json::array& configs = check.at("configs").as_array();
  ASSERT_EQ(configs.size(), 4u) << result.out.text;
  for (std::size_t i = 0; i < configs.size(); ++i) {
    const std::string text = boost::json::serialize(configs[i]);
    EXPECT_TRUE(contains(text, "\"ptxas-O" + std::to_string(i) + "\"")) << text;
    EXPECT_TRUE(contains(text, "-arch=sm_90")) << text;
    EXPECT_TRUE(contains(text, "\"accepted\"")) << text;
  }
  // sm_103's .target is rewritten for sm_90 (ptxas refuses a target above the one it builds for).
  EXPECT_TRUE(contains(result.out.text, ".target sm_103 rewritten to sm_90")) << result.out.text;
}

TEST(PtxCheckE2E, TheTableNamesTheLevelsAndWhyNothingRan) {
  const runners::SubprocessResult result = test::run_cudiff(
      {"check", ptx("store_tid.ptx"), "--launch", ptx("store_tid.json"), "--mode", "object", "--arch", "sm_90"});
  ASSERT_EQ(result.exit_code, 0) << result.out.text << result.err.text;
  for (const char* level : {"ptxas-O0", "ptxas-O1", "ptxas-O2", "ptxas-O3"})
    EXPECT_TRUE(contains(result.out.text, level)) << result.out.text;
  EXPECT_TRUE(contains(result.out.text, "nothing run")) << result.out.text;
  EXPECT_TRUE(contains(result.out.text, "verdict: agree")) << result.out.text;
}

TEST(PtxCheckE2E, AModulePtxasRejectsAtEveryLevelIsAgreement) {
  const runners::Toolchain toolchain = runners::Toolchain::from(runners::discover_toolchain(test::toolchain_search()));
  TempDir dir("cudiff-ptx-check");
  pipeline::PtxCheckRequest request;
  request.file = ptx("rejected.ptx");
  request.mode = runners::Mode::object;
  const pipeline::TestCheck run = pipeline::check_ptx(request, toolchain, runners::GpuDiscovery{{}, "test"},
                                                      dir.path());
  ASSERT_EQ(run.configs.size(), 4u);
  for (const pipeline::ConfigCheck& check : run.configs) {
    EXPECT_EQ(check.observation.outcome, oracle::CompileOutcome::rejected) << check.compile.config.name;
    ASSERT_NE(check.observation.first_error(), nullptr) << check.compile.process.err.text;
    EXPECT_EQ(check.observation.first_error()->tool, oracle::Tool::ptxas) << check.compile.process.err.text;
  }
  EXPECT_TRUE(run.verdict.agree()) << run.verdict.headline();
  // Without --arch or a GPU, the module's own target.
  EXPECT_TRUE(contains(run.configs.front().compile.command.display(), "-arch=sm_90"));
}

// A ptxas that fails at one level only (a fake, in a CUDA home of its own), by crashing or by
// rejecting: the same PTX accepted at the other levels, so it is ptxas failing, a crash at stage
// ptxas naming that level.
TEST(PtxCheckE2E, ALevelThatFailsAloneIsAPtxasCrash) {
  const std::pair<const char*, oracle::CompileOutcome> failures[] = {
      {"ptxas fatal   : (C7907) Internal compiler error", oracle::CompileOutcome::crashed},
      {"ptxas store_tid.ptx, line 9; error   : Unknown symbol 'x'", oracle::CompileOutcome::rejected}};
  for (const auto& [message, outcome] : failures) {
    TempDir home("cudiff-fake-cuda");
    std::filesystem::create_directories(home.path() / "bin");
    const auto ptxas = home.path() / "bin" / "ptxas";
    write_file(ptxas, std::string("#!/bin/sh\nfor a in \"$@\"; do [ \"$a\" = -O2 ] && { echo \"") + message +
                          "\" >&2; exit 255; }; done\n"
                          "while [ $# -gt 0 ]; do [ \"$1\" = -o ] && : > \"$2\"; shift; done\n");
    std::filesystem::permissions(ptxas, std::filesystem::perms::owner_all);
    runners::Toolchain toolchain;
    toolchain.cuda_home = home.path();
    TempDir dir("cudiff-ptx-check");
    pipeline::PtxCheckRequest request;
    request.file = ptx("store_tid.ptx");
    const pipeline::TestCheck run = pipeline::check_ptx(request, toolchain, runners::GpuDiscovery{{}, "test"},
                                                        dir.path());
    ASSERT_EQ(run.verdict.findings.size(), 1u) << message << ": " << run.verdict.headline();
    const oracle::Finding& finding = run.verdict.findings.front();
    EXPECT_EQ(finding.kind, oracle::FindingKind::crash) << finding.summary;
    EXPECT_EQ(finding.details.at("stage").as_string(), "ptxas");
    EXPECT_TRUE(contains(std::string(finding.details.at("stage_why").as_string()), "ptxas-O2")) << finding.details;
    EXPECT_EQ(run.configs[1].observation.outcome, oracle::CompileOutcome::accepted);
    EXPECT_EQ(run.configs[2].observation.outcome, outcome) << message;
  }
}

TEST(PtxCheckE2E, RetargetingTouchesOnlyTheTargetsArchitecture) {
  EXPECT_EQ(pipeline::ptx_target(".version 8.8\n  .target sm_103a, texmode_independent\n"), "sm_103a");
  EXPECT_EQ(pipeline::retarget_ptx(".version 8.8\n.target sm_103a, debug\n// sm_103a\n", "sm_90"),
            ".version 8.8\n.target sm_90, debug\n// sm_103a\n");
  EXPECT_EQ(pipeline::retarget_ptx(".version 8.8\n.target sm_90\n", "sm_90"), ".version 8.8\n.target sm_90\n");
  EXPECT_EQ(pipeline::ptx_target("no target"), "");
  // A module for an older GPU is assembled as written: ptxas takes a lower target for a newer GPU.
  EXPECT_EQ(pipeline::retarget_ptx(".version 7.0\n.target sm_80\n", "sm_90"), ".version 7.0\n.target sm_80\n");
  EXPECT_FALSE(pipeline::needs_retarget(".version 7.0\n.target sm_80\n", "sm_90"));
  // Lowered to an older GPU, an old version is raised to the first that has the new target.
  EXPECT_EQ(pipeline::retarget_ptx(".version 7.0\n.target sm_100\n", "sm_90"), ".version 7.8\n.target sm_90\n");
  EXPECT_EQ(pipeline::retarget_ptx(".version 8.8\n.target sm_90a\n", "sm_90"), ".version 8.8\n.target sm_90\n");
}

TEST(PtxCheckE2E, AModuleForAnOlderGpuAssemblesAtEveryLevelAsWritten) {
  // m001's form: .version 7.0 for sm_80, checked for sm_90. Rewriting its target to sm_90 would make
  // every ptxas level reject it ("PTX .version 7.0 does not support .target sm_90"): a false crash.
  TempDir dir("cudiff-ptx-older");
  const auto file = dir.path() / "older.ptx";
  write_file(file, ".version 7.0\n.target sm_80\n.address_size 64\n"
                   ".visible .entry k(.param .u64 out)\n{\n  .reg .b64 %rd<2>;\n  .reg .b32 %r<2>;\n"
                   "  ld.param.u64 %rd0, [out];\n  cvta.to.global.u64 %rd1, %rd0;\n  mov.u32 %r0, %tid.x;\n"
                   "  st.global.u32 [%rd1], %r0;\n  ret;\n}\n");
  const runners::Toolchain toolchain = runners::Toolchain::from(runners::discover_toolchain(test::toolchain_search()));
  pipeline::PtxCheckRequest request;
  request.file = file;
  request.arch = "sm_90";
  request.mode = runners::Mode::object;
  const pipeline::TestCheck run = pipeline::check_ptx(request, toolchain, runners::GpuDiscovery{{}, "test"},
                                                      dir.path() / "work");
  ASSERT_EQ(run.configs.size(), 4u);
  for (const pipeline::ConfigCheck& check : run.configs)
    EXPECT_EQ(check.observation.outcome, oracle::CompileOutcome::accepted)
        << check.compile.config.name << ": " << check.compile.process.err.text;
  EXPECT_TRUE(run.verdict.agree()) << run.verdict.headline();
  for (const std::string& note : run.notes) EXPECT_FALSE(contains(note, "rewritten")) << note;
}

TEST(PtxCheckE2E, BadInputIsOneLineAndExitTwo) {
  TempDir dir("cudiff-ptx-bad");
  write_file(dir.path() / "bad.json", R"({"kernel": "fuzz_kernel", "block": [2048]})");
  const std::vector<std::vector<std::string>> cases = {
      {"check", ptx("store_tid.ptx"), "--launch", (dir.path() / "bad.json").string()},
      {"check", ptx("store_tid.ptx"), "--mode", "run"},  // run needs a description
      {"check", ptx("store_tid.ptx"), "--mode", "ptx"},
      {"check", ptx("store_tid.ptx"), "--config", "nvcc-O3"},
      {"check", (test::source_dir() / "examples" / "vector_add.cu").string(), "--launch", ptx("store_tid.json")},
  };
  for (const auto& args : cases) {
    const runners::SubprocessResult result = test::run_cudiff(args);
    EXPECT_EQ(result.exit_code, 2) << join(args, " ") << "\n" << result.out.text << result.err.text;
    EXPECT_EQ(test::count_lines(result.err.text), 1u) << join(args, " ") << "\n" << result.err.text;
  }
}

} // namespace
