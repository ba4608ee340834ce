// expect: U-ARCH-NODIAG
#ifdef __CUDA_ARCH__
__device__ int table[4];  // <-
#else
__device__ int table[8];
#endif

