// expect: U-ARCH-NODIAG
template <typename T> __global__ void kern(T in) {}
__host__ __device__ void launch() {
#if !defined(__CUDA_ARCH__)
  kern<<<1, 1>>>(1);  // <-
#endif
}
