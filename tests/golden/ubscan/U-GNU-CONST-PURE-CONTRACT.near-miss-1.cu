// expect: none
__device__ int calls;
__attribute__((const)) __device__ int square(int x) {
  int y = x * x;
  y += 1;
  return y;
}
__attribute__((pure)) __device__ int first(const int* p) { return p[0] + p[1] + calls; }
__device__ int bump(int* p) { *p = 1; calls += 1; return 0; }

