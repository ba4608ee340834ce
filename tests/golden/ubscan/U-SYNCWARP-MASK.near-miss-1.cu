// expect: none
#define FULL_MASK 0xffffffff
constexpr unsigned kFull = 0xFFFFFFFFu;
__global__ void k(int* out) {
  __shared__ int s[32];
  s[threadIdx.x] = threadIdx.x;
  __syncwarp();
  __syncwarp(0xffffffffu);
  __syncwarp(~0u);
  __syncwarp(kFull);
  __syncwarp(FULL_MASK);
  out[threadIdx.x] = s[(threadIdx.x + 1) & 31];
}
