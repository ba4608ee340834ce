// Two tests of a batch, each a kernel in its seed's namespace calling a __noinline__ device
// function, and a loop with a branch: the cause of s11/kernel_0 is its kernel and its callee.
namespace s11 {
__device__ __noinline__ unsigned mix(unsigned x, unsigned y) { return (x << 3) ^ (y * 2654435761u); }
__global__ void kernel_0(unsigned *out, unsigned n) {
  unsigned acc = threadIdx.x;
  for (unsigned i = 0; i < n; ++i)
    if (acc & 1) acc = mix(acc, i);
    else acc += i;
  out[threadIdx.x] = acc;
}
} // namespace s11
namespace s12 {
__device__ __noinline__ unsigned long long fold(unsigned long long x) { return x % 1000003ull; }
__global__ void kernel_0(unsigned long long *out) { out[threadIdx.x] = fold(threadIdx.x * 77ull); }
} // namespace s12
