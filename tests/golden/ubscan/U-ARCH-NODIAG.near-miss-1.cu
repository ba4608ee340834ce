// expect: none
__global__ void plain_kernel(int v) {}
__host__ __device__ int arch() {
#if __CUDA_ARCH__ >= 800
  return 800;
#elif !defined(__CUDA_ARCH__)
  plain_kernel<<<1, 1>>>(1);
  return 0;
#else
  return 1;
#endif
}
