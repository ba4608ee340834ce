// Stage attribution's rules on recorded observations (docs/pipeline.md, "Stage attribution"):
// which swap outcome names which stage, what is right against a prediction or a majority, and
// how a compile finding's stage follows from the tool that spoke.
#include "pipeline/attribution_parts.h"

#include <gtest/gtest.h>

namespace cudiff::pipeline::attribution {
namespace {

using oracle::Stage;

OddConfig odd(const std::string& config, std::string level = "O3") {
  OddConfig o;
  o.config = config;
  o.ptxas_level = std::move(level);
  return o;
}

oracle::RunObservation run(const std::string& config, std::vector<std::string> lines, int exit_code = 0) {
  oracle::RunObservation r;
  r.config = config;
  r.exit_code = exit_code;
  r.output_lines = std::move(lines);
  r.status_text = "exit " + std::to_string(exit_code);
  return r;
}

TEST(AttributionRules, TheOtherPtxasLevelIsSpelledOneWay) {
  EXPECT_EQ(other_ptxas_level("O3"), "O0");
  EXPECT_EQ(other_ptxas_level("O2"), "O0");
  EXPECT_EQ(other_ptxas_level("O0"), "O3");
  OddConfig odd;
  odd.config = "nvcc-O3";
  odd.ptxas_level = "O3";
  odd.ptxas_swapped = SwapResult::right;
  EXPECT_EQ(decide_config(odd).why, "nvcc-O3 is right with ptxas -O0, the same PTX: ptxas -O3");
}

TEST(AttributionRules, RightWithPtxasAtTheOtherLevelIsPtxas) {
  OddConfig o = odd("nvcc-O3");
  o.ptxas_swapped = SwapResult::right;
  const Decision d = decide_config(o);
  EXPECT_EQ(d.stage, Stage::ptxas);
  EXPECT_NE(d.why.find("ptxas -O0"), std::string::npos) << d.why;
  // An -O0 config right with ptxas -O3: ptxas -O0 is the guilty one.
  OddConfig slow = odd("clang-O0", "O0");
  slow.ptxas_swapped = SwapResult::right;
  EXPECT_EQ(decide_config(slow).stage, Stage::ptxas);
}

TEST(AttributionRules, StillWrongWithPtxasSwappedIsDeviceCodegen) {
  OddConfig o = odd("clang-O3");
  o.ptxas_swapped = SwapResult::still_wrong;
  EXPECT_EQ(decide_config(o).stage, Stage::device_codegen);
  // Confirmed: the driver's JIT of the same PTX is wrong too.
  OddConfig confirmed = odd("nvcc-O3");
  confirmed.ptxas_swapped = SwapResult::still_wrong;
  confirmed.driver_jit = SwapResult::still_wrong;
  const Decision d = decide_config(confirmed);
  EXPECT_EQ(d.stage, Stage::device_codegen);
  EXPECT_NE(d.why.find("JIT"), std::string::npos) << d.why;
}

TEST(AttributionRules, AssemblersThatDisagreeLeaveItUnknown) {
  OddConfig o = odd("nvcc-O3");
  o.ptxas_swapped = SwapResult::still_wrong;
  o.driver_jit = SwapResult::right;
  EXPECT_EQ(decide_config(o).stage, Stage::unknown);
}

TEST(AttributionRules, JitConfigAgainstItsPtxasBuiltTwin) {
  OddConfig o = odd("nvcc-O3-jit", "");
  o.ptx_only = true;
  o.twin = SwapResult::right;
  EXPECT_EQ(decide_config(o).stage, Stage::driver_jit);
  o.twin = SwapResult::still_wrong;
  EXPECT_EQ(decide_config(o).stage, Stage::device_codegen);
  o.twin = SwapResult::build_failed;
  EXPECT_EQ(decide_config(o).stage, Stage::unknown);
}

TEST(AttributionRules, RdcConfigSplitsPtxasFromTheRest) {
  OddConfig o = odd("nvcc-O3-rdc");
  o.relocatable = true;
  o.twin = SwapResult::right;
  o.ptxas_swapped = SwapResult::right;
  EXPECT_EQ(decide_config(o).stage, Stage::ptxas);
  o.ptxas_swapped = SwapResult::still_wrong;
  const Decision d = decide_config(o);
  EXPECT_EQ(d.stage, Stage::unknown);
  EXPECT_NE(d.why.find("linker"), std::string::npos) << d.why;
  // Wrong without rdc too: the PTX is wrong whichever way it is linked.
  o.twin = SwapResult::still_wrong;
  EXPECT_EQ(decide_config(o).stage, Stage::device_codegen);
}

// nvcc-O3 wrong, ptxas -O0 on its own PTX still wrong, nvcc-O3-cicc0 (cicc -O0, ptxas -O3)
// right: the PTX is wrong and NVVM's optimizer made it so.
TEST(AttributionRules, RightWithCiccLoweredIsNvvm) {
  OddConfig o = odd("nvcc-O3");
  o.ptxas_swapped = SwapResult::still_wrong;
  o.driver_jit = SwapResult::still_wrong;
  o.cicc_twin = "nvcc-O3-cicc0";
  o.cicc_lowered = SwapResult::right;
  const Decision d = decide_config(o);
  EXPECT_EQ(d.stage, Stage::nvvm);
  EXPECT_NE(d.why.find("its twin nvcc-O3-cicc0 (cicc -O0, ptxas -O3) is right: NVVM's optimizer"), std::string::npos)
      << d.why;
  EXPECT_EQ(oracle::to_string(d.stage), "nvvm");
  EXPECT_EQ(oracle::parse_stage("nvvm"), Stage::nvvm);
  // Through decide_finding, as a run finding's stage.
  EXPECT_EQ(decide_finding({d}, false, false).stage, Stage::nvvm);
}

TEST(AttributionRules, WrongWithCiccLoweredTooStaysDeviceCodegen) {
  OddConfig o = odd("nvcc-O3");
  o.ptxas_swapped = SwapResult::still_wrong;
  o.cicc_twin = "nvcc-O3-cicc0";
  o.cicc_lowered = SwapResult::still_wrong;
  const Decision d = decide_config(o);
  EXPECT_EQ(d.stage, Stage::device_codegen);
  EXPECT_NE(d.why.find("nvcc-O3-cicc0 (cicc -O0) is wrong too"), std::string::npos) << d.why;
  // A cicc twin that could not be built or run tells nothing: device-codegen, as without one.
  o.cicc_lowered = SwapResult::build_failed;
  EXPECT_EQ(decide_config(o).stage, Stage::device_codegen);
}

// The twin rule first: the same PTX right through ptxas -O0 is ptxas's, whatever the cicc twin
// printed (its PTX is another PTX); the driver's JIT right on the same PTX stays unknown.
TEST(AttributionRules, PtxasAndTheAssemblersStillComeBeforeTheCiccTwin) {
  OddConfig o = odd("nvcc-O3");
  o.ptxas_swapped = SwapResult::right;
  o.cicc_twin = "nvcc-O3-cicc0";
  o.cicc_lowered = SwapResult::right;
  EXPECT_EQ(decide_config(o).stage, Stage::ptxas);
  o.ptxas_swapped = SwapResult::still_wrong;
  o.driver_jit = SwapResult::right;
  EXPECT_EQ(decide_config(o).stage, Stage::unknown);
}

TEST(AttributionRules, SwapsThatCouldNotBeMadeLeaveItUnknown) {
  OddConfig failed = odd("clang-O3");
  failed.ptxas_swapped = SwapResult::build_failed;
  EXPECT_EQ(decide_config(failed).stage, Stage::unknown);
  EXPECT_NE(decide_config(failed).why.find("build failed"), std::string::npos);
  OddConfig debug = odd("nvcc-G", "");
  EXPECT_EQ(decide_config(debug).stage, Stage::unknown);
}

TEST(AttributionRules, TwinsThatDifferOnTheSamePtxAreUpToPtxas) {
  PtxasTwins twins{"nvcc-O3", "O3", "nvcc-O3-ptxas0", "O0", {}};
  Decision d = decide_twins(twins);
  EXPECT_EQ(d.stage, Stage::ptxas);
  EXPECT_EQ(d.why, "nvcc-O3 (ptxas -O3) and nvcc-O3-ptxas0 (ptxas -O0) differ on the same PTX: ptxas");

  // As measured on a public ptxas reproducer: -O1 prints what -O0 prints, -O2, -O3 and the
  // JIT the other output. -O2 is the first level that departs; a majority of levels would
  // have blamed -O0, whose passes the optimizing levels skip.
  twins.others = {{"ptxas -O1", "O1", false}, {"ptxas -O2", "O2", true}, {"the driver's JIT", "", true}};
  d = decide_twins(twins);
  EXPECT_EQ(d.stage, Stage::ptxas);
  EXPECT_NE(d.why.find("the first level that departs from -O0 is -O2, the likelier wrong one"), std::string::npos)
      << d.why;
  EXPECT_NE(d.why.find("-O0, -O1 print what nvcc-O3-ptxas0 prints, -O2, -O3 what nvcc-O3 prints"), std::string::npos)
      << d.why;
  EXPECT_NE(d.why.find("the driver's JIT sides with -O3"), std::string::npos) << d.why;

  // Every optimizing level departs: -O1 is the first.
  twins.others = {{"ptxas -O1", "O1", true}, {"ptxas -O2", "O2", true}};
  EXPECT_NE(decide_twins(twins).why.find("the first level that departs from -O0 is -O1"), std::string::npos);

  // Out of order (-O1 departs, -O2 does not): nothing is said about the level.
  twins.others = {{"ptxas -O1", "O1", true}, {"ptxas -O2", "O2", false}};
  d = decide_twins(twins);
  EXPECT_EQ(d.stage, Stage::ptxas);
  EXPECT_EQ(d.why.find("likelier"), std::string::npos) << d.why;
  EXPECT_NE(d.why.find("do not split in order"), std::string::npos) << d.why;

  // A level that printed neither output is left out of the order.
  twins.others = {{"ptxas -O1", "O1", std::nullopt}, {"ptxas -O2", "O2", true}};
  EXPECT_NE(decide_twins(twins).why.find("departs from -O0 is -O2"), std::string::npos);
}

TEST(AttributionRules, TheFindingsStage) {
  const Decision ptxas{Stage::ptxas, "a"};
  const Decision codegen{Stage::device_codegen, "b"};
  EXPECT_EQ(decide_finding({ptxas}, false, false).stage, Stage::ptxas);
  EXPECT_EQ(decide_finding({ptxas, ptxas}, false, false).stage, Stage::ptxas);
  EXPECT_EQ(decide_finding({ptxas, codegen}, false, false).stage, Stage::unknown);
  EXPECT_EQ(decide_finding({}, false, false).stage, Stage::unknown);
  EXPECT_EQ(decide_finding({}, true, false).stage, Stage::host_compiler);
  // Every config wrong alike (common wrong code): a shared ptxas bug is named, every PTX
  // "wrong" is not (the prediction is the likelier culprit).
  EXPECT_EQ(decide_finding({ptxas, ptxas}, false, true).stage, Stage::ptxas);
  EXPECT_EQ(decide_finding({codegen, codegen}, false, true).stage, Stage::unknown);
}

TEST(AttributionReference, PredictedChecksumsDecideRightAndWrong) {
  generator::Sidecar sidecar;
  sidecar.kernels = std::vector<generator::Sidecar::Kernel>{};
  generator::Sidecar::Kernel kernel;
  kernel.name = "kernel_0";
  kernel.expected_checksum = "00000000000000ab";
  sidecar.kernels->push_back(kernel);
  const auto good = run("nvcc-O3", {"checksum kernel_0 00000000000000ab", "layout T sizeof 8"});
  const auto bad = run("clang-O3", {"checksum kernel_0 00000000000000ac", "layout T sizeof 8"});
  const Reference reference = reference_of({good, bad}, sidecar);
  EXPECT_TRUE(reference.right(good));
  EXPECT_FALSE(reference.right(bad));
  EXPECT_EQ(reference.differing_line(bad), "checksum kernel_0 00000000000000ac");
  EXPECT_FALSE(reference.right(run("nvcc-O0", {"checksum kernel_0 00000000000000ab"}, 1)));  // failed exit
  EXPECT_FALSE(host_only_difference({good, bad}, reference));
}

TEST(AttributionReference, WithoutAPredictionAStrictMajorityDecides) {
  const auto a = run("nvcc-O3", {"checksum k 1"});
  const auto b = run("clang-O3", {"checksum k 2"});
  const auto c = run("nvcc-O3-ptxas0", {"checksum k 1"});
  const Reference majority = reference_of({a, b, c}, std::nullopt);
  ASSERT_TRUE(majority.usable());
  EXPECT_TRUE(majority.right(a));
  EXPECT_FALSE(majority.right(b));
  EXPECT_EQ(majority.differing_line(b), "checksum k 2");
  // One against one: no majority, nothing can be called wrong.
  EXPECT_FALSE(reference_of({a, b}, std::nullopt).usable());
  EXPECT_FALSE(reference_of({a, b, run("clang-O0", {"checksum k 3"})}, std::nullopt).usable());
}

TEST(AttributionReference, HostOnlyDifferences) {
  const auto a = run("nvcc-O3", {"checksum k 1", "layout T alignof 16"});
  const auto b = run("clang-O3", {"checksum k 1", "layout T alignof 8"});
  const auto c = run("clang-O0", {"checksum k 1", "layout T alignof 8"});
  EXPECT_TRUE(host_only_difference({a, b, c}, reference_of({a, b, c}, std::nullopt)));
  // No checksum lines: device results cannot be told from host output.
  const auto x = run("nvcc-O3", {"sum 1"});
  const auto y = run("clang-O3", {"sum 2"});
  const auto z = run("clang-O0", {"sum 2"});
  EXPECT_FALSE(host_only_difference({x, y, z}, reference_of({x, y, z}, std::nullopt)));
  // A differing checksum is not host-only.
  const auto d = run("clang-O0", {"checksum k 2", "layout T alignof 8"});
  EXPECT_FALSE(host_only_difference({a, b, d}, reference_of({a, b, d}, std::nullopt)));
}

oracle::Finding crash(const std::string& tool, const std::string& reason, const std::string& excerpt) {
  oracle::Finding finding;
  finding.kind = oracle::FindingKind::crash;
  finding.configs = {"x"};
  finding.details = boost::json::object{{"stage", tool}, {"reason", reason}, {"excerpt", excerpt}};
  return finding;
}

TEST(AttributionCompile, CrashStageFromTheToolThatDied) {
  EXPECT_EQ(decide_compile(crash("cicc", "signal 11", ""), "").stage, Stage::device_codegen);
  EXPECT_EQ(decide_compile(crash("ptxas", "fatal", "ptxas fatal : x"), "").stage, Stage::ptxas);
  EXPECT_EQ(decide_compile(crash("cudafe++", "signal 11", ""), "").stage, Stage::frontend);
  EXPECT_EQ(decide_compile(crash("nvlink", "fatal", ""), "").stage, Stage::linker);
  EXPECT_EQ(decide_compile(crash("clang-linker-wrapper", "signal 6", ""), "").stage, Stage::linker);
  EXPECT_EQ(decide_compile(crash("clang", "backend error", "fatal error: error in backend: Cannot select"), "").stage,
            Stage::device_codegen);
  EXPECT_EQ(decide_compile(crash("clang", "assertion", ""), "Stack dump:\n1.\tparser at end of file\n"
                                                            "#3 clang::Sema::CheckFoo()")
                .stage,
            Stage::frontend);
  EXPECT_EQ(decide_compile(crash("clang", "signal 11", ""), "").stage, Stage::unknown);
  EXPECT_EQ(decide_compile(crash("nvcc", "exit 3 without a diagnostic", ""), "").stage, Stage::unknown);
  // Attributed once already: the tool moved to "tool", the stage is read from there again.
  oracle::Finding attributed = crash("device-codegen", "signal 11", "");
  attributed.details["tool"] = "cicc";
  EXPECT_EQ(decide_compile(attributed, "").stage, Stage::device_codegen);
}

oracle::Finding rejection(oracle::FindingKind kind, const std::string& tool) {
  oracle::Finding finding;
  finding.kind = kind;
  finding.configs = {"nvcc-O3", "clang-O3"};
  boost::json::object error{{"tool", tool}, {"message", "m"}};
  finding.details = boost::json::object{
      {"rejected", boost::json::array{boost::json::object{{"config", "clang-O3"}, {"first_error", error}}}}};
  return finding;
}

// Real nvcc 13.0 -v output (abridged paths) of a build whose ptxas died: nvcc itself printed
// only the shell's "Segmentation fault".
TEST(AttributionCompile, AnNvccCrashIsTheLastStepItsVerboseRebuildStarted) {
  const std::string verbose = "#$ _NVVM_BRANCH_=nvvm\n"
                              "#$ _SPACE_= \n"
                              "#$ PATH=/usr/local/cuda/bin:/usr/bin\n"
                              "#$ gcc -std=c++17 -D__CUDA_ARCH__=900 -E -x c++ x.cu -o x.cpp1.ii\n"
                              "#$ \"$CICC_PATH/cicc\" --c++17 --static-host-stub x.cpp1.ii -o x.ptx\n"
                              "#$ ptxas -w -arch=sm_90 -m64  \"x.ptx\"  -o \"x.cubin\"\n"
                              "Segmentation fault\n";
  const std::optional<LastStep> step = last_nvcc_step(verbose);
  ASSERT_TRUE(step.has_value());
  EXPECT_EQ(step->tool, "ptxas");
  EXPECT_EQ(step->command, "ptxas -w -arch=sm_90 -m64  \"x.ptx\"  -o \"x.cubin\"");
  const Decision ptxas = decide_nvcc_crash_step(*step, "signal 11");
  EXPECT_EQ(ptxas.stage, Stage::ptxas);
  EXPECT_NE(ptxas.why.find("the last step it started was ptxas"), std::string::npos) << ptxas.why;

  const std::string cicc = verbose.substr(0, verbose.find("#$ ptxas"));
  EXPECT_EQ(decide_nvcc_crash_step(*last_nvcc_step(cicc), "signal 11").stage, Stage::device_codegen);
  EXPECT_EQ(last_nvcc_step(cicc)->tool, "cicc");
  // Settings alone, or no -v lines at all, name no step.
  EXPECT_FALSE(last_nvcc_step("#$ _NVVM_BRANCH_=nvvm\nSegmentation fault\n").has_value());
  EXPECT_FALSE(last_nvcc_step("Segmentation fault\n").has_value());
  EXPECT_EQ(decide_nvcc_crash_step(LastStep{"mystery", "mystery x"}, "signal 6").stage, Stage::unknown);
}

TEST(AttributionCompile, RejectionStageFromTheFirstErrorsTool) {
  using Kind = oracle::FindingKind;
  EXPECT_EQ(decide_compile(rejection(Kind::compile_status_mismatch, "frontend"), "").stage, Stage::frontend);
  EXPECT_EQ(decide_compile(rejection(Kind::false_rejection, "ptxas"), "").stage, Stage::ptxas);
  EXPECT_EQ(decide_compile(rejection(Kind::false_rejection, "device_codegen"), "").stage, Stage::device_codegen);
  EXPECT_EQ(decide_compile(rejection(Kind::compile_status_mismatch, "nvlink"), "").stage, Stage::linker);
  EXPECT_EQ(decide_compile(rejection(Kind::late_rejection, "host_compiler"), "").stage, Stage::host_compiler);
  EXPECT_EQ(decide_compile(rejection(Kind::false_rejection, "driver"), "").stage, Stage::unknown);
}

TEST(AttributionRecord, StageAndEvidenceGoIntoTheDetails) {
  oracle::Finding finding = crash("cicc", "signal 11", "Segmentation fault");
  StageAttribution attribution;
  attribution.stage = Stage::device_codegen;
  attribution.why = "cicc crashed";
  attribution.evidence.push_back(StageSwap{"none", {"x"}, "crashed", "Segmentation fault"});
  record_stage(finding, attribution);
  EXPECT_EQ(finding.details.at("stage").as_string(), "device-codegen");
  EXPECT_EQ(finding.details.at("tool").as_string(), "cicc");
  const auto& evidence = finding.details.at("stage_evidence").as_array();
  ASSERT_EQ(evidence.size(), 1u);
  EXPECT_EQ(evidence[0].at("outcome").as_string(), "crashed");
  EXPECT_EQ(evidence[0].at("configs").as_array().size(), 1u);
}

TEST(AttributionRecord, RunFindingsWithoutAGpuAreUnknownAndBuildNothing) {
  oracle::Finding finding;
  finding.kind = oracle::FindingKind::run_mismatch;
  runners::GpuDiscovery none;
  none.note = "no driver";
  const StageAttribution attribution = attribute_stage(finding, AttributionRequest{}, runners::Toolchain{}, none,
                                                       "/nonexistent");
  EXPECT_EQ(attribution.stage, Stage::unknown);
  EXPECT_EQ(attribution.builds, 0u);
  EXPECT_NE(attribution.why.find("no GPU"), std::string::npos);
}

} // namespace
} // namespace cudiff::pipeline::attribution
