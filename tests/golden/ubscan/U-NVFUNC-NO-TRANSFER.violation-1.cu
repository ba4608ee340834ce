// expect: U-NVFUNC-NO-TRANSFER
#include <nvfunctional>
__global__ void k(nvstd::function<int(int)> fn, int* out) { out[0] = fn(1); }  // <-

