// expect: none
__host__ __device__ void sync_if_device(int* s) {
#ifndef __CUDA_ARCH__
  if (s == nullptr) return;
#else
  __syncthreads();
#endif
}
__global__ void k(int* s) { sync_if_device(s); }
