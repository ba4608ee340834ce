// libFuzzer harness: PTX text through read_ptx_features (oracle/ptx_features.cpp).
//
/// Input: PTX text from either compiler. The contract of a PTX reader in oracle/oracle.h is
/// that it never throws on any input. tests/fuzz/CMakeLists.txt builds this harness only once
/// oracle/oracle.h declares read_ptx_features (it is being written alongside these harnesses).
#include "oracle/oracle.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view ptx(reinterpret_cast<const char*>(data), size);
  static_cast<void>(cudiff::oracle::read_ptx_features(ptx));
  return 0;
}
