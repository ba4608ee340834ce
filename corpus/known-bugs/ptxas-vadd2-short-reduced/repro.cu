#include <cstdio>
__global__ void __launch_bounds__(32) dense_0(unsigned long long *__restrict__ out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  short v1 = 0;
  v1 = __vadd2(0, 0x6cd7b644u);
  unsigned long long h = 1469598103934665603ull;
  h = h ^ v1 * 1099511628211ull;
  out[t] = h;
}
int main() {
  unsigned long long *out;
  static unsigned long long host_out[32];
  cudaMalloc(&out, sizeof host_out);
  dense_0<<<1, 32>>>(out);
  cudaMemcpy(host_out, out, 32 * sizeof(unsigned long long), cudaMemcpyDeviceToHost);
  unsigned long long h = 1469598103934665603ull;
  for (unsigned i = 0; i < 32u; ++i)
    h = (h ^ host_out[i]) * 1099511628211ull;
  std::printf("checksum dense_0 %016llx\n", h);
}
