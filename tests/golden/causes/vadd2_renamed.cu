// vadd2.cu's bug reached by another program: other names, another namespace, other constants,
// a device array beside it. Its normalized PTX (and cause) must be vadd2.cu's.
__device__ int unrelated_table[4] = {1, 2, 3, 4};
namespace s1026020699234 {
__global__ void __launch_bounds__(32) dense_3(unsigned long long *__restrict__ result) {
  const unsigned thread = blockIdx.x * blockDim.x + threadIdx.x;
  short acc = 0;
  acc = __vadd2(0, 0x12345678u);
  unsigned long long hash = 1469598103934665603ull;
  hash = hash ^ acc * 1099511628211ull;
  result[thread] = hash;
}
} // namespace s1026020699234
