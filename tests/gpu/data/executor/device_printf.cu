// Device printf, never synchronized by the program: a process's exit flushes it, and so must
// the executor after main returns.
#include <cstdio>
__global__ void speaks() { printf("thread %d speaks\n", threadIdx.x); }
int main() {
  std::printf("host first\n");
  speaks<<<1, 4>>>();
  return 0;
}
