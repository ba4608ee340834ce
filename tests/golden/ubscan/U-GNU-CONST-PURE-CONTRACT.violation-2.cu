// expect: U-GNU-CONST-PURE-CONTRACT
__device__ int calls;
__attribute__((pure)) __device__ int count(int x) {
  calls += 1;  // <-
  return x;
}
