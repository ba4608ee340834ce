// expect: U-SYNCWARP-MASK
__global__ void k(int* out) {
  if (threadIdx.x & 1)
    __syncwarp();  // <-
}
