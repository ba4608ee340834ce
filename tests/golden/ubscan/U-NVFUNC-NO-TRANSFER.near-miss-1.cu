// expect: none
#include <nvfunctional>
__global__ void k(int* out) {
  nvstd::function<int(int)> fn = [](int x) { return x + 1; };
  out[0] = fn(1);
}
