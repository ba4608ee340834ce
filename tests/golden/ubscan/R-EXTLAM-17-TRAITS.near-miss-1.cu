// expect: none
#include <type_traits>
template <bool B> __global__ void tagged(int* out) { out[0] = B; }
struct Plain { int v; };
static_assert(std::is_trivially_copyable_v<Plain>, "plain");
void go(int* out) {
  auto f = [] __device__ (int x) { return x; };
  tagged<std::is_trivially_copyable<Plain>::value><<<1, 1>>>(out);
}
