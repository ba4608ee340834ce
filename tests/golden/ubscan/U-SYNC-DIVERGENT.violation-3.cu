// expect: U-SYNC-DIVERGENT
__global__ void k(int* out) {
  if (threadIdx.x == 0) {
    out[0] = 1;
    return;
  }
  int any = __syncthreads_or(out[threadIdx.x] != 0);  // <-
  out[threadIdx.x] = any;
}
