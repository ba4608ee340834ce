// expect: U-THISCAP-HOSTPTR
template <typename F> __global__ void run(F f, int* out) { out[0] = f(); }
struct Launcher {
  int offset = 3;
  void go(int* out) {
    auto f = [=] __device__ () { return offset + 1; };  // <-
    run<<<1, 1>>>(f, out);
  }
};
