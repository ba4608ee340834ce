// expect: U-PTR-DEREF-CROSS
static const int lookup[4] = {1, 2, 3, 4};
__global__ void k(int* out) {
  out[0] = lookup[threadIdx.x & 3];  // <-
}
