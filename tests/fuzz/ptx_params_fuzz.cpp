// libFuzzer harness: PTX text through read_ptx_functions (oracle/ptx_params.cpp) and the
// parameter-ABI comparison (oracle/abi_judge.cpp).
//
/// Input: PTX text from either compiler; the first half is read as nvcc's view, the whole as
/// clang's, so the comparison sees two views that share functions. The contract of a PTX
/// reader in oracle/oracle.h is that it never throws on any input.
#include "oracle/oracle.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view ptx(reinterpret_cast<const char*>(data), size);
  cudiff::oracle::Observations observations;
  for (std::string_view text : {ptx.substr(0, size / 2), ptx}) {
    cudiff::oracle::AbiView view;
    view.compiler = observations.abi_views.empty() ? cudiff::runners::CompilerKind::nvcc
                                                   : cudiff::runners::CompilerKind::clang;
    view.config = observations.abi_views.empty() ? "nvcc" : "clang";
    view.functions = cudiff::oracle::read_ptx_functions(text);
    observations.abi_views.push_back(std::move(view));
  }
  static_cast<void>(cudiff::oracle::judge(observations, {}));
  return 0;
}
