// racecheck: each thread writes its shared word and reads its neighbour's. With RACE defined
// there is no barrier between the write and the read (a race); without it, __syncthreads()
// orders them (clean).
#include <cstdio>

__global__ void exchange(unsigned* out) {
  __shared__ unsigned words[64];
  words[threadIdx.x] = threadIdx.x * 7u + 1u;
#ifndef RACE
  __syncthreads();
#endif
  out[threadIdx.x] = words[(threadIdx.x + 1) % 64];
}

int main() {
  unsigned* out = nullptr;
  cudaMalloc(&out, 64 * sizeof(unsigned));
  exchange<<<1, 64>>>(out);
  unsigned host[64] = {};
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  unsigned sum = 0;
  for (unsigned value : host) sum = sum * 31u + value;
  std::printf("checksum exchange %08x\n", sum);
  return 0;
}
