// Prints what every run of a program is given (runners::program_environment) after one kernel:
// a process, an executor and compute-sanitizer's run must print the same.
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
__global__ void one(int* out) { *out = 1; }
int main() {
  int* device = nullptr;
  if (cudaMalloc(&device, sizeof(int)) != cudaSuccess) return 1;
  one<<<1, 1>>>(device);
  int word = 0;
  if (cudaMemcpy(&word, device, sizeof word, cudaMemcpyDeviceToHost) != cudaSuccess) return 1;
  cudaFree(device);
  for (const char* name : {"CUDA_CACHE_DISABLE", "CUDA_VISIBLE_DEVICES"}) {
    const char* value = std::getenv(name);
    std::printf("kernel %d %s=%s\n", word, name, value != nullptr ? value : "(unset)");
  }
  return 0;
}
