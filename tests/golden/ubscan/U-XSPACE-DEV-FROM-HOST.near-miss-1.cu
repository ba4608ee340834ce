// expect: none
__device__ int dev_only(int x) { return x; }
__host__ __device__ int both(int x) {
#if defined(__CUDA_ARCH__)
  return dev_only(x);
#else
  return x;
#endif
}
__global__ void k(int* out) { out[0] = dev_only(both(1)); __syncthreads(); }
int main() { return both(2); }

