// oracle: what one run of a built program showed (status, stdout lines, CUDA error reports).
#include "oracle/oracle.h"

#include <string_view>

namespace cudiff::oracle {
namespace {

// Substrings (case-sensitive) that mark a line as a CUDA error report. A generated program
// prints its own checksums and nothing that contains these; a failing CUDA call is usually
// reported through one of:
//  - the error's name from cudaGetErrorName: every runtime name starts with "cudaError"
//    (cudaErrorIllegalAddress, cudaErrorLaunchFailure, ...), driver API names with
//    "CUDA_ERROR_" (cuGetErrorName);
//  - the usual wrapper prefixes "CUDA error" / "CUDA Error";
//  - the text of cudaGetErrorString for the errors a miscompiled kernel can cause, for
//    programs that print only the string. Generic strings ("invalid argument", "unknown
//    error") are left out: they say nothing CUDA-specific and would match ordinary output;
//    "out of memory" stays, as a kernel that needs more memory under one compiler is a
//    difference worth seeing.
constexpr std::string_view cuda_error_markers[] = {
    "cudaError",
    "CUDA_ERROR_",
    "CUDA error",
    "CUDA Error",
    "an illegal memory access was encountered",
    "an illegal instruction was encountered",
    "unspecified launch failure",
    "misaligned address",
    "invalid program counter",
    "device-side assert triggered",
    "too many resources requested for launch",
    "the launch timed out and was terminated",
    "no kernel image is available for execution on the device",
    "invalid device function",
    "out of memory",
};

bool reports_cuda_error(std::string_view line) {
  for (std::string_view marker : cuda_error_markers) {
    if (line.find(marker) != std::string_view::npos) return true;
  }
  return false;
}

void collect_cuda_errors(const std::vector<std::string>& lines, std::vector<std::string>& errors) {
  for (const std::string& line : lines) {
    if (reports_cuda_error(line)) errors.push_back(line);
  }
}

} // namespace

RunObservation observe_run(const std::string& config, const runners::SubprocessResult& result) {
  RunObservation observation;
  observation.config = config;
  observation.exit_code = result.exit_code;
  observation.signal = result.signal;
  observation.timed_out = result.timed_out;
  observation.output_lines = split_lines(result.out.text);
  // stdout first, then stderr: the order is fixed so that equal runs compare equal.
  collect_cuda_errors(observation.output_lines, observation.cuda_errors);
  collect_cuda_errors(split_lines(result.err.text), observation.cuda_errors);
  // Either stream counts: a CUDA error report cut from stderr hides a difference as surely
  // as a checksum line cut from stdout.
  observation.output_truncated = result.out.truncated || result.err.truncated;
  observation.seconds = result.wall_seconds;
  observation.status_text = result.status_text();
  return observation;
}

} // namespace cudiff::oracle
