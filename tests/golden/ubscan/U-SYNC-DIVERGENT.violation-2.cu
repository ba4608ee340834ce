// expect: U-SYNC-DIVERGENT
__device__ void step(int* s) { s[threadIdx.x] += 1; __syncthreads(); }
__global__ void k(int* s) {
  for (int i = 0; i < (int)threadIdx.x; ++i)
    step(s);  // <-
}
