// Unit tests for observe_run(): status, stdout lines and CUDA error detection.
#include "oracle/oracle.h"

#include <gtest/gtest.h>

namespace cudiff::oracle {
namespace {

runners::SubprocessResult exited(int exit_code, std::string out, std::string err = {}) {
  runners::SubprocessResult result;
  result.started = true;
  result.exit_code = exit_code;
  result.wall_seconds = 0.25;
  result.out.text = std::move(out);
  result.out.total_bytes = result.out.text.size();
  result.err.text = std::move(err);
  result.err.total_bytes = result.err.text.size();
  return result;
}

TEST(RunObservation, SplitsStdoutIntoLines) {
  const auto result = exited(0, "checksum k0 0x1\nchecksum k1 0x2\n");
  const RunObservation observation = observe_run("nvcc-O3", result);
  EXPECT_EQ(observation.config, "nvcc-O3");
  EXPECT_EQ(observation.exit_code, 0);
  EXPECT_EQ(observation.signal, 0);
  EXPECT_FALSE(observation.timed_out);
  EXPECT_EQ(observation.output_lines, (std::vector<std::string>{"checksum k0 0x1", "checksum k1 0x2"}));
  EXPECT_TRUE(observation.cuda_errors.empty());
  EXPECT_FALSE(observation.output_truncated);
  EXPECT_DOUBLE_EQ(observation.seconds, 0.25);
  EXPECT_EQ(observation.status_text, result.status_text());
}

TEST(RunObservation, FindsCudaErrorsInStdoutThenStderr) {
  const auto result = exited(1, "checksum k0 0x1\nlaunch: cudaErrorLaunchFailure\n",
                             "note: cuda is fun\n"
                             "CUDA error at main.cu:10: an illegal memory access was encountered\n"
                             "CUDA_ERROR_ILLEGAL_ADDRESS\n"
                             "kernel k3: unspecified launch failure\n");
  const RunObservation observation = observe_run("clang-O3", result);
  EXPECT_EQ(observation.cuda_errors,
            (std::vector<std::string>{"launch: cudaErrorLaunchFailure",
                                      "CUDA error at main.cu:10: an illegal memory access was encountered",
                                      "CUDA_ERROR_ILLEGAL_ADDRESS", "kernel k3: unspecified launch failure"}));
  // stderr is not part of the compared output.
  EXPECT_EQ(observation.output_lines.size(), 2u);
}

TEST(RunObservation, ErrorMarkersAreCaseSensitive) {
  const RunObservation observation = observe_run("c", exited(0, "no cuda error here\ncudaerror\n"));
  EXPECT_TRUE(observation.cuda_errors.empty());
}

TEST(RunObservation, SignalRun) {
  runners::SubprocessResult result = exited(-1, "checksum k0 0x1\n");
  result.signal = 11;
  const RunObservation observation = observe_run("clang-O3", result);
  EXPECT_EQ(observation.signal, 11);
  EXPECT_EQ(observation.exit_code, -1);
  EXPECT_EQ(observation.status_text, result.status_text());
  EXPECT_EQ(observation.output_lines, std::vector<std::string>{"checksum k0 0x1"});
}

TEST(RunObservation, TimeoutAndTruncation) {
  runners::SubprocessResult result = exited(-1, "a\n", "b\n");
  result.timed_out = true;
  result.signal = 9;
  result.err.truncated = true;
  const RunObservation observation = observe_run("nvcc-O3", result);
  EXPECT_TRUE(observation.timed_out);
  EXPECT_TRUE(observation.output_truncated);
}

} // namespace
} // namespace cudiff::oracle
