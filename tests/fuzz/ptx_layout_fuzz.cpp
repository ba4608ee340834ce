// libFuzzer harness: PTX text through read_ptx_layout and device_layout_view (with a few fixed
// probes), and program output through host_layout_view.
//
/// Input: PTX (or program output) text. The contract (oracle/oracle.h): never throws; every
/// array read has one 64-bit value per 8 bytes of its declared size, at most.
#include "oracle/oracle.h"

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace {

/// Probes as the generator writes them (generator/layout/layout.h), naming arrays the seed corpus
/// defines, so that device_layout_view matches arrays and not only reports them missing.
std::vector<cudiff::oracle::LayoutProbe> probes() {
  return {
      {"LayU0", "cudiff_layout_LayU0", {"sizeof", "alignof", "offsetof.m1"}, {{"m0", "bitfield"}, {"m1", "integer"}}},
      {"S1",
       "cudiff_layout_S1",
       {"sizeof", "alignof", "offsetof.a", "offsetof.b"},
       {{"a", "long double"}, {"b", "integer"}}},
      {"empty", "cudiff_layout_empty", {}, {}}};
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace cudiff;
  const std::string_view ptx(reinterpret_cast<const char*>(data), size);

  for (const auto& [name, values] : oracle::read_ptx_layout(ptx)) {
    if (!name.starts_with("cudiff_layout_")) __builtin_trap();
    // A declaration is at most `size` bytes of text and at most 2^20 elements: its values
    // cannot outnumber that (a bound that catches runaway allocations).
    if (values.size() > (std::size_t{1} << 20)) __builtin_trap();
  }

  static const std::vector<oracle::LayoutProbe> layout_probes = probes();
  for (runners::CompilerKind compiler : {runners::CompilerKind::nvcc, runners::CompilerKind::clang}) {
    const oracle::LayoutView device = oracle::device_layout_view("fuzz", compiler, ptx, layout_probes);
    const oracle::LayoutView host = oracle::host_layout_view("fuzz", compiler, ptx);
    if (device.side != oracle::LayoutSide::device || host.side != oracle::LayoutSide::host) __builtin_trap();
  }
  return 0;
}
