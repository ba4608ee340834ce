// gpu-labeled: the expected-output oracle on real binaries. A generated program whose binaries
// print what the interpreter predicts agrees; the same program judged against a prediction
// changed on purpose for one kernel (a stand-in for a miscompile every config shares, which the
// real compilers cannot show on demand) is a common_wrong_code finding naming that kernel and
// no run mismatch. Skipped, with the reason, where there is no GPU.
#include "generator/generator.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <functional>

using cudiff::test::run_cudiff;

namespace {

/// Writes seed 7's program and its sidecar, with `tamper` applied to the sidecar, into `dir`.
std::filesystem::path write_program(const cudiff::TempDir& dir,
                                    const std::function<void(cudiff::generator::Sidecar&)>& tamper) {
  auto test = cudiff::generator::generate_program(cudiff::generator::Policy::defaults(), 7,
                                                  cudiff::generator::Size::small);
  tamper(test.sidecar);
  const auto source = dir.path() / (test.name + ".cu");
  cudiff::write_file(source, test.source);
  cudiff::write_file(dir.path() / (test.name + ".json"), cudiff::pretty_json(cudiff::generator::to_json(test.sidecar)));
  return source;
}

} // namespace

TEST(GpuExpectedOutput, ProgramsPrintingThePredictionAgreeAndSayAgainstWhat) {
  CUDIFF_SKIP_WITHOUT_GPU();
  cudiff::TempDir dir("cudiff-gpu-expected");
  const auto source = write_program(dir, [](cudiff::generator::Sidecar&) {});
  auto result = run_cudiff(
      {"check", source.string(), "--mode", "run", "--json", "--config", "nvcc-O0,nvcc-O3,clang-O0,clang-O3"});
  ASSERT_EQ(result.exit_code, 0) << result.out.text << result.err.text;
  const auto json = boost::json::parse(result.out.text);
  EXPECT_NE(std::string(json.at("verdict").at("agreement").as_string()).find("as the generator predicts"),
            std::string::npos)
      << result.out.text;
}

TEST(GpuExpectedOutput, AWrongPredictionForOneKernelIsCommonWrongCodeNamingIt) {
  CUDIFF_SKIP_WITHOUT_GPU();
  cudiff::TempDir dir("cudiff-gpu-expected");
  std::string kernel;
  const auto source = write_program(dir, [&](cudiff::generator::Sidecar& sidecar) {
    auto& first = sidecar.kernels.value().at(0);
    kernel = first.name;
    first.expected_checksum = first.expected_checksum == "0123456789abcdef" ? "fedcba9876543210" : "0123456789abcdef";
  });
  auto result = run_cudiff({"check", source.string(), "--mode", "run", "--json", "--config", "nvcc-O3,clang-O3"});
  ASSERT_EQ(result.exit_code, 1) << result.out.text << result.err.text;
  const auto json = boost::json::parse(result.out.text);
  const auto& findings = json.at("verdict").at("findings").as_array();
  ASSERT_EQ(findings.size(), 1u) << result.out.text;
  EXPECT_EQ(findings[0].at("kind").as_string(), "common_wrong_code") << result.out.text;
  const auto& kernels = findings[0].at("details").at("differing_kernels").as_array();
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_EQ(kernels[0].as_string(), kernel);
}
