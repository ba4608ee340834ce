// Prints a gigabyte (16 Mi lines of 64 bytes) after one kernel. In an executor its output file
// is cut at the output cap while it runs (the executor ends, SIGXFSZ) and the program runs as a
// process, whose pipes keep head and tail of the flood and say it was cut.
#include <cstdio>
__global__ void fill(unsigned* out) { out[threadIdx.x] = threadIdx.x * 3u + 1u; }
int main() {
  unsigned* device = nullptr;
  if (cudaMalloc(&device, 32 * sizeof(unsigned)) != cudaSuccess) return 1;
  fill<<<1, 32>>>(device);
  unsigned host[32] = {};
  if (cudaMemcpy(host, device, sizeof host, cudaMemcpyDeviceToHost) != cudaSuccess) return 1;
  cudaFree(device);
  for (unsigned i = 0; i < (1u << 24); ++i) std::printf("%08x %054u\n", i, host[i % 32]);
  return 0;
}
