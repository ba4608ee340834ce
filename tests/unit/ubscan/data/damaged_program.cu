// cudiff generated program
// seed: 500
// generator version: 0.4.0
// policy hash: 08698888a1c75192
// size: medium
// constructs enabled: alignas_types atomic_reduction bit_fields builtin_variables class_template constexpr_host_variable device_global_array enums float_members for_loop grid_constant if_else inline_namespace member_functions multi_dim_launch struct_types switch_statement syncthreads_count syncwarp unions vector_members warp_shuffle warp_vote zero_width_bit_fields
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

struct LayS0 {
  float m0;
  bool m1;
  __host__ __device__ unsigned long long cudiff_fold() const {
    unsigned long long h = 14695981039346656037ull;
    h = (h ^ static_cast<unsigned long long>(m1)) * 1099511628211ull;
    return h;
  }
};
static_assert(std::is_standard_layout_v<LayS0>, "cudiff: standard layout");
static_assert(std::is_trivially_copyable_v<LayS0>, "cudiff: trivially copyable");

template <typename T, int Op> struct cudiff_binop;
template <typename T> struct cudiff_binop<T, 0> {
  T lhs;
  __device__ explicit cudiff_binop(T value) : lhs(value) {}
  __device__ T apply(T rhs) const { return lhs + rhs; }
};
template <typename T> struct cudiff_binop<T, 1> {
  T lhs;
  __device__ explicit cudiff_binop(T value) : lhs(value) {}
  __device__ T apply(T rhs) const { return lhs - rhs; }
};
template <typename T> struct cudiff_binop<T, 2> {
  T lhs;
  __device__ explicit cudiff_binop(T value) : lhs(value) {}
  __device__ T apply(T rhs) const { return lhs * rhs; }
};
template <typename T> struct cudiff_binop<T, 3> {
  T lhs;
  __device__ explicit cudiff_binop(T value) : lhs(value) {}
  __device__ T apply(T rhs) const { return lhs & rhs; }
};
template <typename T> struct cudiff_binop<T, 4> {
  T lhs;
  __device__ explicit cudiff_binop(T value) : lhs(value) {}
  __device__ T apply(T rhs) const { return lhs | rhs; }
};
template <typename T> struct cudiff_binop<T, 5> {
  T lhs;
  __device__ explicit cudiff_binop(T value) : lhs(value) {}
  __device__ T apply(T rhs) const { return lhs ^ rhs; }
};

namespace cudiff_test_0 {
constexpr long long kConst5 = (-9ll);
constexpr char kConst11 = ((char)1);
constexpr short kConst13 = ((short)6);
__device__ unsigned int gmem1[16] = {9u, 0u, 1218123979u, 0u, 0u, 859360904u, 4294967295u, 1u, 8u, 3985842875u, 3724441744u, 5u, 13u, 1397128690u, 4294967295u, 1u};
struct kernel_0_constants {
  unsigned int p2;
  short p3;
  int p4;
};
__global__ void kernel_0(unsigned long long* out, const unsigned long long* in, const __grid_constant__ kernel_0_constants gc) {
  const unsigned int tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned int gtid = tid + blockDim.x * blockDim.y * blockDim.z * (blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z));
  int v6 = (cudiff_binop<long long, 4>((~kConst5)).apply(gtid) | ((10ull - gc.p2) + (kConst5 & tid)));
  short v7 = ((in[tid] - gc.p3) + (threadIdx.x / (~(kConst5 - 4u))));
  for (int i8 = -2; i8 < 1; i8 += 3) {
    if (gmem1[((blockDim.z - gc.p3) & 15)]) {
    }
    v7 |= ((((int)cudiff_binop<long long, 0>((-8ll)).apply(gc.p3)) % gc.p3) * 4294967295u);
    int v9 = gc.p2;
  }
  v7 /= blockDim.y;
  signed char v10 = gtid;
  if (((char)(-8))) {
    int v12 = ((in[(gtid & v6)] - (cudiff_binop<unsigned int, 2>(tid).apply(((unsigned short)65534)) + gmem1[(1302570069 & 15)])) >> (((gc.p2 & ((short)(-32768))) * in[(kConst5 & 511)]) && ((gc.p4 == gc.p3) | gmem1[(kConst5 & 15)])));
    unsigned int v14 = (cudiff_binop<long long, 5>(kConst5).apply(v6) * (v12 + v12));
    for (int i15 = -3; i15 < -1; i15 +hort v16 = ((((signed char)12) ^ kConst11) ^ (v14 & 7ull));
      signed char v17 = 3u;
      short v18 = (v7 / (((unsigned char)1) + in[gridDim.z]));
    }
    if (cudiff_binop<long long, 5>(v7).apply((9223372036854775806ll | gc.p2))) {
      unsigned int v19 = (v6 - ((kConst11 * (-2147483647 - 1)) < (gc.p2 ^ kConst13)));
      v12 = (+gtid);
    }
  }
  bool c20 = __all_sync(0xffffffffu, (((tid <= gridDim.y) * v10)) != 0) != 0;
  v7 = cudiff_binop<unsigned int, 2>((cudiff_binop<int, 3>(kConst13).apply(c20) - (blockIdx.z & 199276492u))).apply((((-2) / gc.p3) - ((signed char)(-5))));
  out[gtid * 1u + 0u] = ((((((((((unsigned long long)tid) ^ ((unsigned long long)gtid)) ^ ((unsigned long long)gc.p2)) ^ ((unsigned long long)gc.p3)) ^ ((unsigned long long)gc.p4)) ^ ((unsigned long long)v6)) ^ ((unsigned long long)v7)) ^ ((unsigned long long)v10)) ^ ((unsigned long long)c20));
}

