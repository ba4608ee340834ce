// Asks for an eighth of the GPU's memory: within one program's share when the GPU has one
// executor, past it when it has sixteen (runners/device_share.h).
#include <cstdio>
int main() {
  size_t free_bytes = 0, total_bytes = 0;
  cudaMemGetInfo(&free_bytes, &total_bytes);
  void* big = nullptr;
  const cudaError_t status = cudaMalloc(&big, total_bytes / 8);
  std::printf("allocation %s\n", status == cudaSuccess ? "granted" : "refused");
  if (status != cudaSuccess) return 1;
  cudaMemset(big, 0, 1 << 20);
  cudaFree(big);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
