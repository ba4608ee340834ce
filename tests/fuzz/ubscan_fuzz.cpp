// libFuzzer harness: program text (and a sidecar) through ubscan::scan_undefined, the U-rule
// scanner's preprocessor model (over common's tokenizer), parser and checks.
//
/// Input: the .cu text, then optionally a NUL byte and the sidecar's JSON (an object when it
/// parses as one, else empty). The contract (ubscan/ubscan.h): never throws on any
/// input; every use it reports names a scanned rule and a line of the source.
#include "ubscan/ubscan.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace cudiff;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t nul = input.find('\0');
  const std::string_view source = input.substr(0, nul);
  boost::json::object sidecar;
  if (nul != std::string_view::npos) {
    boost::system::error_code error;
    boost::json::value json = boost::json::parse(input.substr(nul + 1), error);
    if (!error && json.is_object()) sidecar = std::move(json.as_object());
  }
  const std::vector<std::string> scanned = ubscan::undefined_rules_scanned();
  const std::size_t lines = static_cast<std::size_t>(std::count(source.begin(), source.end(), '\n')) + 1;
  for (const ubscan::UndefinedUse& use : ubscan::scan_undefined(source, sidecar)) {
    if (std::find(scanned.begin(), scanned.end(), use.rule_id) == scanned.end()) __builtin_trap();
    if (use.line < 1 || static_cast<std::size_t>(use.line) > lines) __builtin_trap();
  }
  return 0;
}
