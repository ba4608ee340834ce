// configs: nvcc-O3,clang-O3,nvcc-O0
// stage: ptxas
// Plain C++ this time: cicc -O3 and clang emit fma.rn.f32, cicc -O0 (nvcc-O0) emits mul.f32 and
// add.f32, which ptxas -O0 leaves apart (README.md). nvcc-O0 rebuilt with ptxas -O3 fuses them
// and prints the majority's line: the difference is ptxas's level, not the PTX.
#include <cstdio>
#include <cstring>

__global__ void mul_add(const float* in, unsigned* out) {
  const float result = in[0] * in[1] + in[2];
  unsigned bits;
  memcpy(&bits, &result, sizeof bits);
  out[0] = bits;
}

int main() {
  // a = b = 1 + 2^-12, c = -(1 + 2^-11): unfused 0, fused 2^-24 (see the inline case).
  const unsigned input_bits[3] = {0x3F800800u, 0x3F800800u, 0xBF801000u};
  float input[3];
  memcpy(input, input_bits, sizeof input);
  float* device_in = nullptr;
  unsigned* device_out = nullptr;
  if (cudaMalloc(&device_in, sizeof input) != cudaSuccess || cudaMalloc(&device_out, sizeof(unsigned)) != cudaSuccess) {
    std::printf("CUDA error: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 1;
  }
  cudaMemcpy(device_in, input, sizeof input, cudaMemcpyHostToDevice);
  mul_add<<<1, 1>>>(device_in, device_out);
  unsigned result = 0;
  const cudaError_t status = cudaMemcpy(&result, device_out, sizeof result, cudaMemcpyDeviceToHost);
  if (status != cudaSuccess) {
    std::printf("CUDA error: %s\n", cudaGetErrorString(status));
    return 1;
  }
  std::printf("checksum mul_add %08x\n", result);
  return 0;
}
