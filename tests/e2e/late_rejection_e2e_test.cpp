// End-to-end, real nvcc and clang-22: stage-aware rejection. Both compilers reject the file, but
// in different stages: that is a finding (late_rejection), not agreement.
#include "support/test_support.h"

#include <gtest/gtest.h>

using cudiff::test::data;
using cudiff::test::run_cudiff;

TEST(LateRejectionE2E, NvccsFrontEndRejectsWhatClangOnlyFailsInPtxas) {
  auto result = run_cudiff(
      {"check", data("e2e/data/asm_constraint_late_rejection.cu").string(), "--mode", "object", "--json"});
  ASSERT_EQ(result.exit_code, 1) << result.out.text << result.err.text;
  const boost::json::value json = boost::json::parse(result.out.text);
  const auto& configs = json.at("configs").as_array();
  ASSERT_EQ(configs.size(), 2u);
  for (const auto& config : configs)
    EXPECT_EQ(config.at("observation").at("outcome").as_string(), "rejected") << result.out.text;
  const auto& findings = json.at("verdict").at("findings").as_array();
  ASSERT_EQ(findings.size(), 1u) << result.out.text;
  const auto& finding = findings[0];
  EXPECT_EQ(finding.at("kind").as_string(), "late_rejection") << result.out.text;
  const auto& details = finding.at("details");
  EXPECT_EQ(details.at("frontend").at(0).at("config").as_string(), "nvcc-O3");
  EXPECT_EQ(details.at("late").at(0).at("config").as_string(), "clang-O3");
  EXPECT_EQ(details.at("late").at(0).at("stage").as_string(), "ptxas");
  EXPECT_NE(std::string(details.at("frontend_error_id").as_string()).find("asm operand type size"), std::string::npos)
      << details;
  EXPECT_NE(std::string(finding.at("summary").as_string()).find("clang-O3 in ptxas"), std::string::npos)
      << finding.at("summary");
}
