// expect: U-XSPACE-DEV-FROM-HOST
__device__ int dev_only(int x) { return x; }
__host__ __device__ int both(int x) {
  return dev_only(x);  // <-
}
