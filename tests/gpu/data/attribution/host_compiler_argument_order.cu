// configs: nvcc-O3,clang-O3
// stage: host-compiler
// The device results agree (one checksum line, the same under both); a host-side line differs.
// The order in which a call's arguments are evaluated is unspecified in C++ ([expr.call]), and
// the host compilers choose differently: g++ (nvcc's host compiler) evaluates these two from
// right to left, clang from left to right. So the difference is in host code only, and the
// attribution names the host compiler without rebuilding anything.
#include <cstdio>

__global__ void square(int* out) { out[threadIdx.x] = static_cast<int>(threadIdx.x * threadIdx.x); }

static int calls = 0;
static int next_call() { return ++calls; }

int main() {
  int* device_out = nullptr;
  if (cudaMalloc(&device_out, 32 * sizeof(int)) != cudaSuccess) {
    std::printf("CUDA error: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 1;
  }
  square<<<1, 32>>>(device_out);
  int out[32] = {};
  const cudaError_t status = cudaMemcpy(out, device_out, sizeof out, cudaMemcpyDeviceToHost);
  if (status != cudaSuccess) {
    std::printf("CUDA error: %s\n", cudaGetErrorString(status));
    return 1;
  }
  unsigned sum = 0;
  for (int value : out) sum = sum * 31u + static_cast<unsigned>(value);
  std::printf("checksum square %08x\n", sum);
  std::printf("host argument order %d %d\n", next_call(), next_call());
  return 0;
}
