// ptxas -O3 wrong code on clang-22's PTX, from a program cudiff's own generator made (campaign
// 2026-11-25 on an H100, seed 22537; bucket wrong_code, stage ptxas). Right: checksum
// s22537/kernel_0 5558104a84a5b883 (the generator's prediction; nvcc -O3, nvcc -O3 -Xptxas -O0,
// clang -O3 -Xcuda-ptxas -O0, clang -O0). Wrong: 954694a376924783 (clang -O3). compute-sanitizer
// memcheck, initcheck and racecheck: 0 errors on the clang -O3 binary.
// cudiff generated batch
// seeds: 22537
// generator version: 0.5.0
// policy hash: 9b3b1ad60b198fac
// size: small
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

// ---- seed 22537 ----
namespace cudiff_s22537 {
struct LayS0 {
  long long m0;
  bool m1;
  unsigned int m2[4];
};
static_assert(std::is_standard_layout_v<LayS0>, "cudiff: standard layout");
static_assert(std::is_trivially_copyable_v<LayS0>, "cudiff: trivially copyable");

template <typename T, std::enable_if_t<std::is_signed<T>::value, int> = 0>
__device__ T cudiff_tweak(T x) { return x ^ T(5); }
template <typename T, std::enable_if_t<std::is_unsigned<T>::value, int> = 0>
__device__ T cudiff_tweak(T x) { return x ^ T(10); }

namespace cudiff_test_0 {
__device__ short gmem1[4] = {((short)6269), ((short)7), ((short)(-16016)), ((short)0)};
// cudiff ABI family: cudiff_abi_0
struct cudiff_abi_0_p0 { unsigned int v[145]; };
__device__ __noinline__ char cudiff_abi_0(cudiff_abi_0_p0 a0, unsigned long long a1, longlong2 a2, uchar4 a3) {
  unsigned long long h = 5376319422930503252ull;
  {
    unsigned long long s = 0;
    for (int i = 0; i < 145; ++i) s += (unsigned long long)(a0).v[i] * (unsigned long long)(2 * i + 3);
    h = h * 1099511628211ull ^ s;
  }
  {
    unsigned long long s = 0;
    s += (unsigned long long)((a1)) * 3ull;
    h = h * 1099511628211ull ^ s;
  }
  {
    unsigned long long s = 0;
    s += (unsigned long long)((a2).x) * 3ull;
    s += (unsigned long long)((a2).y) * 5ull;
    h = h * 1099511628211ull ^ s;
  }
  {
    unsigned long long s = 0;
    s += (unsigned long long)((a3).x) * 3ull;
    s += (unsigned long long)((a3).y) * 5ull;
    s += (unsigned long long)((a3).z) * 7ull;
    s += (unsigned long long)((a3).w) * 9ull;
    h = h * 1099511628211ull ^ s;
  }
  return (char)((h >> 0) & 127ull);
}
static __device__ __forceinline__ unsigned long long cudiff_abi_0_result(const char& r) {
  unsigned long long s = 0;
  s += (unsigned long long)(r) * 3ull;
  return s;
}
static cudiff_abi_0_p0 cudiff_abi_0_p0_make() {
  cudiff_abi_0_p0 t;
  for (unsigned int i = 0; i < 145u; ++i) t.v[i] = 220428007u + i * 3187081721u;
  return t;
}
// cudiff ABI family: cudiff_abi_1
struct cudiff_abi_1_r {};
__device__ __noinline__ cudiff_abi_1_r cudiff_abi_1(short a0, long long a1) {
  unsigned long long h = 9299757126538316365ull;
  {
    unsigned long long s = 0;
    s += (unsigned long long)((a0)) * 3ull;
    h = h * 1099511628211ull ^ s;
  }
  {
    unsigned long long s = 0;
    s += (unsigned long long)((a1)) * 3ull;
    h = h * 1099511628211ull ^ s;
  }
  (void)h;
  return cudiff_abi_1_r{};
}
static __device__ __forceinline__ unsigned long long cudiff_abi_1_result(const cudiff_abi_1_r& r) {
  unsigned long long s = 0;
  s += 7ull;
  (void)r;
  return s;
}
__global__ void __launch_bounds__(128) kernel_0(unsigned long long* __restrict__ out, const unsigned short* __restrict__ in, const __grid_constant__ cudiff_abi_0_p0 abi0_0, unsigned long long abi0_1, const __grid_constant__ longlong2 abi0_2, const __grid_constant__ uchar4 abi0_3, const __grid_constant__ short abi1_0, long long abi1_1) {
  const unsigned int tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned int gtid = tid + blockDim.x * blockDim.y * blockDim.z * (blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z));
  int v2 = ((tid != tid) + gtid);
  for (int i3 = -3; i3 < 1; i3 += 1) {
    if ((gtid % blockDim.z)) {
    } else {
      unsigned long long v4 = 2208546148u;
      v2 ^= ((char)i3);
    }
  }
  if ((in[(v2 & 511)] << (threadIdx.x ^ tid))) {
    v2 &= cudiff_tweak(tid);
    v2 = tid;
  }
  out[gtid * 2u + 0u] = (((((unsigned long long)tid) ^ ((unsigned long long)v2)) ^ cudiff_abi_0_result(cudiff_abi_0(abi0_0, abi0_1, abi0_2, abi0_3))) ^ cudiff_abi_1_result(cudiff_abi_1(abi1_0, abi1_1)));
  out[gtid * 2u + 1u] = ((unsigned long long)gtid);
}

static void run_kernel_0() {
  const size_t words = 256;
  unsigned long long* out = nullptr;
  cudiff_check(cudaMalloc(&out, words * sizeof(unsigned long long)), "cudaMalloc");
  cudiff_check(cudaMemset(out, 0, words * sizeof(unsigned long long)), "cudaMemset");
  static unsigned short host_in[512];
  for (unsigned int i = 0; i < 512u; ++i) host_in[i] = (unsigned short)cudiff_input(i, 1979642075u, 0u);
  unsigned short* in = nullptr;
  cudiff_check(cudaMalloc(&in, sizeof(host_in)), "cudaMalloc");
  cudiff_check(cudaMemcpy(in, host_in, sizeof(host_in), cudaMemcpyHostToDevice), "cudaMemcpy");
  kernel_0<<<dim3(1, 1, 1), dim3(128, 1, 1), 0>>>(out, in, cudiff_abi_0_p0_make(), 14559884423178643459ull, make_longlong2(1892877616563574623ll, (-1926739863121865593ll)), make_uchar4(((unsigned char)195), ((unsigned char)134), ((unsigned char)38), ((unsigned char)21)), ((short)(-14080)), (-810501441885978386ll));
  cudiff_check(cudaGetLastError(), "cudaLaunchKernel");
  cudiff_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  static unsigned long long host_out[256];
  cudiff_check(cudaMemcpy(host_out, out, sizeof(host_out), cudaMemcpyDeviceToHost), "cudaMemcpy");
  cudiff_check(cudaFree(out), "cudaFree");
  cudiff_check(cudaFree(in), "cudaFree");
  std::printf("checksum s22537/kernel_0 %016llx\n", cudiff_fold(host_out, words));
}
} // namespace cudiff_test_0

