// expect: none
template <typename F> __global__ void run(F f, int* out) { out[0] = f(); }
struct Launcher {
  int offset = 3;
  void go(int* out) {
    auto f = [=, *this] __device__ () { return offset + 1; };
    auto g = [*this] __device__ () { return offset; };
    int local = offset;
    auto h = [=] __device__ () { return local; };
    run<<<1, 1>>>(f, out);
    run<<<1, 1>>>(g, out);
    run<<<1, 1>>>(h, out);
  }
};
