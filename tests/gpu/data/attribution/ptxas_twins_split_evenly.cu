// configs: nvcc-O3,clang-O3,nvcc-O3-ptxas0,clang-O0
// stage: ptxas
// The default four configs on inline PTX: nvcc-O3 and clang-O3 hand it to ptxas -O3, which
// contracts the mul/add; nvcc-O3-ptxas0 and clang-O0 to ptxas -O0, which does not (README.md).
// Two against two: no majority and no prediction. nvcc-O3 and its twin nvcc-O3-ptxas0 build the
// same PTX and differ: the twin rule names ptxas.
#include <cstdio>
#include <cstring>

__global__ void mul_add(const float* in, unsigned* out) {
  float result;
  asm("{\n\t.reg .f32 product;\n\tmul.f32 product, %1, %2;\n\tadd.f32 %0, product, %3;\n\t}"
      : "=f"(result)
      : "f"(in[0]), "f"(in[1]), "f"(in[2]));
  unsigned bits;
  memcpy(&bits, &result, sizeof bits);
  out[0] = bits;
}

int main() {
  // a = b = 1 + 2^-12, c = -(1 + 2^-11): a*b = 1 + 2^-11 + 2^-24 exactly. Rounded to float
  // first (a tie, to even: 1 + 2^-11) the sum is 0; fused it is 2^-24.
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
