// A program fault for the sanitizer gate's GPU test: the kernel reads one element past the end
// of its input (an out-of-bounds __global__ read that compute-sanitizer's memcheck reports).
// So that `cudiff check` has a run-time finding to gate, the printed line also depends on which
// compiler built the program (the predefined macro __clang__): a planted run mismatch, never
// a compiler bug. The gate must list the program as invalid and file nothing.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void read_past(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i + 1];  // i == n - 1 reads in[n]: one past the allocation
}

int main() {
  const int n = 32;
  int *in = nullptr, *out = nullptr;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&out, n * sizeof(int));
  cudaMemset(in, 0, n * sizeof(int));
  cudaMemset(out, 0, n * sizeof(int));
  read_past<<<1, n>>>(in, out, n);
  cudaError_t status = cudaDeviceSynchronize();
  int host[n] = {};
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
#ifdef __clang__
  const int tag = 2;
#else
  const int tag = 1;
#endif
  std::printf("status %s out0 %d tag %d\n", cudaGetErrorName(status), host[0], tag);
  return 0;
}
