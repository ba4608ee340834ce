// clang-22 lowers the block- and system-scoped atomic min/max of unsigned words as signed
// (atom.cta.max.s32, atom.sys.min.s32, atom.cta.max.s64); nvcc emits .u32/.u64. With operands
// past the sign bit the stored values differ: unsigned max(1, 0x80000000) is 0x80000000, the
// signed one leaves 1.
#include <cstdio>

__global__ void dense_0(unsigned *words, unsigned long long *wide) {
  atomicMax_block(&words[0], 0x80000000u);
  atomicMin_system(&words[1], 0x80000001u);
  atomicMax_block(&wide[0], 0x8000000000000000ull);
}

int main() {
  unsigned words[2] = {1u, 1u};
  unsigned long long wide = 1ull;
  unsigned *d_words = nullptr;
  unsigned long long *d_wide = nullptr;
  if (cudaMalloc(&d_words, sizeof words) != cudaSuccess || cudaMalloc(&d_wide, sizeof wide) != cudaSuccess) return 2;
  cudaMemcpy(d_words, words, sizeof words, cudaMemcpyHostToDevice);
  cudaMemcpy(d_wide, &wide, sizeof wide, cudaMemcpyHostToDevice);
  dense_0<<<1, 1>>>(d_words, d_wide);
  if (cudaDeviceSynchronize() != cudaSuccess) return 3;
  cudaMemcpy(words, d_words, sizeof words, cudaMemcpyDeviceToHost);
  cudaMemcpy(&wide, d_wide, sizeof wide, cudaMemcpyDeviceToHost);
  std::printf("max_block %08x min_system %08x max_block64 %016llx\n", words[0], words[1], wide);
  return 0;
}
