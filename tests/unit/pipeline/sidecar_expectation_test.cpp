// What the pipeline takes from a typed sidecar: the layout probes as the oracle reads them, the
// expectation (the spec oracle), and a person's sidecar file beside a .cu, damaged or not.
#include "pipeline/pipeline.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

namespace {

using namespace cudiff;
using generator::Sidecar;

Sidecar parsed(std::string_view json) { return generator::sidecar_from_json(boost::json::parse(json)); }

TEST(PipelineSidecar, ExpectationsComeFromTheVerdictAndTheEdge) {
  const auto edge = pipeline::expectation_of(
      parsed(R"({"expected_verdict": "reject", "edge": {"rule": "R-X", "line": 7, "marker": "m"}})"));
  ASSERT_TRUE(edge);
  EXPECT_EQ(*edge, (oracle::Expectation{true, "R-X", 7}));
  EXPECT_EQ(pipeline::expectation_of(parsed(R"({"expected_verdict": "accept"})")), oracle::Expectation{});
  EXPECT_FALSE(pipeline::expectation_of(parsed(R"({"seed": 1})")));
  const generator::TestCase edge_program = generator::generate_edge(generator::Policy::defaults(), 3,
                                                                    generator::Size::small);
  const auto planted = pipeline::expectation_of(edge_program.sidecar);
  ASSERT_TRUE(planted);
  EXPECT_TRUE(planted->reject);
  EXPECT_EQ(planted->rule_id, edge_program.sidecar.edge->rule);
  EXPECT_EQ(planted->line, edge_program.sidecar.edge->line);
}

TEST(PipelineSidecar, LayoutProbesAreTheOraclesProbes) {
  const auto probes = pipeline::layout_probes_of(parsed(R"({"layout_probes": [
      {"type": "A", "array": "cudiff_layout_A", "properties": ["sizeof", "offsetof.m0"], "member_kinds": {"m0": "vector"}},
      {"type": "B", "array": "cudiff_layout_B", "properties": ["sizeof"]}]})"));
  ASSERT_EQ(probes.size(), 2u);
  EXPECT_EQ(probes[0].type, "A");
  EXPECT_EQ(probes[0].array, "cudiff_layout_A");
  EXPECT_EQ(probes[0].properties, (std::vector<std::string>{"sizeof", "offsetof.m0"}));
  EXPECT_EQ(probes[0].member_kinds.at("m0"), "vector");
  EXPECT_TRUE(probes[1].member_kinds.empty());
  EXPECT_TRUE(pipeline::layout_probes_of(Sidecar{}).empty());
}

TEST(PipelineSidecar, APersonsSidecarFileIsReadOrSaysWhyNot) {
  TempDir dir("cudiff-sidecar-file");
  write_file(dir.path() / "plain.cu", "int main() { return 0; }\n");
  EXPECT_FALSE(pipeline::file_input(dir.path() / "plain.cu").sidecar);

  write_file(dir.path() / "probed.cu", "int main() { return 0; }\n");
  write_file(dir.path() / "probed.json",
             R"({"layout_probes": [{"type": "A", "array": "cudiff_layout_A", "properties": []}]})");
  const pipeline::TestInput probed = pipeline::file_input(dir.path() / "probed.cu");
  ASSERT_TRUE(probed.sidecar);
  EXPECT_EQ(probed.sidecar->layout_probes.value().size(), 1u);
  EXPECT_EQ(probed.sidecar_error, "");

  write_file(dir.path() / "broken.cu", "int main() { return 0; }\n");
  write_file(dir.path() / "broken.json", "{\"layout_probes\": [");
  const pipeline::TestInput broken = pipeline::file_input(dir.path() / "broken.cu");
  EXPECT_FALSE(broken.sidecar);
  EXPECT_TRUE(broken.sidecar_error.starts_with("not JSON (")) << broken.sidecar_error;

  write_file(dir.path() / "typed.cu", "int main() { return 0; }\n");
  write_file(dir.path() / "typed.json", R"({"expected_verdict": "reject", "edge": {"line": "seven"}})");
  const pipeline::TestInput typed = pipeline::file_input(dir.path() / "typed.cu");
  EXPECT_FALSE(typed.sidecar);
  EXPECT_TRUE(typed.sidecar_error.starts_with("not a sidecar (")) << typed.sidecar_error;
  EXPECT_TRUE(test::contains(typed.sidecar_error, "edge.line")) << typed.sidecar_error;
}

} // namespace
