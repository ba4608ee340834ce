// An #error that only the host pass sees: it comes from nvcc's host preprocessing (gcc).
#ifndef __CUDA_ARCH__
#error host side only
#endif

__global__ void kernel(int* out) { out[0] = 1; }
