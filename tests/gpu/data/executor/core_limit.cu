// Prints its kernel's word and its core-file limit: 0 in an executor as in a process (no program
// that faults writes a core file of a CUDA address space).
#include <cstdio>
#include <sys/resource.h>
__global__ void seven(int* out) { *out = 7; }
int main() {
  int* device = nullptr;
  if (cudaMalloc(&device, sizeof(int)) != cudaSuccess) return 1;
  seven<<<1, 1>>>(device);
  int word = 0;
  if (cudaMemcpy(&word, device, sizeof word, cudaMemcpyDeviceToHost) != cudaSuccess) return 1;
  cudaFree(device);
  rlimit core{};
  getrlimit(RLIMIT_CORE, &core);
  std::printf("kernel %d core %llu %llu\n", word, static_cast<unsigned long long>(core.rlim_cur),
              static_cast<unsigned long long>(core.rlim_max));
  return 0;
}
