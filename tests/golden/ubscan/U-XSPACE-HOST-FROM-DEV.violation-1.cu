// expect: U-XSPACE-HOST-FROM-DEV
int host_only(int x) { return x + 1; }
__global__ void k(int* out) {
  out[0] = host_only(3);  // <-
}
