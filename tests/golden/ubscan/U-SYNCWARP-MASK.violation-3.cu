// expect: U-SYNCWARP-MASK
__global__ void k(int* out, unsigned mask) {
  __syncwarp(mask);  // <-
}
