// A __managed__ variable written in a kernel and read on the host.
#include <cstdio>
__managed__ int x;

__global__ void kernel() { x = 1; }

int main() {
  kernel<<<1, 1>>>();
  std::printf("%d\n", x);
  return 0;
}
