// clang-22's NVPTX backend crashes ("Cannot select: ... brind") on a computed goto (GNU
// labels as values) in device code; nvcc rejects the same code with a front-end error
// ("address of label extension is not supported in __device__/__global__ functions"). clang
// should diagnose it too rather than die in instruction selection.
// Found by hand while building this suite (2026-11, clang 22.1.8); no public report found.
__device__ int pick(int i) {
  static void *labels[] = {&&first, &&second};
  goto *labels[i & 1];
first:
  return 1;
second:
  return 2;
}

__global__ void kernel(int *out) { out[threadIdx.x] = pick(threadIdx.x); }
