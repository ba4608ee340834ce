// The device path's rules without a compiler: which tests it may build, which configs share a
// front end, and that a ptxas that failed reads as it does under its driver.
#include "oracle/oracle.h"
#include "pipeline/pipeline.h"

#include <gtest/gtest.h>

namespace cudiff {
namespace {

runners::Toolchain toolchain() {
  runners::Toolchain made;
  made.nvcc = {runners::CompilerKind::nvcc, "/usr/local/cuda/bin/nvcc", "13.0.88", ""};
  made.clang = {runners::CompilerKind::clang, "/usr/bin/clang++-22", "22.1.8", ""};
  made.cuda_home = "/usr/local/cuda";
  return made;
}

pipeline::TestInput harness_only() {
  pipeline::TestInput input;
  input.name = "t.cu";
  input.source = "__global__ void k(unsigned* o) { *o = 1; }\nint main() { return 0; }\n";
  input.sidecar.emplace();
  input.sidecar->kernels = std::vector<generator::Sidecar::Kernel>{{"kernel_0", {1, 1, 1}, {32, 1, 1}, 0, ""}};
  return input;
}

TEST(DevicePathRules, OnlyAGeneratedHarnessWithNothingToRunMayBeBuiltDeviceOnly) {
  const pipeline::TestInput input = harness_only();
  EXPECT_EQ(pipeline::whole_build_reason(input, runners::Mode::binary, false), "");
  EXPECT_EQ(pipeline::whole_build_reason(input, runners::Mode::run, false), "");
  EXPECT_NE(pipeline::whole_build_reason(input, runners::Mode::run, true), "");
  EXPECT_NE(pipeline::whole_build_reason(input, runners::Mode::object, false), "");

  pipeline::TestInput plain = input;
  plain.sidecar.reset();
  EXPECT_NE(pipeline::whole_build_reason(plain, runners::Mode::binary, false), "");

  pipeline::TestInput layout = input;
  layout.sidecar->layout_probes = std::vector<generator::Sidecar::LayoutProbe>{
      {"T", "cudiff_layout_T", {"sizeof"}, {}}};
  EXPECT_EQ(pipeline::whole_build_reason(layout, runners::Mode::binary, false), "layout probes (host views)");

  // One test of a batch using extended lambdas makes the whole batch need its host code.
  pipeline::TestInput batch = input;
  generator::Sidecar test;
  test.constructs_used = std::vector<generator::Sidecar::Construct>{{"extended_lambda", {}}};
  batch.sidecar->batch = generator::Sidecar::Batch{{1}, {test}};
  EXPECT_EQ(pipeline::whole_build_reason(batch, runners::Mode::binary, false), "construct extended_lambda");

  pipeline::TestInput managed = input;
  managed.source = "__managed__ int x;\n" + managed.source;
  EXPECT_EQ(pipeline::whole_build_reason(managed, runners::Mode::binary, false), "managed memory");
}

TEST(DevicePathRules, ConfigsThatDifferOnlyInPtxasShareAFrontEnd) {
  const auto config = [](const char* name) { return runners::parse_configs(name).front(); };
  const runners::Toolchain tools = toolchain();
  EXPECT_EQ(runners::front_end_key(tools, config("nvcc-O3")), runners::front_end_key(tools, config("nvcc-O3-ptxas0")));
  EXPECT_EQ(runners::front_end_key(tools, config("clang-O3")),
            runners::front_end_key(tools, config("clang-O3-ptxas0")));
  EXPECT_NE(runners::front_end_key(tools, config("clang-O3")), runners::front_end_key(tools, config("clang-O0")));
  EXPECT_NE(runners::front_end_key(tools, config("nvcc-O3")), runners::front_end_key(tools, config("clang-O3")));
  // The cicc-lowered twin makes other PTX: a front end of its own, then ptxas at -O3.
  EXPECT_NE(runners::front_end_key(tools, config("nvcc-O3")), runners::front_end_key(tools, config("nvcc-O3-cicc0")));
  EXPECT_TRUE(runners::device_buildable(config("nvcc-O3-cicc0")));
  EXPECT_EQ(runners::ptxas_command(tools, config("nvcc-O3-cicc0"), "a.ptx", "a.cubin").argv[3], "-O3");
  EXPECT_TRUE(runners::device_buildable(config("nvcc-O0")));
  EXPECT_FALSE(runners::device_buildable(config("nvcc-O3-jit")));
  EXPECT_FALSE(runners::device_buildable(config("nvcc-O3-rdc")));
  EXPECT_FALSE(runners::device_buildable(config("clang-O3-rdc")));
  EXPECT_FALSE(runners::device_buildable(config("nvcc-G")));
}

TEST(DevicePathRules, PtxasGetsTheLevelsItsDriverGivesIt) {
  const runners::Toolchain tools = toolchain();
  const auto argv = [&](const char* name) {
    return runners::ptxas_command(tools, runners::parse_configs(name).front(), "a.ptx", "a.cubin").argv;
  };
  EXPECT_EQ(argv("nvcc-O3-ptxas0"), (std::vector<std::string>{"/usr/local/cuda/bin/ptxas", "-arch=sm_90", "-m64", "-O0",
                                                              "a.ptx", "-o", "a.cubin"}));
  // clang passes its own level first and the config's after it, as `clang -###` shows.
  EXPECT_EQ(argv("clang-O3-ptxas0"), (std::vector<std::string>{"/usr/local/cuda/bin/ptxas", "-m64", "-O3", "--gpu-name",
                                                               "sm_90", "--output-file", "a.cubin", "a.ptx", "-O0"}));
  EXPECT_EQ(argv("clang-O0")[2], "-O0");
}

/// A device-path result for `config` whose ptxas ended as `ptxas` says.
runners::CompileResult assembled(const char* config_name, runners::SubprocessResult ptxas) {
  runners::CompileResult result;
  result.config = runners::parse_configs(config_name).front();
  result.mode = runners::Mode::cubin;
  result.process = runners::as_driver_reports(result.config, toolchain(), ptxas);
  return result;
}

TEST(DevicePathRules, APtxasKilledByASignalIsACrashOfPtxasUnderEitherDriver) {
  runners::SubprocessResult killed;
  killed.started = true;
  killed.signal = 11;
  for (const char* config : {"nvcc-O3", "clang-O3"}) {
    const oracle::CompileObservation observation = oracle::observe_compile(assembled(config, killed));
    EXPECT_EQ(observation.outcome, oracle::CompileOutcome::crashed) << config;
    ASSERT_TRUE(observation.crash) << config;
    EXPECT_EQ(observation.crash->stage, "ptxas") << config;
  }
}

TEST(DevicePathRules, AnOrdinaryPtxasErrorIsARejectionWithItsDriversWords) {
  runners::SubprocessResult rejected;
  rejected.started = true;
  rejected.exit_code = 255;
  rejected.err.text = "ptxas a.ptx, line 26; error   : Not a name of any known instruction: 'frobnicate'\n"
                      "ptxas fatal   : Ptx assembly aborted due to errors\n";
  const runners::CompileResult clang = assembled("clang-O3", rejected);
  EXPECT_NE(clang.process.err.text.find("clang++-22: error: ptxas command failed with exit code 255"),
            std::string::npos);
  for (const char* config : {"nvcc-O3", "clang-O3"}) {
    const oracle::CompileObservation observation = oracle::observe_compile(assembled(config, rejected));
    EXPECT_EQ(observation.outcome, oracle::CompileOutcome::rejected) << config;
  }
}

TEST(DevicePathRules, BuildPathsAreNamedAsTheFlagTakesThem) {
  EXPECT_EQ(pipeline::parse_build_path("device"), pipeline::BuildPath::device);
  EXPECT_EQ(pipeline::parse_build_path("whole"), pipeline::BuildPath::whole);
  EXPECT_FALSE(pipeline::parse_build_path("both"));
  EXPECT_EQ(pipeline::to_string(pipeline::BuildPath::whole), "whole");
}

} // namespace
} // namespace cudiff
