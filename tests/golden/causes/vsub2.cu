// vadd2.cu with another SIMD instruction: another cause.
__global__ void __launch_bounds__(32) dense_0(unsigned long long *__restrict__ out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  short v1 = 0;
  v1 = __vsub2(0, 0x6cd7b644u);
  unsigned long long h = 1469598103934665603ull;
  h = h ^ v1 * 1099511628211ull;
  out[t] = h;
}
