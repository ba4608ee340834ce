// expect: none
#include <cstdio>
int host_only(int x) { return x + 1; }
constexpr int twice(int x) { return 2 * x; }
__device__ int dev(int x) { return x ^ 1; }
__host__ __device__ int both(int x) {
#ifdef __CUDA_ARCH__
  return dev(x);
#else
  return host_only(x);
#endif
}
__global__ void k(int* out, float f) {
  int v = __shfl_sync(0xffffffffu, out[threadIdx.x], 0);
  atomicAdd(out, v + twice(2) + both(1) + min(v, 3));
  out[1] = static_cast<int>(sqrtf(f)) + make_int2(1, 2).x;
  __threadfence_system();
  printf("%d\n", out[0]);
}
int main() {
  int* out = nullptr;
  cudaMalloc(&out, 8);
  k<<<1, 32>>>(out, 2.0f);
  cudaDeviceSynchronize();
  return both(host_only(1));
}
