// expect: U-EXTLAM-12-CAPTURE-COPY
#include <cstdio>
template <typename F> __global__ void run(F f, int* out) { out[0] = f(); }
struct Tracked {
  int v;
  Tracked(int x) : v(x) {}
  Tracked(const Tracked& o) : v(o.v) { std::printf("copied\n"); }
};
void go(int* out) {
  Tracked t(1);
  auto f = [=] __device__ () { return t.v; };  // <-
  run<<<1, 1>>>(f, out);
}
