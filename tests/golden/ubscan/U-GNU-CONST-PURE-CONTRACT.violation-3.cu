// expect: U-GNU-CONST-PURE-CONTRACT
__attribute__((pure)) __device__ int bump(int* p);
__device__ int bump(int* p) {
  *p = 1;  // <-
  return 0;
}
