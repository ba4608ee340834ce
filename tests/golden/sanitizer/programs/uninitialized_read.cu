// initcheck: the kernel reads device memory that nothing wrote (cudaMalloc, no copy or memset).
#include <cstdio>

__global__ void read_unwritten(const unsigned* in, unsigned* out) { out[threadIdx.x] = in[threadIdx.x] * 3u; }

int main() {
  unsigned *in = nullptr, *out = nullptr;
  cudaMalloc(&in, 32 * sizeof(unsigned));
  cudaMalloc(&out, 32 * sizeof(unsigned));
  read_unwritten<<<1, 32>>>(in, out);
  unsigned host[32] = {};
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  std::printf("checksum read_unwritten %08x\n", host[0] ^ host[31]);
  return 0;
}
