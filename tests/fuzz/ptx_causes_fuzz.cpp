// libFuzzer harness: PTX text through normalize_ptx (triage/cause.cpp), the cause key of a
// reduced ptxas or code-generation finding.
//
/// Input: PTX text from either compiler, normalised whole and for one batch kernel's name. The
/// contract of normalize_ptx is that it never throws on any input.
#include "triage/cause.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view ptx(reinterpret_cast<const char*>(data), size);
  static_cast<void>(cudiff::triage::make_cause("ptx", cudiff::triage::normalize_ptx(ptx)));
  static_cast<void>(cudiff::triage::normalize_ptx(ptx, {"s11/kernel_0", "dense_0", ""}));
  return 0;
}
