// cudiff generated program
// seed: 8
// generator version: 0.4.0
// policy hash: 08698888a1c75192
// size: small
// constructs enabled: alignas_types builtin_variables class_types delegating_constructors dynamic_shared empty_bases enums for_loop if_else inline_qualifiers kernel_parameters launch_bounds multi_dim_launch restrict_pointers sfinae shared_exchange struct_types variadic_fold warp_shuffle warp_vote
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>

static void cudiff_check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    std::printf("CUDA error %s: %s\n", what, cudaGetErrorString(status));
    std::fflush(stdout);
    std::exit(1);
  }
}

static unsigned long long cudiff_input(unsigned int index, unsigned int salt, unsigned int mode) {
  unsigned long long x = (index + 1ull) * 0x9E3779B97F4A7C15ull ^ salt;
  x ^= x >> 29;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 32;
  if (mode == 1) return (x & 63) - 32;
  if (mode == 2) return x & 0xffff;
  return x;
}

static unsigned long long cudiff_fold(const unsigned long long* words, size_t count) {
  unsigned long long hash = 1469598103934665603ull;
  for (size_t i = 0; i < count; ++i) {
    hash ^= words[i];
    hash *= 1099511628211ull;
  }
  return hash;
}

template <typename... Ts> __device__ auto cudiff_fold_left_or(Ts... xs) { return (... | xs); }

namespace cudiff_test_0 {
__global__ void __launch_bounds__(128) kernel_0(unsigned long long* __restrict__ out, const char* __restrict__ in, unsigned int p1) {
  const unsigned int tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned int gtid = tid + blockDim.x * blockDim.y * blockDim.z * (blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z));
  int v2 = (p1 | 2ull);
  unsigned int c3 = __shfl_sync(0xffffffffu, (unsigned int)((((tid & threadIdx.x) < (tid == v2)) + (cudiff_fold_left_or(gtid, p1, p1, v2) - (gtid - v2)))), 9);
  long long v4 = (blockIdx.x % in[blockIdx.z]);
  out[gtid * 1u + 0u] = (((((((unsigned long long)tid) ^ ((unsigned long long)gtid)) ^ ((unsigned long long)p1)) ^ ((unsigned long long)v2)) ^ ((unsigned long long)c3)) ^ ((unsigned long long)v4));
}

static void run_kernel_0() {
  const size_t words = 256;
  unsigned long long* out = nullptr;
  cudiff_check(cudaMalloc(&out, words * sizeof(unsigned long long)), "cudaMalloc");
  cudiff_check(cudaMemset(out, 0, words * sizeof(unsigned long long)), "cudaMemset");
  static char host_in[512];
  for (unsigned int i = 0; i < 512u; ++i) host_in[i] = (char)cudiff_input(i, 1323515799u, 1u);
  char* in = nullptr;
  cudiff_check(cudaMalloc(&in, sizeof(host_in)), "cudaMalloc");
  cudiff_check(cudaMemcpy(in, host_in, sizeof(host_in), cudaMemcpyHostToDevice), "cudaMemcpy");
  kernel_0<<<dim3(2, 1, 1), dim3(128, 1, 1), 0>>>(out, in, 4294967294u);
  cudiff_check(cudaGetLastError(), "cudaLaunchKernel");
  cudiff_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  static unsigned long long host_out[256];
  cudiff_check(cudaMemcpy(host_out, out, sizeof(host_out), cudaMemcpyDeviceToHost), "cudaMemcpy");
  cudiff_check(cudaFree(out), "cudaFree");
  cudiff_check(cudaFree(in), "cudaFree");
  std::printf("checksum kernel_0 %016llx\n", cudiff_fold(host_out, words));
}
} // namespace cudiff_test_0

static void cudiff_print_layout() {
}


static void cudiff_run_tests() {
  cudiff_test_0::run_kernel_0();
}


int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "--layout") == 0) {
    cudiff_print_layout();
    return 0;
  }
  cudiff_run_tests();
  cudiff_print_layout();
  return 0;
}
