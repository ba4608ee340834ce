// expect: U-GNU-CONST-PURE-CONTRACT
__attribute__((const)) __device__ int get(const int* p) {
  return p[0];  // <-
}
