// Layout judging: four views per type must agree; a difference is one layout_mismatch
// finding naming the type, member, property and member kind, with every view's value.
#include "oracle/oracle.h"

#include <gtest/gtest.h>

using namespace cudiff::oracle;
using cudiff::runners::CompilerKind;

namespace {

LayoutProbe probe() {
  return {"LayS0",
          "cudiff_layout_LayS0",
          {"sizeof", "alignof", "offsetof.m0", "offsetof.m1", "offsetof.m2"},
          {{"m0", "integer"}, {"m1", "long double"}, {"m2", "integer"}}};
}

LayoutView view(std::string config, CompilerKind compiler, LayoutSide side, std::vector<std::uint64_t> values) {
  LayoutView out{std::move(config), compiler, side, {}, {}};
  const auto properties = probe().properties;
  for (std::size_t i = 0; i < values.size(); ++i) out.values["LayS0"][properties[i]] = values[i];
  return out;
}

Observations observations(std::vector<LayoutView> views) {
  Observations out;
  out.layout_probes = {probe()};
  out.layouts = std::move(views);
  return out;
}

} // namespace

TEST(LayoutJudge, FourAgreeingViewsAreAgreement) {
  const std::vector<std::uint64_t> same = {48, 16, 0, 16, 32};
  const Verdict verdict = judge(observations({view("nvcc-O3", CompilerKind::nvcc, LayoutSide::host, same),
                                              view("nvcc-O3", CompilerKind::nvcc, LayoutSide::device, same),
                                              view("clang-O3", CompilerKind::clang, LayoutSide::host, same),
                                              view("clang-O3", CompilerKind::clang, LayoutSide::device, same)}),
                                JudgeOptions{});
  EXPECT_TRUE(verdict.agree()) << verdict.headline();
  EXPECT_NE(verdict.agreement.find("4 layout views agree on 1 type"), std::string::npos) << verdict.agreement;
}

TEST(LayoutJudge, LongDoubleDeviceDifferenceNamesTypeMemberPropertyAndKind) {
  const std::vector<std::uint64_t> host = {48, 16, 0, 16, 32};
  const Verdict verdict = judge(observations(
                                    {view("nvcc-O3", CompilerKind::nvcc, LayoutSide::host, host),
                                     view("nvcc-O3", CompilerKind::nvcc, LayoutSide::device, host),
                                     view("clang-O3", CompilerKind::clang, LayoutSide::host, host),
                                     view("clang-O3", CompilerKind::clang, LayoutSide::device, {24, 8, 0, 8, 16})}),
                                JudgeOptions{});
  ASSERT_EQ(verdict.findings.size(), 1u);
  const Finding& finding = verdict.findings[0];
  EXPECT_EQ(finding.kind, FindingKind::layout_mismatch);
  EXPECT_EQ(to_string(finding.kind), "layout_mismatch");
  EXPECT_EQ(finding.configs, (std::vector<std::string>{"nvcc-O3", "clang-O3"}));
  EXPECT_NE(finding.summary.find("LayS0"), std::string::npos) << finding.summary;
  EXPECT_NE(finding.summary.find("offsetof.m1"), std::string::npos) << finding.summary;
  EXPECT_NE(finding.summary.find("long double member m1"), std::string::npos) << finding.summary;
  EXPECT_NE(finding.summary.find("clang-O3 device 8"), std::string::npos) << finding.summary;
  EXPECT_EQ(finding.details.at("type").as_string(), "LayS0");
  EXPECT_EQ(finding.details.at("member").as_string(), "m1");
  EXPECT_EQ(finding.details.at("member_kind").as_string(), "long double");
  EXPECT_EQ(finding.details.at("views").as_array().size(), 4u);
  EXPECT_EQ(finding.details.at("differing").as_array().size(), 4u);  // sizeof, alignof, m1, m2
}

TEST(LayoutJudge, SizeofOnlyDifferenceNamesSizeof) {
  const Verdict verdict = judge(observations({view("nvcc-O3", CompilerKind::nvcc, LayoutSide::device, {12, 4}),
                                              view("clang-O3", CompilerKind::clang, LayoutSide::device, {16, 4})}),
                                JudgeOptions{});
  ASSERT_EQ(verdict.findings.size(), 1u);
  EXPECT_EQ(verdict.findings[0].details.at("property").as_string(), "sizeof");
  EXPECT_EQ(verdict.findings[0].details.at("member").as_string(), "");
}

TEST(LayoutJudge, MissingValuesAreNotCompared) {
  LayoutView partial = view("clang-O3", CompilerKind::clang, LayoutSide::device, {48});
  partial.problem = "not in the PTX";
  const Verdict verdict = judge(observations(
                                    {view("nvcc-O3", CompilerKind::nvcc, LayoutSide::host, {48, 16, 0, 16, 32}),
                                     partial, LayoutView{"x", CompilerKind::clang, LayoutSide::host, {}, {}}}),
                                JudgeOptions{});
  EXPECT_TRUE(verdict.agree()) << verdict.headline();
}

TEST(LayoutJudge, NoProbesNoLayoutWords) {
  const Verdict verdict = judge(Observations{}, JudgeOptions{});
  EXPECT_EQ(verdict.agreement.find("layout"), std::string::npos);
}