static void run_kernel_0() {
  const size_t words = 256;
  unsigned long long* out = nullptr;
  cudiff_check(cudaMalloc(&out, words * sizeof(unsigned long long)), "cudaMalloc");
  cudiff_check(cudaMemset(out, 0, words * sizeof(unsigned long long)), "cudaMemset");
  static unsigned long long host_in[512];
  for (unsigned int i = 0; i < 512u; ++i) host_in[i] = (unsigned long long)cudiff_input(i, 831223918u, 1u);
  unsigned long long* in = nullptr;
  cudiff_check(cudaMalloc(&in, sizeof(host_in)), "cudaMalloc");
  cudiff_check(cudaMemcpy(in, host_in, sizeof(host_in), cudaMemcpyHostToDevice), "cudaMemcpy");
  kernel_0<<<dim3(2, 1, 2), dim3(64, 1, 1), 0>>>(out, in, kernel_0_constants{9u, ((short)(-32768)), 1});
  cudiff_check(cudaGetLastError(), "cudaLaunchKernel");
  cudiff_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  static unsigned long long host_out[256];
  cudiff_check(cudaMemcpy(host_out, out, sizeof(host_out), cudaMemcpyDeviceToHost), "cudaMemcpy");
  cudiff_check(cudaFree(out), "cudaFree");
  cudiff_check(cudaFree(in), "cudaFree");
  std::printf("checksum kernel_0 %016llx\n", cudiff_fold(host_out, words));
}
} // namespace cudiff_test_0

