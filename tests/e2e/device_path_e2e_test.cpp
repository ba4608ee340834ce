// The device path with the real nvcc and clang-22: a generated batch built with each front end
// once and ptxas per config judges as the whole build does, a test with host code is built
// whole, and ptxas's rejection reads, and is keyed and attributed, as in a whole build.
#include "pipeline/pipeline.h"
#include "support/harness_only.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

using cudiff::test::contains;
using cudiff::test::run_cudiff;
using cudiff::test::source_dir;

namespace cudiff {
namespace {

using test::harness_only_policy;

class DevicePath : public ::testing::Test {
protected:
  runners::Toolchain toolchain = runners::Toolchain::from(runners::discover_toolchain({}));
  runners::GpuDiscovery no_gpu{{}, "not needed"};
  TempDir dir{"cudiff-device-path-e2e"};

  pipeline::TestCheck check(const pipeline::TestInput& input, pipeline::BuildPath path, const std::string& where,
                            std::vector<runners::Config> configs = runners::cross_level_configs()) {
    pipeline::CheckRequest request;
    request.input = input;
    request.mode = runners::Mode::binary;
    request.configs = std::move(configs);
    request.build_path = path;
    request.attribute_stages = true;
    return pipeline::check_test(request, toolchain, no_gpu, dir.path() / where);
  }
};

bool noted(const pipeline::TestCheck& run, const std::string& text) {
  return std::ranges::any_of(run.notes, [&](const std::string& note) { return contains(note, text); });
}

TEST_F(DevicePath, AGeneratedBatchSharesEachFrontEndAndJudgesAsTheWholeBuild) {
  const generator::TestCase test = generator::generate_batch(harness_only_policy(), {11, 12}, generator::Size::small);
  const pipeline::TestInput input{test.name + ".cu", test.source, std::nullopt, test.sidecar, {}, {}};
  const pipeline::TestCheck device = check(input, pipeline::BuildPath::device, "device");
  ASSERT_TRUE(noted(device, "device path")) << join(device.notes, "\n");
  ASSERT_EQ(device.configs.size(), 4u);  // nvcc-O3, clang-O3, nvcc-O3-ptxas0, clang-O0
  for (const pipeline::ConfigCheck& config : device.configs) {
    EXPECT_EQ(config.observation.outcome, oracle::CompileOutcome::accepted) << config.compile.config.name << ":\n"
                                                                            << config.compile.process.err.text;
    EXPECT_EQ(config.compile.artifact.extension(), ".cubin") << config.compile.config.name;
    EXPECT_FALSE(config.compile.front_end.argv.empty()) << config.compile.config.name;
  }
  // nvcc-O3 and nvcc-O3-ptxas0 assemble one PTX; clang-O3 and clang-O0 have one each.
  EXPECT_EQ(device.configs[0].ptx, device.configs[2].ptx);
  EXPECT_NE(device.configs[1].ptx, device.configs[3].ptx);
  EXPECT_NE(device.configs[0].ptx, device.configs[1].ptx);
  const auto& ptxas0 = device.configs[2].compile.command.argv;
  EXPECT_NE(std::ranges::find(ptxas0, "-O0"), ptxas0.end()) << device.configs[2].compile.command.display();
  EXPECT_TRUE(device.verdict.agree()) << device.verdict.headline();

  const pipeline::TestCheck whole = check(input, pipeline::BuildPath::whole, "whole");
  EXPECT_FALSE(noted(whole, "device path"));
  EXPECT_TRUE(whole.verdict.agree()) << whole.verdict.headline();
  for (const pipeline::ConfigCheck& config : whole.configs) EXPECT_TRUE(config.compile.front_end.argv.empty());

  // A report carries the whole-program command, with the two steps beside it.
  const boost::json::object outputs = pipeline::outputs_json(device);
  const auto& first = outputs.at("configs").as_array()[0].as_object();
  EXPECT_FALSE(contains(std::string(first.at("command").as_string()), "-ptx")) << first;
  EXPECT_TRUE(contains(std::string(first.at("command").as_string()), test.name + ".cu")) << first;
  EXPECT_TRUE(contains(std::string(first.at("device_path").at("front_end").as_string()), "-ptx")) << first;
  EXPECT_TRUE(contains(std::string(first.at("device_path").at("ptxas").as_string()), "ptxas")) << first;
}

// nvcc-O3-cicc0 with the real nvcc: its own front end (cicc -O0), other PTX than nvcc-O3's,
// assembled by ptxas at -O3 as nvcc-O3's is; the generated program agrees under all three.
TEST_F(DevicePath, TheCiccLoweredTwinHasItsOwnPtxAndKeepsPtxasAtO3) {
  const generator::TestCase test = generator::generate_batch(harness_only_policy(), {21}, generator::Size::small);
  const pipeline::TestInput input{test.name + ".cu", test.source, std::nullopt, test.sidecar, {}, {}};
  const pipeline::TestCheck device = check(input, pipeline::BuildPath::device, "cicc",
                                           runners::parse_configs("nvcc-O3,nvcc-O3-cicc0,nvcc-O3-ptxas0"));
  ASSERT_TRUE(noted(device, "device path")) << join(device.notes, "\n");
  ASSERT_EQ(device.configs.size(), 3u);
  for (const pipeline::ConfigCheck& config : device.configs)
    ASSERT_EQ(config.observation.outcome, oracle::CompileOutcome::accepted) << config.compile.config.name << ":\n"
                                                                            << config.compile.process.err.text;
  const pipeline::ConfigCheck& lowered = device.configs[1];
  EXPECT_TRUE(contains(lowered.compile.front_end.display(), "-Xcicc -O0")) << lowered.compile.front_end.display();
  const auto& ptxas = lowered.compile.command.argv;
  EXPECT_NE(std::ranges::find(ptxas, "-O3"), ptxas.end()) << lowered.compile.command.display();
  EXPECT_EQ(device.configs[0].ptx, device.configs[2].ptx);
  ASSERT_NE(device.configs[0].ptx, lowered.ptx);
  EXPECT_NE(read_file(device.configs[0].ptx), read_file(lowered.ptx)) << "cicc -O0 changed nothing in the PTX";
  EXPECT_TRUE(device.verdict.agree()) << device.verdict.headline();
}

TEST_F(DevicePath, AProgramWithHostCodeIsBuiltWhole) {
  // Most of the default policy's programs carry layout probes, whose host views need the binary:
  // the first seed's that does.
  generator::TestCase test;
  for (std::uint64_t seed = 1; seed < 50 && !(test.sidecar.layout_probes && !test.sidecar.layout_probes->empty());
       ++seed)
    test = generator::generate_program(generator::Policy::defaults(), seed, generator::Size::small);
  ASSERT_TRUE(test.sidecar.layout_probes && !test.sidecar.layout_probes->empty());
  const pipeline::TestInput input{test.name + ".cu", test.source, std::nullopt, test.sidecar, {}, {}};
  const pipeline::TestCheck run = check(input, pipeline::BuildPath::device, "host", runners::default_configs());
  EXPECT_TRUE(noted(run, "whole-program build: layout probes")) << join(run.notes, "\n");
  for (const pipeline::ConfigCheck& config : run.configs) EXPECT_TRUE(config.ptx.empty());
}

TEST_F(DevicePath, PtxasRejectingInlinePtxIsKeyedAndAttributedAsInTheWholeBuild) {
  pipeline::TestInput input = pipeline::file_input(source_dir() / "tests" / "e2e" / "data" / "stages" /
                                                   "ptxas_rejects_inline_asm.cu");
  // A sidecar naming its kernel makes it a harness-only test, which the device path builds.
  input.sidecar.emplace();
  input.sidecar->kernels = std::vector<generator::Sidecar::Kernel>{{"kernel", {1, 1, 1}, {32, 1, 1}, 0, ""}};
  input.sidecar->expected_verdict = generator::Sidecar::Verdict::accept;
  const pipeline::TestCheck device = check(input, pipeline::BuildPath::device, "device", runners::default_configs());
  const pipeline::TestCheck whole = check(input, pipeline::BuildPath::whole, "whole", runners::default_configs());
  ASSERT_TRUE(noted(device, "device path")) << join(device.notes, "\n");
  ASSERT_EQ(device.verdict.findings.size(), 1u) << device.verdict.headline();
  ASSERT_EQ(whole.verdict.findings.size(), 1u) << whole.verdict.headline();
  EXPECT_EQ(device.verdict.findings[0].kind, oracle::FindingKind::false_rejection);
  EXPECT_EQ(device.verdict.findings[0].details.at("stage").as_string(), "ptxas");
  for (std::size_t i = 0; i < device.configs.size(); ++i)
    EXPECT_EQ(device.configs[i].observation.outcome, oracle::CompileOutcome::rejected)
        << device.configs[i].compile.process.err.text;
  const std::vector<triage::Signature> device_keys = pipeline::signatures_of(device);
  const std::vector<triage::Signature> whole_keys = pipeline::signatures_of(whole);
  ASSERT_EQ(device_keys.size(), 1u);
  ASSERT_EQ(whole_keys.size(), 1u);
  EXPECT_EQ(device_keys[0].key, whole_keys[0].key) << device_keys[0].symptom << "\n---\n" << whole_keys[0].symptom;
}

/// Whether `check` says it took another config's build (build_sharing_front_end_rejections).
bool shared(const pipeline::ConfigCheck& check) { return contains(check.note, "'s build, shared"); }

TEST_F(DevicePath, AnEdgeProgramsFrontEndRejectionIsSharedByItsPtxasTwinOnly) {
  const generator::TestCase test = generator::violation_alone("R-CONSTEXPR-FN-XSPACE");
  const pipeline::TestInput input{test.name + ".cu", test.source, std::nullopt, test.sidecar, {}, {}};
  pipeline::CheckRequest request;
  request.input = input;
  request.mode = runners::Mode::object;
  request.configs = runners::cross_level_configs();  // nvcc-O3, clang-O3, nvcc-O3-ptxas0, clang-O0
  request.build_path = pipeline::BuildPath::device;
  const pipeline::TestCheck device = pipeline::check_test(request, toolchain, no_gpu, dir.path() / "device");
  request.build_path = pipeline::BuildPath::whole;
  const pipeline::TestCheck whole = pipeline::check_test(request, toolchain, no_gpu, dir.path() / "whole");
  ASSERT_EQ(device.configs.size(), 4u);
  ASSERT_EQ(device.configs[0].observation.outcome, oracle::CompileOutcome::rejected)
      << device.configs[0].compile.process.err.text;
  EXPECT_FALSE(shared(device.configs[0]));
  EXPECT_TRUE(shared(device.configs[2])) << device.configs[2].note;
  EXPECT_EQ(device.configs[2].observation.config, "nvcc-O3-ptxas0");
  EXPECT_FALSE(shared(device.configs[1]));  // clang's levels are front-end flags: two front ends
  EXPECT_FALSE(shared(device.configs[3]));
  // What the whole path's own build of the twin observed.
  EXPECT_EQ(device.configs[2].observation.outcome, whole.configs[2].observation.outcome);
  const auto said = [](const pipeline::ConfigCheck& check) {  // the file's path is each build's own
    std::vector<std::string> lines;
    for (const oracle::Diagnostic& d : check.observation.diagnostics)
      lines.push_back(d.id + ":" + std::to_string(d.line) + ": " + d.message);
    return lines;
  };
  EXPECT_EQ(said(device.configs[2]), said(whole.configs[2]));
  EXPECT_FALSE(said(device.configs[2]).empty());
  for (const pipeline::ConfigCheck& config : whole.configs) EXPECT_FALSE(shared(config));
  EXPECT_EQ(device.verdict.headline(), whole.verdict.headline());
  const std::vector<triage::Signature> device_keys = pipeline::signatures_of(device);
  const std::vector<triage::Signature> whole_keys = pipeline::signatures_of(whole);
  ASSERT_EQ(device_keys.size(), whole_keys.size());
  for (std::size_t i = 0; i < device_keys.size(); ++i) EXPECT_EQ(device_keys[i].key, whole_keys[i].key);
}

TEST_F(DevicePath, AnEdgeProgramThatPtxasRejectsOrNoneRejectsBuildsEveryTwin) {
  // ptxas's rejection (an inline PTX instruction it refuses) may depend on its level; an
  // accepted program builds each level's cubin.
  generator::TestCase edge = generator::violation_alone("R-CONSTEXPR-FN-XSPACE");
  for (const std::string& source :
       {read_file(source_dir() / "tests" / "e2e" / "data" / "stages" / "ptxas_rejects_inline_asm.cu"),
        std::string("__global__ void kernel(int* out) { out[threadIdx.x] = 1; }\n")}) {
    pipeline::CheckRequest request;
    request.input = pipeline::TestInput{"edge.cu", source, std::nullopt, edge.sidecar, {}, {}};
    request.mode = runners::Mode::object;
    request.configs = runners::parse_configs("nvcc-O3,nvcc-O3-ptxas0");
    request.build_path = pipeline::BuildPath::device;
    const pipeline::TestCheck run = pipeline::check_test(request, toolchain, no_gpu, dir.path() / "twins");
    ASSERT_EQ(run.configs.size(), 2u);
    EXPECT_FALSE(shared(run.configs[1])) << run.configs[1].note;
    const auto& argv = run.configs[1].compile.command.argv;
    EXPECT_NE(std::ranges::find(argv, "-O0"), argv.end()) << run.configs[1].compile.command.display();
  }
}

TEST(DevicePathCli, ABadBuildPathIsAOneLineUsageError) {
  const auto result = run_cudiff({"check", (source_dir() / "examples" / "vector_add.cu").string(), "--build-path",
                                  "host"},
                                 60);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_TRUE(contains(result.err.text, "--build-path takes device or whole, got 'host'")) << result.err.text;
  const auto help = run_cudiff({"fuzz", "--help"}, 60);
  EXPECT_TRUE(contains(help.out.text, "--build-path")) << help.out.text;
}

} // namespace
} // namespace cudiff
