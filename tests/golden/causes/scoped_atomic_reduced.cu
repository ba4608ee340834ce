// cudiff triage reduce's own reduction (H100, 2026-12-07; 245 s, 284 -> 44 lines) of a wrong-code bucket of
// clang's device code generation: the known case clang-scoped-atomic-unsigned-minmax-signed, another cause key.
#include <cstdio>
__device__ unsigned dense_0_atom32[12];
__global__ void __launch_bounds__(32) dense_0(unsigned long long *__restrict__ out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  int v3 = (int)0u;
  atomicMax_system(&dense_0_atom32[2u * 4u + 2u], (unsigned)((unsigned)v3));
  {
    unsigned long long h = 1469598103934665603ull;
    h = (h ^ (unsigned long long)v3) * 1099511628211ull;
    out[t] = h;
  }
}
int main() {
  cudaDeviceSetLimit(cudaLimitStackSize, 4096);
  unsigned long long *out;
  static unsigned long long host_out[64];
  cudaMalloc(&out, sizeof(host_out));
  static unsigned host_atom32[12];
  static unsigned long long host_atom64[12];
  for (unsigned i = 0; i < 12u; ++i) {
    host_atom32[i] = (i + 1u) * 2654435761u ^ 0x5bd1e995u;
    host_atom64[i] = (i + 1ull) * 0x9E3779B97F4A7C15ull ^ 0xC2B2AE3D27D4EB4Full;
  }
  cudaMemcpyToSymbol(dense_0_atom32, host_atom32, sizeof(host_atom32));
  dense_0<<<2, 32, 0>>>(out);
  cudaError_t status = cudaGetLastError();
  if (status == cudaSuccess)
    status = cudaDeviceSynchronize();
  if (status != cudaSuccess)
    return std::printf("CUDA error %s\n", cudaGetErrorString(status)), 1;
  cudaMemcpy(host_out, out, 64 * sizeof(unsigned long long), cudaMemcpyDeviceToHost);
  unsigned long long h = 1469598103934665603ull;
  for (unsigned i = 0; i < 64u; ++i)
    h = (h ^ host_out[i]) * 1099511628211ull;
  cudaMemcpyFromSymbol(host_atom32, dense_0_atom32, sizeof(host_atom32));
  for (unsigned i = 0; i < 12u; i += 4u)
    h = (h ^ (host_atom32[i] ^ host_atom32[i + 1] ^ host_atom32[i + 2] ^ host_atom32[i + 3])) *
        1099511628211ull;
  for (unsigned i = 0; i < 12u; i += 4u)
    h = (h ^ (host_atom64[i] ^ host_atom64[i + 1] ^ host_atom64[i + 2] ^ host_atom64[i + 3])) *
        1099511628211ull;
  std::printf("checksum dense_0 %016llx\n", h);
  return 0;
}
