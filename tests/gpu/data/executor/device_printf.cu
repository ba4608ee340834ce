// Device printf, flushed by the program's own synchronization: the lines land in the program's
// stdout on both paths. (Without that synchronization a process shows them or not, as its exit
// races the kernel: seen both ways on one H200, so that case is no test of faithfulness.)
#include <cstdio>
__global__ void speaks() { printf("thread %d speaks\n", threadIdx.x); }
int main() {
  std::printf("host first\n");
  speaks<<<1, 4>>>();
  cudaDeviceSynchronize();
  std::printf("host last\n");
  return 0;
}
