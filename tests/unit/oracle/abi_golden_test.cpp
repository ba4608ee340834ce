// Parameter-ABI golden files (tests/golden/abi, its README.md): real nvcc and clang PTX pairs
// and what the comparison must give. Fails on an empty folder.
#include "oracle/oracle.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

namespace {

using namespace cudiff;
namespace fs = std::filesystem;

struct GoldenCase {
  std::string name;
  oracle::Observations observations;
  std::vector<std::string> expected;  ///< "finding: ..." lines, or the one "agree: ..." line
};

GoldenCase read_case(const fs::path& file) {
  GoldenCase c;
  c.name = file.stem().string();
  bool separate = false;
  std::vector<oracle::AbiView> views;
  for (const std::string& raw : split(read_file(file), '\n')) {
    const std::string line(trim(raw));
    if (line.empty() || line.front() == '#') continue;
    if (line.starts_with("view:")) {
      const std::vector<std::string> words = split(trim(std::string_view(line).substr(5)), ' ');
      oracle::AbiView view;
      view.config = words.at(1);
      view.compiler = view.config.starts_with("nvcc") ? runners::CompilerKind::nvcc : runners::CompilerKind::clang;
      view.arch = "sm_90";
      view.functions = oracle::read_ptx_functions(read_file(file.parent_path() / words.at(0)));
      views.push_back(std::move(view));
    } else if (line.starts_with("separate_compilation:")) {
      separate = line.ends_with("true");
    } else {
      c.expected.push_back(line);
    }
  }
  for (oracle::AbiView& view : views) view.separate_compilation = separate;
  c.observations.abi_views = std::move(views);
  return c;
}

std::vector<std::string> judged(const oracle::Observations& observations) {
  const oracle::Verdict verdict = oracle::judge(observations, {});
  if (verdict.agree()) return {"agree: " + verdict.agreement};
  std::vector<std::string> lines;
  for (const oracle::Finding& finding : verdict.findings) {
    const auto& d = finding.details;
    std::string line = "finding: " + std::string(d.at("function_kind").as_string()) + " | " +
                       std::string(d.at("function").as_string()) + " | " + std::string(d.at("position").as_string()) +
                       " | " + std::string(d.at("property").as_string());
    for (const auto& side : d.at("declarations").as_array())
      line += " | " + std::string(side.as_object().at("declaration").as_string());
    lines.push_back(line);
  }
  return lines;
}

TEST(AbiGolden, EveryPairGivesItsExpectedComparison) {
  const fs::path folder = test::data("golden/abi");
  std::vector<fs::path> files;
  if (fs::is_directory(folder))
    for (const fs::directory_entry& entry : fs::directory_iterator(folder))
      if (entry.path().extension() == ".expected") files.push_back(entry.path());
  ASSERT_FALSE(files.empty()) << "no golden cases under " << folder;
  for (const fs::path& file : files) {
    const GoldenCase c = read_case(file);
    SCOPED_TRACE(c.name);
    ASSERT_GE(c.observations.abi_views.size(), 2u);
    for (const oracle::AbiView& view : c.observations.abi_views) EXPECT_FALSE(view.functions.empty()) << view.config;
    ASSERT_FALSE(c.expected.empty()) << "a case must say what it expects";
    EXPECT_EQ(judged(c.observations), c.expected);
  }
}

TEST(AbiGolden, FindingsCarryStageRunsAndNoNameInTheirSymptomFields) {
  GoldenCase c = read_case(test::data("golden/abi/separate.O3.expected"));
  c.observations.runs = {oracle::RunObservation{"nvcc-O3-rdc", 0, 0, false, {"checksum k 1"}, {}, false, 0, "exit 0"},
                         oracle::RunObservation{"clang-O3-rdc", 0, 0, false, {"checksum k 1"}, {}, false, 0, "exit 0"}};
  const oracle::Verdict verdict = oracle::judge(c.observations, {});
  ASSERT_FALSE(verdict.agree());
  const oracle::Finding& first = verdict.findings.front();
  EXPECT_EQ(first.kind, oracle::FindingKind::abi_mismatch);
  EXPECT_EQ(first.configs, (std::vector<std::string>{"nvcc-O3-rdc", "clang-O3-rdc"}));
  EXPECT_EQ(first.details.at("stage").as_string(), "device-codegen");
  EXPECT_EQ(first.details.at("runs").as_string(), "agreed");
  EXPECT_EQ(first.details.at("symbol").as_string(), "_Z5f_a163A16");
  EXPECT_EQ(first.details.at("param_kind").as_string(), "aggregate");  // no sidecar: from the PTX
  // The fields a signature keys on name the symptom, never the function.
  EXPECT_EQ(first.details.at("property").as_string(), "return alignment");
  EXPECT_EQ(first.details.at("aspect").as_string(), "device function, aggregate");
  EXPECT_EQ(first.details.at("function_kind").as_string(), "device function");
}

TEST(AbiGolden, SidecarKindsNameTheParameterAndRunsThatDifferAreSaid) {
  GoldenCase c = read_case(test::data("golden/abi/separate.O3.expected"));
  c.observations.abi_kinds = {oracle::AbiFunctionKinds{"f_a16", false, {"alignas struct"}, "alignas struct"}};
  c.observations.runs = {oracle::RunObservation{"nvcc-O3-rdc", 0, 0, false, {"checksum k 1"}, {}, false, 0, "exit 0"},
                         oracle::RunObservation{"clang-O3-rdc", 0, 0, false, {"checksum k 2"}, {}, false, 0, "exit 0"}};
  const oracle::Verdict verdict = oracle::judge(c.observations, {});
  const auto abi = std::ranges::find_if(verdict.findings, [](const oracle::Finding& f) {
    return f.kind == oracle::FindingKind::abi_mismatch;
  });
  ASSERT_NE(abi, verdict.findings.end());
  EXPECT_EQ(abi->details.at("param_kind").as_string(), "alignas struct");
  EXPECT_EQ(abi->details.at("runs").as_string(), "differed");
  EXPECT_NE(abi->summary.find("f_a16(A16)"), std::string::npos) << abi->summary;
}

TEST(AbiGolden, ViewsOfOtherModesOrArchsAreNotCompared) {
  GoldenCase c = read_case(test::data("golden/abi/separate.O3.expected"));
  c.observations.abi_views[1].separate_compilation = false;  // clang's view now whole-program
  EXPECT_TRUE(oracle::judge(c.observations, {}).agree());
  c.observations.abi_views[1].separate_compilation = true;
  c.observations.abi_views[1].arch = "sm_80";
  EXPECT_TRUE(oracle::judge(c.observations, {}).agree());
  c.observations.abi_views[1].arch = "sm_90";
  c.observations.abi_views[1].problem = "the PTX compile failed";
  EXPECT_TRUE(oracle::judge(c.observations, {}).agree());
}

} // namespace
