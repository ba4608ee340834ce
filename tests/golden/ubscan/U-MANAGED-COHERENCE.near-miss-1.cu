// expect: none
#include <cstdio>
__managed__ int result;
__global__ void k(int* r) { *r = 1; }
int main() {
  result = 0;
  k<<<1, 1>>>(&result);
  cudaDeviceSynchronize();
  std::printf("%d\n", result);
}
