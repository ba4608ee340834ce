// Overload resolution failure: errors followed by notes listing the candidates.
struct S {};
__device__ int f(int x) { return x; }
__device__ int f(float* x) { return 1; }

__global__ void kernel(int* out) {
  S s;
  out[0] = f(s);
}
