// runners: the device memory one program in an executor may hold — a pure function, shared by
// cudiff-executor (which reads the GPU's memory once its context is made) and the unit tests.
#pragma once

#include <cstdint>

namespace cudiff::runners {

/// The device memory one program in one of a GPU's `executors` may hold at once (its
/// cudaMalloc, cudaMallocAsync, cudaMallocPitch and cudaMallocManaged calls together): of the
/// GPU's `total_bytes`, what is left after the executors' contexts (`context_bytes` each),
/// times `share` (what the executors' programs may hold together, clamped to [0, 1]; the rest
/// stays for the programs that run as processes on that GPU beside them), divided evenly among
/// the executors (0 of them counts as 1). 0 when the contexts leave nothing: every allocation is
/// refused, and every program that allocates runs as a process.
constexpr std::uint64_t program_device_share(std::uint64_t total_bytes, std::uint64_t context_bytes,
                                             std::uint64_t executors, double share) {
  const std::uint64_t count = executors == 0 ? 1 : executors;
  if (!(share > 0) || context_bytes > total_bytes / count) return 0;  // count * context_bytes > total_bytes
  const std::uint64_t left = total_bytes - count * context_bytes;
  const long double fraction = share > 1 ? 1.0L : static_cast<long double>(share);
  return static_cast<std::uint64_t>(static_cast<long double>(left) * fraction / static_cast<long double>(count));
}

}  // namespace cudiff::runners
