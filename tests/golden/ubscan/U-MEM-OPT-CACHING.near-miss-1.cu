// expect: none
__device__ int ready;
__device__ int count;
__global__ void wait_for(volatile int* flag, int* out) {
  while (atomicAdd(&ready, 0) == 0) {}
  while (*flag == 0) {}
  int i = 0;
  while (i < count) { out[i] = i; ++i; }
  out[0] = 1;
}
