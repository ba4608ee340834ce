// Triage keys of metamorphic findings: one bucket per cause (kind, partition of configs, stage),
// never the seed, the kernels, the values or the transforms a program happened to have.
#include "oracle/oracle.h"
#include "triage/triage.h"

#include <gtest/gtest.h>

namespace cudiff {
namespace {

/// A batch of `seed` and its variant 1 whose variant prints `bad` under the configs in `wrong`.
oracle::Finding metamorphic(std::uint64_t seed, const std::string& good, const std::string& bad,
                            const std::set<std::string>& wrong, std::vector<std::string> transforms,
                            const std::string& stage = "") {
  const std::string original = "s" + std::to_string(seed) + "/kernel_1";
  const std::string variant = "s" + std::to_string(seed) + "v1/kernel_1";
  oracle::Observations observations;
  for (const char* config : {"nvcc-O3", "clang-O3", "nvcc-O3-ptxas0", "clang-O0"}) {
    oracle::CompileObservation compile;
    compile.config = config;
    compile.compiler = compile.config.starts_with("nvcc") ? runners::CompilerKind::nvcc : runners::CompilerKind::clang;
    observations.compiles.push_back(compile);
    oracle::RunObservation run;
    run.config = config;
    run.exit_code = 0;
    run.output_lines = {"checksum " + original + " " + good,
                        "checksum " + variant + " " + (wrong.contains(config) ? bad : good)};
    observations.runs.push_back(run);
  }
  observations.expected_checksums = {{original, good}, {variant, good}};
  observations.variant_kernels = {{variant, original, std::move(transforms)}};
  const oracle::Verdict verdict = oracle::judge(observations, {});
  EXPECT_EQ(verdict.findings.size(), 1u) << verdict.headline();
  oracle::Finding finding = verdict.findings.front();
  EXPECT_EQ(finding.kind, oracle::FindingKind::metamorphic);
  if (!stage.empty()) finding.details["stage"] = stage;
  return finding;
}

std::string key(const oracle::Finding& finding) { return triage::signature_of(finding).key; }

TEST(TriageMetamorphicSignature, SeedsValuesAndTransformsStayOutOfTheKey) {
  const oracle::Finding a = metamorphic(11, "00000000deadbeef", "00000000feedface", {"clang-O3"}, {"dead_code"});
  const oracle::Finding b = metamorphic(4242, "1111222233334444", "5555666677778888", {"clang-O3"},
                                        {"identity", "loop_peel"});
  EXPECT_EQ(key(a), key(b));
  const triage::Signature signature = triage::signature_of(b);
  EXPECT_EQ(signature.kind, "metamorphic");
  for (const char* leaked : {"4242", "kernel", "5555666677778888", "identity", "loop_peel"})
    EXPECT_EQ(signature.symptom.find(leaked), std::string::npos) << leaked << " in\n" << signature.symptom;
  EXPECT_NE(signature.title.find("metamorphic: clang-O3 prints another checksum"), std::string::npos)
      << signature.title;
}

TEST(TriageMetamorphicSignature, PartitionStageAndKindEachMakeABucket) {
  const oracle::Finding base = metamorphic(11, "00000000deadbeef", "00000000feedface", {"clang-O3"}, {}, "ptxas");
  EXPECT_NE(key(base),
            key(metamorphic(11, "00000000deadbeef", "00000000feedface", {"clang-O3"}, {}, "device-codegen")));
  EXPECT_NE(key(base),
            key(metamorphic(11, "00000000deadbeef", "00000000feedface", {"clang-O3", "clang-O0"}, {}, "ptxas")));
  // The same partition as wrong code is still another kind, so another bucket.
  oracle::Finding as_wrong_code = base;
  as_wrong_code.kind = oracle::FindingKind::wrong_code;
  EXPECT_NE(key(base), key(as_wrong_code));
}

} // namespace
} // namespace cudiff
