// expect: U-EXTLAM-DIAG-COVERAGE
void go(int* out) {
#if defined(__CUDA_ARCH__)
  auto f = [] __device__ (int x) { return x; };  // <-
#endif
}
