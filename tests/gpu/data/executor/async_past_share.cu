// One stream-ordered allocation of 60% of the GPU's memory: more than an executor lets one
// program hold (under half, with one executor), so cudaMallocAsync is refused there and the
// program runs as a process, where it has the whole GPU.
#include <cstdio>
int main() {
  size_t free_bytes = 0, total_bytes = 0;
  cudaMemGetInfo(&free_bytes, &total_bytes);
  void* big = nullptr;
  const cudaError_t status = cudaMallocAsync(&big, total_bytes / 10 * 6, 0);
  std::printf("allocation %s\n", status == cudaSuccess ? "granted" : "refused");
  if (status != cudaSuccess) return 1;
  cudaMemsetAsync(big, 0, 1 << 20, 0);
  cudaFreeAsync(big, 0);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
