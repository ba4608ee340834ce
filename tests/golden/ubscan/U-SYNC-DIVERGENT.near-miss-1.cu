// expect: none
__device__ void step(int* s) { __syncthreads(); s[threadIdx.x] += 1; }
__global__ void k(int* out) {
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  step(s);
  if (threadIdx.x < 16) out[threadIdx.x] = s[threadIdx.x ^ 1];
  {
    __syncthreads();
  }
  int c = __syncthreads_count(threadIdx.x > 3 && out != nullptr);
  bool all = __syncthreads_and((threadIdx.x ? c : 1) != 0) != 0;
  if constexpr (sizeof(int) == 4) {
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i) out[i] += all;
}
