// expect: none
template <typename F> __global__ void run(F f, int* out) { out[0] = f(); }
struct Plain { int v; };
void go(int* out) {
  Plain t{1};
  auto f = [=] __device__ () { return t.v; };
  auto g = [t] __device__ () { return t.v + 1; };
  run<<<1, 1>>>(f, out);
  run<<<1, 1>>>(g, out);
}
