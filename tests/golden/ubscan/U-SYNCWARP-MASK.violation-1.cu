// expect: U-SYNCWARP-MASK
__global__ void k(int* out) {
  __syncwarp(0x0000ffff);  // <-
  out[threadIdx.x] = 1;
}
