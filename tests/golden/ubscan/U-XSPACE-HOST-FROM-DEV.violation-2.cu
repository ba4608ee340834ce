// expect: U-XSPACE-HOST-FROM-DEV
int host_only(int x) { return x + 1; }
__host__ __device__ int both(int x) {
  return host_only(x);  // <-
}
