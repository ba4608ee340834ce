// expect: U-MEM-OPT-CACHING
__device__ int ready;
__global__ void wait_for(int* out) {
  while (ready == 0) {}  // <-
  out[0] = 1;
}
