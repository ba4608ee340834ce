// A kernel that never ends: the run limit stops it.
#include <cstdio>
__global__ void spins(volatile int* flag) {
  while (*flag == 0) {
  }
}
int main() {
  int* flag = nullptr;
  cudaMalloc(&flag, sizeof(int));
  cudaMemset(flag, 0, sizeof(int));
  std::printf("spinning\n");
  std::fflush(stdout);
  spins<<<1, 1>>>(flag);
  cudaDeviceSynchronize();
  std::printf("never\n");
  return 0;
}
