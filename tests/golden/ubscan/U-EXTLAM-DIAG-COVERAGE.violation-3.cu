// expect: U-EXTLAM-DIAG-COVERAGE
#include <type_traits>
void go() {
  auto f = [] __device__ (int x) { return x; };
  using R = std::invoke_result_t<decltype(f), int>;  // <-
}
