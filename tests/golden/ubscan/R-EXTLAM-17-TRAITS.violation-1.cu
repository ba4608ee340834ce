// expect: R-EXTLAM-17-TRAITS
#include <type_traits>
template <bool B> __global__ void tagged(int* out) { out[0] = B; }
void go(int* out) {
  auto f = [] __device__ (int x) { return x; };
  tagged<std::is_trivially_copyable<decltype(f)>::value><<<1, 1>>>(out);  // <-
}
