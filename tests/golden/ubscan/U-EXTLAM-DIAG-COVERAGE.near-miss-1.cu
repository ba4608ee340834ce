// expect: none
#include <type_traits>
template <typename F> __global__ void run(F f, int* out) { out[0] = f(1); }
void go(int* out) {
  auto f = [] __device__ (int x) { return x; };
  auto h = [] __host__ __device__ (int x) { return x + 1; };
  int (*hp)(int) = h;
  using R = std::invoke_result_t<decltype(h), int>;
  R r = hp(1);
  run<<<1, 1>>>(f, out);
  run<<<1, 1>>>(h, out + r);
}
