// The same clang front-end crash as ../diagnostics/debug_crash.cu (#pragma clang __debug
// crash), in another file with other code before it: it must get the same bucket key.
struct Pair {
  int first;
  float second;
};

__device__ int twice(int v) { return 2 * v; }

__global__ void fill(Pair* out, int n) {
  out[0].first = twice(n);
#pragma clang __debug crash
}