static void cudiff_print_layout() {
  struct Row { const char* type; const char* property; unsigned long long value; };
  static const Row rows[] = {
      {"s22537_LayS0", "sizeof", sizeof(LayS0)},
      {"s22537_LayS0", "alignof", alignof(LayS0)},
      {"s22537_LayS0", "offsetof.m0", offsetof(LayS0, m0)},
      {"s22537_LayS0", "offsetof.m1", offsetof(LayS0, m1)},
      {"s22537_LayS0", "offsetof.m2", offsetof(LayS0, m2)},
  };
  for (const Row& row : rows) std::printf("layout %s %s %llu\n", row.type, row.property, row.value);
}


static void cudiff_run_tests() {
  cudiff_test_0::run_kernel_0();
}
} // namespace cudiff_s22537
extern "C" { __device__ unsigned long long cudiff_layout_s22537_LayS0[] = {sizeof(cudiff_s22537::LayS0), alignof(cudiff_s22537::LayS0), offsetof(cudiff_s22537::LayS0, m0), offsetof(cudiff_s22537::LayS0, m1), offsetof(cudiff_s22537::LayS0, m2)}; }

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "--layout") == 0) {
    cudiff_s22537::cudiff_print_layout();
    return 0;
  }
  cudiff_check(cudaDeviceSetLimit(cudaLimitStackSize, 2048), "cudaDeviceSetLimit");
  cudiff_s22537::cudiff_run_tests();
  cudiff_s22537::cudiff_print_layout();
  return 0;
}
