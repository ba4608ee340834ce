// A run mismatch for the reducer's GPU tests: one kernel's effect depends on which compiler
// built the program (the predefined macro __clang__), inside enough ordinary code for a
// reduction to have work to do. A planted difference, not a compiler bug: the test must not
// depend on a bug staying unfixed.
#include <cstdio>
#include <cuda_runtime.h>

struct Pair {
  int a;
  int b;
};

__device__ int mix(int x, int y) { return (x * 31) ^ (y + 7); }
__device__ int twice(int x) { return x + x; }

__global__ void fill(int* out, const int* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    Pair p{in[i], twice(in[i])};
    out[i] = mix(p.a, p.b);
  }
}

__global__ void tag(int* out) {
#ifdef __clang__
  out[0] += 1;
#endif
}

int main() {
  const int n = 64;
  int host[n];
  for (int i = 0; i < n; ++i) host[i] = i * 3;
  int* in = nullptr;
  int* out = nullptr;
  cudaMalloc(&in, sizeof host);
  cudaMalloc(&out, sizeof host);
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  fill<<<2, 32>>>(out, in, n);
  tag<<<1, 1>>>(out);
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  unsigned sum = 0;
  for (int i = 0; i < n; ++i) sum = sum * 33u + (unsigned)host[i];
  std::printf("checksum fill %08x\n", sum);
  std::printf("elements %d\n", n);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
