// End-to-end layout oracle: `cudiff check` with a sidecar reads four layout views (host and
// device, nvcc and clang) of hand-written and generated types, and reports real differences.
#include "generator/generator.h"
#include "generator/layout/layout.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

using cudiff::test::contains;
using cudiff::test::data;
using cudiff::test::run_cudiff;

namespace {

/// A whole program around the layout generator's pieces, as the core generator lays it out.
std::string program(const cudiff::generator::LayoutPlan& plan) {
  return "#include <cstddef>\n#include <cstdio>\n#include <cstring>\n#include <type_traits>\n" + plan.definitions +
         "\n" + plan.device_probes + "\n" + plan.host_probe_function +
         "\n__global__ void cudiff_kernel(unsigned long long* out) { out[0] = 1; }\n"
         "int main(int argc, char** argv) {\n"
         "  if (argc == 2 && std::strcmp(argv[1], \"--layout\") == 0) { cudiff_print_layout(); return 0; }\n"
         "  cudiff_print_layout();\n"
         "  return 0;\n"
         "}\n";
}

} // namespace

TEST(LayoutE2E, AgreeingLayoutShowsFourViewsAndExitsZero) {
  auto result = run_cudiff({"check", data("e2e/data/layout_agree.cu").string(), "--mode", "binary"});
  EXPECT_EQ(result.exit_code, 0) << result.out.text << result.err.text;
  const std::string& out = result.out.text;
  for (const char* column : {"nvcc-O3 device", "nvcc-O3 host", "clang-O3 device", "clang-O3 host"})
    EXPECT_TRUE(contains(out, column)) << column << "\n" << out;
  EXPECT_TRUE(contains(out, "offsetof.m2")) << out;
  EXPECT_TRUE(contains(out, "4 layout views agree on 3 types")) << out;
}

TEST(LayoutE2E, LongDoubleMemberIsALayoutFindingNamingTypeMemberAndProperty) {
  auto result = run_cudiff({"check", data("e2e/data/layout_long_double.cu").string(), "--mode", "binary", "--json"});
  ASSERT_EQ(result.exit_code, 1) << result.out.text << result.err.text;
  const boost::json::value json = boost::json::parse(result.out.text);
  const auto& findings = json.at("verdict").at("findings").as_array();
  ASSERT_EQ(findings.size(), 1u) << result.out.text;
  const auto& finding = findings[0].as_object();
  EXPECT_EQ(finding.at("kind").as_string(), "layout_mismatch");
  const auto& details = finding.at("details").as_object();
  EXPECT_EQ(details.at("type").as_string(), "LayS0");
  EXPECT_EQ(details.at("member").as_string(), "m1");
  EXPECT_EQ(details.at("property").as_string(), "offsetof.m1");
  EXPECT_EQ(details.at("member_kind").as_string(), "long double");
  // nvcc's device side agrees with the hosts (16); clang's device side makes it a double (8).
  for (const auto& view : details.at("views").as_array()) {
    const bool clang_device = view.at("compiler").as_string() == "clang" && view.at("side").as_string() == "device";
    EXPECT_EQ(view.at("value").as_int64(), clang_device ? 8 : 16) << boost::json::serialize(view);
  }
  EXPECT_EQ(json.at("layout").at("views").as_array().size(), 4u);
}

TEST(LayoutE2E, PtxModeReadsDeviceViewsOnly) {
  auto result = run_cudiff({"check", data("e2e/data/layout_agree.cu").string(), "--mode", "ptx"});
  EXPECT_EQ(result.exit_code, 0) << result.out.text << result.err.text;
  EXPECT_TRUE(contains(result.out.text, "2 layout views agree on 3 types")) << result.out.text;
  EXPECT_TRUE(contains(result.out.text, "device views only")) << result.out.text;
}

TEST(LayoutE2E, GeneratedTypesAgreeInAllFourViews) {
  using namespace cudiff::generator;
  Policy policy = Policy::defaults();
  for (const ConstructInfo& construct : construct_catalog())
    if (construct.name != "long_double_members") policy.set("construct." + construct.name, 1.0);
  policy.set("medium.types.max", 12);
  for (std::uint64_t seed : {11u, 12u}) {
    cudiff::SeededRng rng(seed);
    const Swarm swarm = sample_swarm(policy, rng);
    const LayoutPlan plan = plan_layout(policy, rng, swarm, Size::medium);
    cudiff::TempDir dir("cudiff-layout-e2e");
    cudiff::write_file(dir.path() / "prog.cu", program(plan));
    Sidecar sidecar;  // as a person would write one: the probes alone
    sidecar.layout_probes = plan.probes;
    cudiff::write_file(dir.path() / "prog.json", boost::json::serialize(to_json(sidecar)));
    auto result = run_cudiff({"check", (dir.path() / "prog.cu").string(), "--mode", "binary"});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << "\n" << result.out.text << result.err.text << program(plan);
    EXPECT_TRUE(contains(result.out.text, "4 layout views agree on " + std::to_string(plan.probes.size())))
        << result.out.text;
  }
}

TEST(LayoutE2E, ExternCDeviceVariableWithoutBracesFailsNvccsLinkOnly) {
  auto result = run_cudiff(
      {"check", data("e2e/data/extern_c_device_variable.cu").string(), "--mode", "binary", "--json"});
  ASSERT_EQ(result.exit_code, 1) << result.out.text << result.err.text;
  const boost::json::value json = boost::json::parse(result.out.text);
  const auto& finding = json.at("verdict").at("findings").as_array().at(0);
  EXPECT_EQ(finding.at("kind").as_string(), "compile_status_mismatch");
  EXPECT_EQ(finding.at("configs").as_array().at(0).as_string(), "clang-O3");  // accepted first
  EXPECT_TRUE(contains(boost::json::serialize(finding), "cudiff_x")) << boost::json::serialize(finding);
}

// A batch: every test's probes at global scope, named with its seed, types qualified by the
// test's namespace; the four views agree on all of them, and both compilers accept.
TEST(LayoutE2E, BatchOfGeneratedProgramsAgreesOnEveryTestsProbes) {
  const cudiff::generator::TestCase batch = cudiff::generator::generate_batch(cudiff::generator::Policy::defaults(),
                                                                              {10, 11, 12, 13},
                                                                              cudiff::generator::Size::small);
  cudiff::TempDir dir("cudiff-layout-batch");
  cudiff::write_file(dir.path() / (batch.name + ".cu"), batch.source);
  cudiff::write_file(dir.path() / (batch.name + ".json"),
                     cudiff::pretty_json(cudiff::generator::to_json(batch.sidecar)));
  auto result = run_cudiff({"check", (dir.path() / (batch.name + ".cu")).string(), "--mode", "binary"});
  EXPECT_EQ(result.exit_code, 0) << result.out.text << result.err.text;
  const std::size_t probes = batch.sidecar.layout_probes.value().size();
  ASSERT_GT(probes, 0u);
  EXPECT_TRUE(contains(result.out.text, "4 layout views agree on " + std::to_string(probes))) << result.out.text;
}
