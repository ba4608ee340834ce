// expect: U-SYNC-DIVERGENT
__global__ void k(int* out) {
  int v = threadIdx.x % 2 ? __syncthreads_count(out[0] > 1) : 0;  // <-
  out[threadIdx.x] = v;
}
