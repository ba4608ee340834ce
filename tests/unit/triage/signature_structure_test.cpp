// One bucket per root cause: run mismatches and wrong-code findings are keyed by structure
// (partition of configs, guilty stage, shape of the first difference), never by the values,
// kernel names or seeds of one program; the kinds of the expected-output, stage-aware and
// compile-time oracles get keys and titles of their own. Findings come from the real oracle.
#include "oracle/oracle.h"
#include "triage/triage.h"

#include <gtest/gtest.h>

using namespace cudiff;

namespace {

using runners::CompilerKind;

oracle::CompileObservation accepted(std::string config, CompilerKind compiler, double seconds = 2) {
  oracle::CompileObservation observation;
  observation.config = std::move(config);
  observation.compiler = compiler;
  observation.outcome = oracle::CompileOutcome::accepted;
  observation.seconds = seconds;
  return observation;
}

oracle::RunObservation run(std::string config, std::vector<std::string> lines) {
  oracle::RunObservation observation;
  observation.config = std::move(config);
  observation.exit_code = 0;
  observation.output_lines = std::move(lines);
  observation.status_text = "exit 0";
  return observation;
}

/// One program's wrong-code finding: the configs in `wrong` print `bad` for `kernel` where the
/// generator predicts `good`; the others print `good`.
oracle::Finding wrong_code(const std::string& kernel, const std::string& good, const std::string& bad,
                           const std::set<std::string>& wrong, const std::string& stage = "") {
  oracle::Observations observations;
  observations.expected_checksums = {{kernel, good}};
  for (const auto& [config, compiler] :
       std::vector<std::pair<std::string, CompilerKind>>{{"nvcc-O0", CompilerKind::nvcc},
                                                         {"nvcc-O3", CompilerKind::nvcc},
                                                         {"clang-O0", CompilerKind::clang},
                                                         {"clang-O3", CompilerKind::clang}}) {
    observations.compiles.push_back(accepted(config, compiler));
    observations.runs.push_back(run(config, {"checksum " + kernel + " " + (wrong.contains(config) ? bad : good)}));
  }
  const oracle::Verdict verdict = oracle::judge(observations, {});
  EXPECT_EQ(verdict.findings.size(), 1u) << verdict.headline();
  oracle::Finding finding = verdict.findings.front();
  if (!stage.empty()) finding.details["stage"] = stage;
  return finding;
}

/// Two configs whose runs differ on one line: no prediction, so a run mismatch.
oracle::Finding run_mismatch(const std::string& nvcc_line, const std::string& clang_line,
                             std::vector<std::string> nvcc_errors = {}) {
  oracle::Observations observations;
  observations.compiles = {accepted("nvcc-O3", CompilerKind::nvcc), accepted("clang-O3", CompilerKind::clang)};
  oracle::RunObservation nvcc = run("nvcc-O3", {"start", nvcc_line});
  nvcc.cuda_errors = std::move(nvcc_errors);
  observations.runs = {nvcc, run("clang-O3", {"start", clang_line})};
  const oracle::Verdict verdict = oracle::judge(observations, {});
  EXPECT_EQ(verdict.findings.size(), 1u) << verdict.headline();
  return verdict.findings.front();
}

oracle::Observations observed(std::vector<oracle::CompileObservation> compiles) {
  oracle::Observations observations;
  observations.compiles = std::move(compiles);
  return observations;
}

std::string key(const oracle::Finding& finding) { return triage::signature_of(finding).key; }

TEST(TriageSignatureStructure, OneBucketForThreeProgramsWithTheSameWrongCodePartitionAndStage) {
  const oracle::Finding a = wrong_code("kernel_3", "00000000deadbeef", "00000000feedface", {"nvcc-O3"}, "ptxas");
  const oracle::Finding b = wrong_code("kernel_0", "1111222233334444", "5555666677778888", {"nvcc-O3"}, "ptxas");
  const oracle::Finding c = wrong_code("s4711/kernel_2", "0123456789abcdef", "fedcba9876543210", {"nvcc-O3"}, "ptxas");
  EXPECT_EQ(key(a), key(b));
  EXPECT_EQ(key(a), key(c));
  const triage::Signature signature = triage::signature_of(a);
  EXPECT_EQ(signature.stage, "ptxas");
  EXPECT_EQ(signature.side, "nvcc-O3");  // nvcc-O0 prints the prediction: the config is the side
  for (const char* leaked : {"kernel", "deadbeef", "feedface", "s4711"})
    EXPECT_EQ(signature.symptom.find(leaked), std::string::npos) << leaked << " in\n" << signature.symptom;
  EXPECT_NE(signature.title.find("nvcc-O3"), std::string::npos) << signature.title;
}

TEST(TriageSignatureStructure, AnotherPartitionOrStageIsAnotherBucket) {
  const oracle::Finding base = wrong_code("kernel_3", "00000000deadbeef", "00000000feedface", {"nvcc-O3"}, "ptxas");
  EXPECT_NE(key(base),
            key(wrong_code("kernel_3", "00000000deadbeef", "00000000feedface", {"nvcc-O3"}, "device-codegen")));
  EXPECT_NE(key(base),
            key(wrong_code("kernel_3", "00000000deadbeef", "00000000feedface", {"nvcc-O3", "nvcc-O0"}, "ptxas")));
  // No attributed stage is "unknown", a bucket of its own.
  const oracle::Finding unattributed = wrong_code("kernel_3", "00000000deadbeef", "00000000feedface", {"nvcc-O3"});
  EXPECT_EQ(triage::signature_of(unattributed).stage, "unknown");
  EXPECT_NE(key(base), key(unattributed));
}

TEST(TriageSignatureStructure, CommonWrongCodeIsItsOwnBucketAndSaysSo) {
  const std::set<std::string> all = {"nvcc-O0", "nvcc-O3", "clang-O0", "clang-O3"};
  const oracle::Finding common = wrong_code("kernel_1", "00000000deadbeef", "00000000feedface", all);
  ASSERT_EQ(common.kind, oracle::FindingKind::common_wrong_code);
  EXPECT_EQ(key(common), key(wrong_code("kernel_7", "0000000000000001", "0000000000000002", all)));
  const triage::Signature signature = triage::signature_of(common);
  EXPECT_NE(signature.title.find("every config"), std::string::npos) << signature.title;
  EXPECT_NE(signature.title.find("interpreter"), std::string::npos) << signature.title;
}

TEST(TriageSignatureStructure, RunMismatchesOfDifferentProgramsShareAKeyByShape) {
  const std::string a = key(run_mismatch("checksum kernel_0 00000000deadbeef", "checksum kernel_0 0000000000000001"));
  const std::string b = key(run_mismatch("checksum s9/kernel_4 1234123412341234", "checksum s9/kernel_4 0"));
  EXPECT_EQ(a, b);
  // Another kind of line is another shape.
  EXPECT_NE(a, key(run_mismatch("layout s9_T1 sizeof 16", "layout s9_T1 sizeof 24")));
  EXPECT_NE(a, key(run_mismatch("checksum kernel_0 00000000deadbeef", "probe R-X broken")));
  const triage::Signature signature = triage::signature_of(
      run_mismatch("checksum kernel_0 00000000deadbeef", "checksum kernel_0 0000000000000001"));
  EXPECT_EQ(signature.symptom.find("deadbeef"), std::string::npos) << signature.symptom;
  EXPECT_EQ(signature.symptom.find("kernel_0"), std::string::npos) << signature.symptom;
  EXPECT_NE(signature.symptom.find("group checksum"), std::string::npos) << signature.symptom;
}

TEST(TriageSignatureStructure, CudaErrorTextIsMaskedInTheKey) {
  const std::string a = key(
      run_mismatch("x", "x", {"CUDA error at prog_17.cu:120: an illegal memory access (0x7f3a1c)"}));
  const std::string b = key(
      run_mismatch("x", "x", {"CUDA error at prog_99.cu:48: an illegal memory access (0x7f0000)"}));
  EXPECT_EQ(a, b);
  EXPECT_NE(a, key(run_mismatch("x", "x", {"CUDA error at prog_17.cu:120: misaligned address"})));
}

TEST(TriageSignatureStructure, LateRejectionIsKeyedByTheFrontEndsDiagnostic) {
  auto finding = [](std::string id) {
    oracle::Finding f;
    f.kind = oracle::FindingKind::late_rejection;
    f.configs = {"clang-O3", "nvcc-O3"};
    f.details = {{"frontend", boost::json::array{boost::json::object{{"config", "clang-O3"}, {"compiler", "clang"}}}},
                 {"late", boost::json::array{boost::json::object{{"config", "nvcc-O3"}, {"compiler", "nvcc"}}}},
                 {"late_stages", boost::json::array{"ptxas"}},
                 {"frontend_error_id", id},
                 {"stage", "frontend"}};
    return f;
  };
  EXPECT_NE(key(finding("cannot store to a constant")), key(finding("no matching function")));
  const triage::Signature signature = triage::signature_of(finding("cannot store to a constant"));
  EXPECT_EQ(signature.side, "nvcc");
  EXPECT_EQ(signature.title, "nvcc fails late (ptxas) where clang's front end rejects: cannot store to a constant");
  EXPECT_EQ(signature.ids.front(), "cannot store to a constant");
}

TEST(TriageSignatureStructure, SlowCompileKeyHasNoTimeSoAHangAndASlowCompileShareIt) {
  auto finding = [](double seconds, bool hung, std::string config) {
    std::vector<oracle::CompileObservation> compiles = {accepted("nvcc-O0", CompilerKind::nvcc, 3),
                                                        accepted("nvcc-O3", CompilerKind::nvcc, 3),
                                                        accepted("clang-O3", CompilerKind::clang, 4)};
    for (auto& compile : compiles)
      if (compile.config == config) {
        compile.seconds = seconds;
        if (hung) compile.outcome = oracle::CompileOutcome::hung;
      }
    const oracle::Verdict verdict = oracle::judge(observed(compiles), {});
    EXPECT_EQ(verdict.findings.size(), 1u) << verdict.headline();
    return verdict.findings.front();
  };
  const oracle::Finding slow = finding(95, false, "clang-O3");
  EXPECT_EQ(slow.kind, oracle::FindingKind::slow_compile);
  EXPECT_EQ(key(slow), key(finding(300, false, "clang-O3")));
  EXPECT_EQ(key(slow), key(finding(360, true, "clang-O3")));
  EXPECT_NE(key(finding(95, false, "nvcc-O3")), key(finding(95, false, "nvcc-O0")));
  const triage::Signature signature = triage::signature_of(slow);
  EXPECT_EQ(signature.symptom.find("95"), std::string::npos) << signature.symptom;
  EXPECT_EQ(signature.stage, "compile");
  EXPECT_EQ(signature.side, "clang");
}

TEST(TriageSignatureStructure, OtherOraclesKindsAreKeyedByTheirNamedFields) {
  auto abi = [](std::string param_kind, std::string stage) {
    oracle::Finding f;
    f.kind = oracle::FindingKind::abi_mismatch;
    f.configs = {"nvcc-O3", "clang-O3"};
    f.details = {{"function_kind", "kernel"}, {"param_kind", param_kind}, {"stage", stage}, {"function", "k_17"}};
    return f;
  };
  EXPECT_EQ(key(abi("struct", "device-codegen")), key(abi("struct", "device-codegen")));
  EXPECT_NE(key(abi("struct", "device-codegen")), key(abi("vector", "device-codegen")));
  EXPECT_NE(key(abi("struct", "device-codegen")), key(abi("struct", "frontend")));
  const triage::Signature signature = triage::signature_of(abi("struct", "device-codegen"));
  EXPECT_EQ(signature.symptom.find("k_17"), std::string::npos) << signature.symptom;
  EXPECT_EQ(signature.title, "parameter ABI differs (clang+nvcc): function_kind kernel, param_kind struct");

  oracle::Finding missed;
  missed.kind = oracle::FindingKind::missed_by_all;
  missed.configs = {"nvcc-O3", "clang-O3"};
  missed.details = {{"rule", "R-EXTLAM-3"}};
  EXPECT_EQ(triage::signature_of(missed).ids, std::vector<std::string>{"R-EXTLAM-3"});
  EXPECT_NE(triage::signature_of(missed).title.find("R-EXTLAM-3"), std::string::npos);
}

TEST(TriageSignatureStructure, EveryKindsKeyTakesTheAttributedStage) {
  oracle::Finding crash;
  crash.kind = oracle::FindingKind::crash;
  crash.configs = {"clang-O3"};
  crash.details = {{"compiler", "clang"}, {"stage", "clang"}, {"reason", "assertion"}, {"excerpt", ""}};
  oracle::Finding status;
  status.kind = oracle::FindingKind::compile_status_mismatch;
  status.details = {{"accepted", boost::json::array{boost::json::object{{"config", "nvcc-O3"}, {"compiler", "nvcc"}}}},
                    {"rejected",
                     boost::json::array{boost::json::object{{"config", "clang-O3"}, {"compiler", "clang"}}}},
                    {"rejected_error_ids", boost::json::array{"x"}}};
  const std::string before = key(status);
  status.details["stage"] = "host-compiler";
  EXPECT_NE(key(status), before);
  EXPECT_EQ(triage::signature_of(status).stage, "host-compiler");
  EXPECT_EQ(triage::signature_of(crash).stage, "clang");
}

} // namespace
