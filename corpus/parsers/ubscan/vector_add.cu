// A plain kernel program both compilers accept; with a GPU both binaries print the same sum.
#include <cstdio>

__global__ void scale_add(const int* in, int* out, int n, int factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * factor + i;
}

int main() {
  const int n = 1024;
  int host_in[n], host_out[n];
  for (int i = 0; i < n; ++i) host_in[i] = i % 17;
  int *in = nullptr, *out = nullptr;
  if (cudaMalloc(&in, sizeof host_in) != cudaSuccess || cudaMalloc(&out, sizeof host_out) != cudaSuccess) {
    std::printf("CUDA error: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 1;
  }
  cudaMemcpy(in, host_in, sizeof host_in, cudaMemcpyHostToDevice);
  scale_add<<<n / 128, 128>>>(in, out, n, 3);
  cudaError_t status = cudaMemcpy(host_out, out, sizeof host_out, cudaMemcpyDeviceToHost);
  if (status != cudaSuccess) {
    std::printf("CUDA error: %s\n", cudaGetErrorString(status));
    return 1;
  }
  long long sum = 0;
  for (int i = 0; i < n; ++i) sum += host_out[i];
  std::printf("checksum scale_add %llx\n", static_cast<unsigned long long>(sum));
  cudaFree(in);
  cudaFree(out);
  return 0;
}
