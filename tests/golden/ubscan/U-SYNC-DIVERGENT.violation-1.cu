// expect: U-SYNC-DIVERGENT
__global__ void k(int* out) {
  if (threadIdx.x < 16) {
    __syncthreads();  // <-
  }
  out[threadIdx.x] = 1;
}
