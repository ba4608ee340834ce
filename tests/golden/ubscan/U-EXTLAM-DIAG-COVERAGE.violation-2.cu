// expect: U-EXTLAM-DIAG-COVERAGE
void go() {
  auto f = [] __device__ (int x) { return x; };
  int (*fp)(int) = f;  // <-
}
