// configs: nvcc-O3,clang-O3,clang-O0
// stage: device-codegen
// Plain C++ `a * b + c` on floats. CUDA allows contracting it into one fused multiply-add, and
// both optimizing device code generators do: cicc and clang's NVPTX backend at -O3 emit
// fma.rn.f32. clang's NVPTX backend does not contract when it does not optimize (-O0): it emits
// mul.rn.f32 and add.rn.f32, whose .rn forbids ptxas from fusing them. So clang-O0 is the odd
// one out, and rebuilt with ptxas -O3 it still prints its own line: the difference is in the
// PTX, made by device code generation. Inputs as in ptxas_contracts_inline_mul_add.cu: fused,
// 2^-24 (33800000); unfused, 0 (00000000).
#include <cstdio>
#include <cstring>

__global__ void mul_add(const float* in, unsigned* out) {
  const float result = in[0] * in[1] + in[2];
  unsigned bits;
  memcpy(&bits, &result, sizeof bits);
  out[0] = bits;
}

int main() {
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
