// libFuzzer harness: compiler stderr/stdout through parse_diagnostics, message_template,
// observe_compile and mask_crash_text, which all read untrusted compiler output.
//
/// Input: byte 0 picks the compiler (bit 0) and how the process ended (bits 1-3); the rest is
/// stderr, up to the first NUL byte, and stdout after it. The contract (oracle/oracle.h):
/// none of these throws on any input.
#include "oracle/oracle.h"
#include "triage/triage.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace {

/// How the compile ended: each variant takes observe_compile down another branch.
void set_ending(cudiff::runners::SubprocessResult& process, unsigned variant) {
  process.started = true;
  switch (variant) {
  case 0: process.exit_code = 0; break;
  case 1: process.exit_code = 1; break;
  case 2: process.exit_code = 2; break;
  case 3: process.exit_code = 255; break;
  case 4: process.exit_code = 134; break;
  case 5: process.signal = 11; break;
  case 6:
    process.timed_out = true;
    process.signal = 9;
    break;
  default:
    process.started = false;
    process.start_error = "No such file or directory";
    break;
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace cudiff;
  if (size == 0) return 0;
  const unsigned selector = data[0];
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  const std::size_t nul = rest.find('\0');
  const std::string_view err = rest.substr(0, nul);
  const std::string_view out = nul == std::string_view::npos ? std::string_view() : rest.substr(nul + 1);
  const runners::CompilerKind compiler = (selector & 1) != 0 ? runners::CompilerKind::clang
                                                             : runners::CompilerKind::nvcc;

  for (const oracle::Diagnostic& diagnostic : oracle::parse_diagnostics(compiler, err))
    static_cast<void>(oracle::message_template(diagnostic.message));
  static_cast<void>(oracle::message_template(rest));

  runners::CompileResult result;
  result.config.name = (selector & 1) != 0 ? "clang-O3" : "nvcc-O3";
  result.config.compiler = compiler;
  result.mode = runners::Mode::object;
  set_ending(result.process, (selector >> 1) & 7);
  result.process.err.text = std::string(err);
  result.process.out.text = std::string(out);
  const oracle::CompileObservation observation = oracle::observe_compile(result);
  if ((observation.outcome == oracle::CompileOutcome::crashed) != observation.crash.has_value()) __builtin_trap();
  static_cast<void>(observation.first_error());
  static_cast<void>(boost::json::serialize(oracle::to_json(observation)));

  static_cast<void>(triage::mask_crash_text(err));
  return 0;
}
