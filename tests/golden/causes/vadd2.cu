// ptxas -O3 miscompiles add.u16x2 of a constant narrowed to short (corpus/known-bugs/
// ptxas-vadd2-short-reduced): the kernel of its reduced reproducer.
__global__ void __launch_bounds__(32) dense_0(unsigned long long *__restrict__ out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  short v1 = 0;
  v1 = __vadd2(0, 0x6cd7b644u);
  unsigned long long h = 1469598103934665603ull;
  h = h ^ v1 * 1099511628211ull;
  out[t] = h;
}