namespace cudiff_test_1 {
inline namespace v1 {
constexpr unsigned int kConst29 = 16u;
constexpr unsigned int kConst33 = 0u;
__device__ signed char gmem22[4] = {((signed char)(-14)), ((signed char)5), ((signed char)116), ((signed char)11)};
__device__ int gmem23[4] = {1977921480, 1092483404, 2147483646, 0};
struct kernel_1_constants {
  long long p24;
  unsigned short p25;
};
__global__ void kernel_1(unsigned long long* out, const short* in, const __grid_constant__ kernel_1_constants gc) {
  const unsigned int tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned int gtid = tid + blockDim.x * blockDim.y * blockDim.z * (blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z));
  __shared__ char sh31[64];
  unsigned int c26 = __ballot_sync(0xffffffffu, (((unsigned short)41616)) != 0);
  bool c27 = __syncthreads_and((cudiff_binop<unsigned int, 1>(gc.p25).apply((((-1ll) || tid) - (blockIdx.z ^ c26)))) != 0) != 0;
  switch (c27) {
  case 1: {
    switch (gmem22[(c26 & 3)]) {
    case 11: {
      unsigned long long v28 = gmem23[(gc.p24 & 3)];
      break;
    }
    default: {
      break;
    }
    }
    c27 = (gc.p25 ^ kConst29);
    c27 = (blockDim.z % c26);
    break;
  }
  default: {
    break;
  }
  }
  signed char v30 = (-gmem23[((unsigned int)(tid && c26))]);
  sh31[tid] = (c26 & (2124377097u << (gmem23[c27] & 31)));
  __syncwarp();
  char c32 = sh31[(tid & ~31u) | ((tid + 13u) & 31u)];
  if ((cudiff_binop<long long, 3>(((-gc.p24) << gc.p25)).apply(tid) == (((char)blockIdx.z) + ((unsigned short)(~c26))))) {
    v30 = ((((!c27) < (c27 & ((short)1))) - ((c32 - kConst29) * (-(-12)))) - (c26 <= v30));
    v30 = in[((((unsigned int)gc.p24) - (-1ll)) & 511)];
  }
  if ((gmem23[((12u - c27) & 3)] - gmem23[(gtid == v30)])) {
    v30 = gtid;
    unsigned long long v34 = gmem22[(cudiff_binop<long long, 5>(gridDim.x).apply(9223372036854775807ll) & 3)];
    unsigned short v35 = (gmem22[(in[c27] & 3)] / true);
  }
  unsigned short v36 = gtid;
  if (((cudiff_binop<unsigned int, 4>(c26).apply(v36) >> ((-6) & 31)) % (cudiff_binop<unsigned long long, 4>(gridDim.y).apply((5ull * (-14))) + ((gtid - blockIdx.x) >> (tid & 31))))) {
    if (((c26 - c32) ^ kConst29)) {
      int v37 = (((!gtid) + cudiff_binop<unsigned int, 4>(tid).apply(kConst33)) ^ ((v30 != v36) / (c32 ^ c26)));
      c32 = gc.p25;
    }
    int v38 = cudiff_binop<int, 4>((-(c32 && gc.p25))).apply(((0ull - ((short)(-1))) == ((char)gc.p25)));
  }
  int c39 = __shfl_sync(0xffffffffu, (int)(((((gc.p25 * v30) * ((unsigned long long)0u)) + ((gtid >> (((short)17127) & 31)) / (-((signed char)(-10))))) << ((~9223372036854775807ll) & (((short)blockDim.x) - (threadIdx.z + v36))))), 9);
  unsigned long long c40 = __shfl_sync(0xffffffffu, (unsigned long long)(((18446744073709551615ull | tid) * 1418202185024354624ll)), 27);
  int c41 = __syncthreads_count((gtid) != 0);
  out[gtid * 2u + 0u] = (((((((unsigned long long)tid) ^ ((unsigned long long)gc.p24)) ^ ((unsigned long long)c26)) ^ ((unsigned long long)v30)) ^ ((unsigned long long)v36)) ^ c40);
  out[gtid * 2u + 1u] = (((((((unsigned long long)gtid) ^ ((unsigned long long)gc.p25)) ^ ((unsigned long long)c27)) ^ ((unsigned long long)c32)) ^ ((unsigned long long)c39)) ^ ((unsigned long long)c41));
}

static void run_kernel_1() {
  const size_t words = 256;
  unsigned long long* out = nullptr;
  cudiff_check(cudaMalloc(&out, words * sizeof(unsigned long long)), "cudaMalloc");
  cudiff_check(cudaMemset(out, 0, words * sizeof(unsigned long long)), "cudaMemset");
  static short host_in[512];
  for (unsigned int i = 0; i < 512u; ++i) host_in[i] = (short)cudiff_input(i, 1447271912u, 2u);
  short* in = nullptr;
  cudiff_check(cudaMalloc(&in, sizeof(host_in)), "cudaMalloc");
  cudiff_check(cudaMemcpy(in, host_in, sizeof(host_in), cudaMemcpyHostToDevice), "cudaMemcpy");
  kernel_1<<<dim3(2, 1, 1), dim3(32, 1, 2), 0>>>(out, in, kernel_1_constants{(-16ll), ((unsigned short)11)});
  cudiff_check(cudaGetLastError(), "cudaLaunchKernel");
  cudiff_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  static unsigned long long host_out[256];
  cudiff_check(cudaMemcpy(host_out, out, sizeof(host_out), cudaMemcpyDeviceToHost), "cudaMemcpy");
  cudiff_check(cudaFree(out), "cudaFree");
  cudiff_check(cudaFree(in), "cudaFree");
  std::printf("checksum kernel_1 %016llx\n", cudiff_fold(host_out, words));
}
} // inline namespace v1
} // namespace cudiff_test_1

static void cudiff_print_layout() {
  struct Row { const char* type; const char* property; unsigned long long value; };
  static const Row rows[] = {
      {"LayS0", "sizeof", sizeof(LayS0)},
      {"LayS0", "alignof", alignof(LayS0)},
      {"LayS0", "offsetof.m0", offsetof(LayS0, m0)},
      {"LayS0", "offsetof.m1", offsetof(LayS0, m1)},
  };
  for (const Row& row : rows) std::printf("layout %s %s %llu\n", row.type, row.property, row.value);
}


static void cudiff_run_tests() {
  cudiff_test_0::run_kernel_0();
  cudiff_test_1::run_kernel_1();
}

extern "C" { __device__ unsigned long long cudiff_layout_LayS0[] = {sizeof(LayS0), alignof(LayS0), offsetof(LayS0, m0), offsetof(LayS0, m1)}; }

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "--layout") == 0) {
    cudiff_print_layout();
    return 0;
  }
  cudiff_run_tests();
  cudiff_print_layout();
  return 0;
}
