// A program fault for the sanitizer gate's GPU test: device recursion deeper than the default
// per-thread stack (1 KiB; the program never raises it with cudaDeviceSetLimit) holds, each
// frame keeping a volatile local array. ptxas cannot size a recursive chain, so the driver does
// not grow the stack, and the run dies with "unspecified launch failure"; memcheck says "Stack
// overflow". Built by clang the recursion goes 200 deep, by nvcc 2 deep (the predefined macro
// __clang__): a planted run mismatch, so `cudiff check` has a run-time finding to gate.
#include <cstdio>
#include <cuda_runtime.h>

__device__ __noinline__ int deep(int depth, int seed) {
  volatile int frame[64];
  for (int i = 0; i < 64; ++i) frame[i] = seed + i;
  if (depth == 0) return frame[seed & 63];
  return deep(depth - 1, seed + frame[depth & 63]) + 1;
}

__global__ void recurse(int* out, int depth) { out[threadIdx.x] = deep(depth, threadIdx.x); }

int main() {
#ifdef __clang__
  const int depth = 200;
#else
  const int depth = 2;
#endif
  int* out = nullptr;
  cudaMalloc(&out, 32 * sizeof(int));
  recurse<<<1, 32>>>(out, depth);
  cudaError_t status = cudaDeviceSynchronize();
  int host[32] = {};
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  std::printf("status %s out0 %d\n", cudaGetErrorName(status), host[0]);
  return 0;
}
