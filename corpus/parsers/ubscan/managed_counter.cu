// A __managed__ variable used from a kernel and from the host (CUDA C++ Programming Guide,
// managed memory). nvcc accepts it; clang-22 with CUDA 13's headers does not.
#include <cstdio>

__managed__ int counter;

__global__ void bump() { atomicAdd(&counter, 1); }

int main() {
  counter = 0;
  bump<<<4, 32>>>();
  cudaDeviceSynchronize();
  std::printf("counter %d\n", counter);
  return counter == 128 ? 0 : 1;
}
