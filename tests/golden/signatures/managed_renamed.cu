// The same discrepancy as ../diagnostics/managed_in_kernel.cu, in another file, with another
// variable name, at other lines: it must get the same bucket key.
#include <cstdio>

struct Unused {
  int a;
};

__managed__ int hits;

__global__ void count_hits(int n) {
  if (n > 0) hits = n;
}

int main() {
  count_hits<<<1, 1>>>(3);
  cudaDeviceSynchronize();
  std::printf("%d\n", hits);
  return 0;
}
