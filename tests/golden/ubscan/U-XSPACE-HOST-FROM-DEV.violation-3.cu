// expect: U-XSPACE-HOST-FROM-DEV
#include <cstdio>
__global__ void k(int* out) {
  puts("device");  // <-
}
