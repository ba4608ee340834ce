// expect: U-MANAGED-COHERENCE
#include <cstdio>
__managed__ int result;
__global__ void k() { result = 1; }
int main() {
  k<<<1, 1>>>();
  std::printf("%d\n", result);  // <-
  cudaDeviceSynchronize();
}
