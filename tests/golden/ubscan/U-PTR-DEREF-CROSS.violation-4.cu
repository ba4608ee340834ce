// expect: U-PTR-DEREF-CROSS
#include <cstdlib>
__global__ void k(int* p) { p[0] = 1; }
int main() {
  int* h = (int*)malloc(16);
  k<<<1, 1>>>(h);  // <-
}
