// synccheck: __syncthreads() reached by half of the block only (a barrier in divergent code).
#include <cstdio>

__global__ void half_barrier(unsigned* out) {
  __shared__ unsigned word;
  if (threadIdx.x < 16) {
    if (threadIdx.x == 0) word = 5u;
    __syncthreads();
  }
  out[threadIdx.x] = threadIdx.x < 16 ? word : 0u;
}

int main() {
  unsigned* out = nullptr;
  cudaMalloc(&out, 64 * sizeof(unsigned));
  half_barrier<<<1, 64>>>(out);
  unsigned host[64] = {};
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  std::printf("checksum half_barrier %08x\n", host[0]);
  return 0;
}
