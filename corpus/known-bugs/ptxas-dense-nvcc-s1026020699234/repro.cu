// cudiff generated program
// seed: 1026020699234
// generator version: 0.6.0
// policy hash: f4db456c62dd0e79
// size: small
// constructs enabled: alignas_members alignas_types atomic_cas_loop atomic_ref bit_fields builtin_variables cg_reduce class_types conditional_operator constexpr_host_variable constructors device_function_pointer device_global_array empty_bases extended_lambda float_members function_template functor_argument if_else inline_qualifiers kernel_parameters member_functions multi_dim_launch multiple_inheritance shared_exchange static_local struct_types syncthreads_count syncwarp vector_members warp_shuffle
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
  long long m0;
  unsigned long m1;
  LayS0() = default;
  __host__ __device__ explicit LayS0(long long a0) : m0(a0) {}
};
static_assert(std::is_standard_layout_v<LayS0>, "cudiff: standard layout");
static_assert(std::is_trivially_copyable_v<LayS0>, "cudiff: trivially copyable");
class LayC1 {
public:
  ushort1 m2;
  bool m3;
  int m4;
  alignas(2) bool m5;
  __host__ __device__ unsigned long long cudiff_fold() const {
    unsigned long long h = 14695981039346656037ull;
    h = (h ^ static_cast<unsigned long long>(m3)) * 1099511628211ull;
    h = (h ^ static_cast<unsigned long long>(m4)) * 1099511628211ull;
    h = (h ^ static_cast<unsigned long long>(m5)) * 1099511628211ull;
    return h;
  }
};
static_assert(std::is_standard_layout_v<LayC1>, "cudiff: standard layout");
static_assert(std::is_trivially_copyable_v<LayC1>, "cudiff: trivially copyable");


namespace cudiff_test_0 {
constexpr int kConst3 = (-6);
constexpr int kConst6 = 2147483646;
constexpr int kConst8 = (-46231550);
constexpr int kConst11 = 2147483646;
__device__ int gmem1[8] = {(-166866522), 1555571766, (-518196940), 860840447, 0, (-1443652180), 1127431937, (-1140810792)};
__device__ int table2(unsigned int i) {
  static const int values[8] = {(-1196365414), 1971218489, 0, 7, 2147483646, 10, 1, 2147483646};
  return values[i];
}
__global__ void kernel_0(unsigned long long* out, const bool* in) {
  const unsigned int tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned int gtid = tid + blockDim.x * blockDim.y * blockDim.z * (blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z));
  __shared__ signed char sh9[32];
  __shared__ int sh12[32];
  bool v4 = (table2((!kConst3)) == ((long long)(gridDim.x ? tid : 0ull)));
  char v5 = gtid;
  v5 += (gmem1[(v5 & 7)] || v4);
  if (((int)((kConst3 >= blockIdx.x) ? (0ull << v4) : threadIdx.z))) {
  } else {
    if (gridDim.x) {
      bool v7 = (((-7ll) - kConst3) ^ (+(-9ll)));
    }
  }
  sh9[tid] = ((v4 || gtid) % ((signed char)kConst6));
  __syncwarp();
  signed char c10 = sh9[(tid & ~31u) | ((tid ^ 7u) & 31u)];
  sh12[tid] = ((unsigned char)kConst8);
  __syncwarp();
  int c13 = sh12[(tid & ~31u) | ((tid + 9u) & 31u)];
  out[gtid * 2u + 0u] = ((((unsigned long long)tid) ^ ((unsigned long long)v4)) ^ ((unsigned long long)c10));
  out[gtid * 2u + 1u] = ((((unsigned long long)gtid) ^ ((unsigned long long)v5)) ^ ((unsigned long long)c13));
}

static void run_kernel_0() {
  const size_t words = 128;
  unsigned long long* out = nullptr;
  cudiff_check(cudaMalloc(&out, words * sizeof(unsigned long long)), "cudaMalloc");
  cudiff_check(cudaMemset(out, 0, words * sizeof(unsigned long long)), "cudaMemset");
  static bool host_in[512];
  for (unsigned int i = 0; i < 512u; ++i) host_in[i] = (bool)cudiff_input(i, 1713171087u, 2u);
  bool* in = nullptr;
  cudiff_check(cudaMalloc(&in, sizeof(host_in)), "cudaMalloc");
  cudiff_check(cudaMemcpy(in, host_in, sizeof(host_in), cudaMemcpyHostToDevice), "cudaMemcpy");
  kernel_0<<<dim3(1, 1, 2), dim3(1, 1, 32), 0>>>(out, in);
  cudiff_check(cudaGetLastError(), "cudaLaunchKernel");
  cudiff_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  static unsigned long long host_out[128];
  cudiff_check(cudaMemcpy(host_out, out, sizeof(host_out), cudaMemcpyDeviceToHost), "cudaMemcpy");
  cudiff_check(cudaFree(out), "cudaFree");
  cudiff_check(cudaFree(in), "cudaFree");
  std::printf("checksum kernel_0 %016llx\n", cudiff_fold(host_out, words));
}
} // namespace cudiff_test_0

namespace cudiff_dense {
// compute-dense kernel dense_0: dense_arith dense_collectives dense_fp_exact dense_functions dense_goto dense_intrinsics dense_local_array dense_loops dense_narrow dense_shared_words dense_simd dense_switch dense_wide
__device__ __noinline__ unsigned dense_0_f2(const unsigned* __restrict__ in, unsigned t, unsigned long long p0, unsigned int p1, unsigned int p2) {
  unsigned x = (unsigned)p0;
  unsigned long long y = (unsigned long long)p0;
  p0 = (unsigned long long)min((long long)(unsigned long long)((long long)(unsigned long long)((long long)(int)x * (int)(unsigned)(signed char)((signed char)p2 * (signed char)in[(0x11u) & 255u])) >> ((__vmaxu4(0x1cu, t) * __vabsdiffs4(in[(__brev(0x2bu)) & 255u], (unsigned)y)) & 63u)), (long long)((unsigned long long)(long long)(int)p1 >> (t & 63u)));
  p0 -= (((unsigned long long)(unsigned)((short)in[((unsigned)p0) & 255u] >> ((unsigned)y & 15u)) << 32) | (p1 * (unsigned)p0));
  return ((__vabsdiffu2((unsigned)p0, (unsigned)p0) / ((unsigned)__ffs((int)x) | 1u)) - (unsigned)p0);
}
__device__ __forceinline__ unsigned long long dense_0_f1(const unsigned* __restrict__ in, unsigned t, unsigned int p0, unsigned int p1) {
  unsigned x = (unsigned)p0;
  unsigned long long y = (unsigned long long)p0;
  y = (((unsigned long long)p1 * (unsigned long long)t) << ((0u - t) & 63u));
  x = (unsigned)(unsigned short)((unsigned short)__funnelshift_lc(0x8u, x, in[(p1) & 255u]) ^ ((unsigned short)__vminu4(p1, p0) >> 3));
  p1 = (unsigned)y;
  return __umul64hi(((((unsigned long long)(unsigned)y << 32) | 0x7u) / ((unsigned long long)t | 1ull)), y);
}
__device__ __forceinline__ unsigned dense_0_f0(const unsigned* __restrict__ in, unsigned t, unsigned int p0) {
  unsigned x = (unsigned)p0;
  unsigned long long y = (unsigned long long)p0;
  if (x) {
    x -= __usad(__vmaxs2(p0, 0x2fu), (((unsigned)y << (0x40u & 31u)) | ((unsigned)y >> ((32u - (0x40u & 31u)) & 31u))), (0u - x));
    p0 = ((unsigned)__dp4a((int)(unsigned)y, (int)0xffffu, (int)t) | __vadd4(0xc46d436fu, __vsub2((0x15ea2240u | (unsigned)y), __funnelshift_rc(p0, in[((unsigned)__ffs((int)(unsigned)y)) & 255u], (unsigned)y))));
  }
  y = __umul64hi((unsigned long long)x, (unsigned long long)t);
  x = __brev(x);
  y *= (((unsigned long long)((unsigned)__dp2a_lo((int)x, (int)(unsigned)y, (int)0xfu) * (unsigned)__rhadd((int)in[((unsigned)((int)(unsigned)y >> (x & 31u))) & 255u], (int)0xb90b62bdu) + (unsigned)(unsigned short)((unsigned short)0x4u + (unsigned short)t)) << 32) | 0x11u);
  x *= (t % ((unsigned)fmaxf((float)(0xdf7d032bu & 0xffffu), (float)(0x27u & 0xffffu)) | 1u));
  return __vsub2(__vcmplts2(0xf8a8a74au, (unsigned)y), 0x684a2aacu);
}
__global__ void __launch_bounds__(128) dense_0(const unsigned* __restrict__ in, unsigned long long* __restrict__ out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned sb = threadIdx.x * 8u;
  __shared__ uint4 store[256];
  unsigned* const sh = reinterpret_cast<unsigned*>(store);
  unsigned a = in[t & 255u], b = in[(t * 7u + 3u) & 255u], c = in[(t * 13u + 5u) & 255u], d = t;
  unsigned long long w = ((unsigned long long)a << 32) | c;
  signed char v0 = (signed char)in[(t * 27u + 5u) & 255u];
  unsigned long long v1 = (unsigned long long)in[(t * 29u + 6u) & 255u];
  unsigned char v2 = (unsigned char)in[(t * 31u + 7u) & 255u];
  signed char v3 = (signed char)in[(t * 33u + 8u) & 255u];
  signed char v4 = (signed char)in[(t * 35u + 9u) & 255u];
  unsigned char v5 = (unsigned char)in[(t * 37u + 10u) & 255u];
  unsigned loc[8];
  for (unsigned k = 0; k < 8u; ++k) loc[k] = in[(t + k * 31u) & 255u];
  for (unsigned k = 0; k < 8u; ++k) sh[sb + k] = in[(t * 3u + k) & 255u];
  v1 &= (unsigned long long)((long long)(int)(unsigned)(unsigned short)((unsigned short)(unsigned)v0 ^ ((unsigned short)in[(__dp2a_hi((unsigned)v3, b, loc[(__vmaxs2(loc[(__dp2a_hi(in[(0x4b3fe25du) & 255u], in[(__funnelshift_rc(t, (unsigned)v1, 0x59ed84d8u)) & 255u], 0x153c9fu)) & 7u], 0x7u)) & 7u])) & 255u] >> 3)) * (int)(a + 0x2u));
  v0 = (signed char)((unsigned)((int)b % (int)(((unsigned)v3 & 0xffffu) | 1u)));
  v4 = (signed char)((unsigned)(signed char)((signed char)(unsigned)(unsigned short)((unsigned short)0x4u + (unsigned short)(unsigned)v0) * (signed char)in[((unsigned)(unsigned short)((unsigned)(unsigned short)(unsigned)v5 * (unsigned short)(unsigned)v0)) & 255u]));
  v4 = (signed char)((unsigned)__popc(0x0u));
  b = __reduce_max_sync(0xffffffffu, (unsigned)(short)((short)t - (short)__funnelshift_lc(in[(0x6472a933u) & 255u], (unsigned)v2, in[((unsigned)__hadd((int)in[(__vmaxs2(sh[sb + (((unsigned)(short)((short)t * (short)(unsigned)v5)) & 7u)], in[(t) & 255u])) & 255u], (int)in[((unsigned)__rhadd((int)in[((unsigned)((int)loc[(t) & 7u] >> ((unsigned)v3 & 31u))) & 255u], (int)c)) & 255u])) & 255u])));
  for (unsigned i0 = 0; i0 < (((in[((unsigned)v4) & 255u] - __vhaddu4(in[(__vmaxs2((unsigned)w, 0x4b3b37f2u)) & 255u], (unsigned)v3))) & 1u) + 2u; ++i0) {
    v5 = (unsigned char)(loc[(__vmins4(0x8000u, sh[sb + (((unsigned)(unsigned long long)((double)(i0 & 0xffffu) * (double)(loc[((unsigned)((signed char)d >> (loc[(__vsub2(i0, 0x6068d810u)) & 7u] & 7u))) & 7u] & 0xffffu) + (double)((unsigned)v0 & 0xfffffu))) & 7u)])) & 7u]);
    v1 = (unsigned long long)((long long)(unsigned long long)v4 >> ((0x5u >> ((unsigned)((signed char)__vmaxs2(sh[sb + (((unsigned)__dp2a_lo((int)loc[(i0) & 7u], (int)c, (int)in[((unsigned)__ffsll((long long)(unsigned long long)in[((unsigned)(unsigned short)((unsigned short)0x8d4c93dau ^ ((unsigned short)(unsigned)v2 >> 3))) & 255u])) & 255u])) & 7u)], (unsigned)v4) >> ((unsigned)((int)(unsigned)v1 / (int)((i0 & 0xffffu) | 1u)) & 7u)) & 31u)) & 63u));
    v2 = (unsigned char)((0u - a));
    switch ((loc[((unsigned)v2) & 7u]) & 7u) {
    case 7u:
      {
        v2 = (unsigned char)(__umulhi(__vhaddu4(__vsub4((unsigned)__dp2a_lo((int)(unsigned)v0, (int)i0, (int)in[(__vmaxs2(t, (unsigned)v1)) & 255u]), (unsigned)__rhadd((int)t, (int)in[((unsigned)((signed char)0x3e31bc0u >> (in[(i0) & 255u] & 7u))) & 255u])), (unsigned)__ffs((int)__funnelshift_l(in[((unsigned)((int)(unsigned)w >> ((unsigned)v1 & 31u))) & 255u], (unsigned)v3, in[(__vcmpgeu2(t, d)) & 255u]))), in[((unsigned)__popc(b)) & 255u]));
        switch ((__dp4a((unsigned)v5, i0, in[((loc[((in[(__vabsdiffs4((unsigned)v0, 0x3u)) & 255u] ^ (unsigned)v5)) & 7u] | (unsigned)v5)) & 255u])) & 7u) {
        case 1u:
          {
            v3 = (signed char)(d);
          }
          break;
        case 3u:
          {
            v0 = (signed char)((unsigned)((short)(unsigned)v2 >> (__funnelshift_l((unsigned)v2, (unsigned)v3, in[(__vhaddu4((unsigned)w, (unsigned)v4)) & 255u]) & 15u)));
            v4 = (signed char)((unsigned)(signed char)((signed char)(unsigned)(short)((short)(unsigned)v2 - (short)(unsigned)v4) * (signed char)(in[(__vsub4((unsigned)w, c)) & 255u] + i0)));
          }
          break;
        case 5u:
          {
            loc[(__urhadd((unsigned)__dp4a((int)0x8u, (int)loc[(a) & 7u], (int)(unsigned)v1), __vadd2(i0, (unsigned)v5))) & 7u] = (~(unsigned)(unsigned short)((unsigned)(unsigned short)in[((unsigned)((int)d / (int)(((unsigned)w & 0xffffu) | 1u))) & 255u] * (unsigned short)0x595897bfu));
            v0 = (signed char)(__vadd2(c, 0x10u));
          }
          break;
        case 7u:
          {
            v5 = (unsigned char)((unsigned)__popcll((((unsigned long long)i0 << 32) | sh[sb + (((unsigned)(unsigned long long)((double)((unsigned)v3 & 0xffffu) * (double)(i0 & 0xffffu) + (double)(i0 & 0xfffffu))) & 7u)])));
            v4 = (signed char)(__vhaddu4((unsigned)(unsigned char)((unsigned char)t + (unsigned char)d), b));
          }
          break;
        default:
          {
            v2 = (unsigned char)(in[(dense_0_f0(in, t, 0x28u)) & 255u]);
          }
          break;
        }
      }
      [[fallthrough]];
    default:
      {
        if (((unsigned)__dp4a((int)(unsigned)v4, (int)i0, (int)sh[sb + ((__usad(a, i0, (unsigned)v1)) & 7u)]) / (__vadd4(((unsigned)w | t), (unsigned)(unsigned short)((unsigned short)(unsigned)v2 ^ ((unsigned short)(unsigned)w >> 3))) | 1u))) goto skip_1000;
        {
          loc[(__vadd4((unsigned)((int)loc[((unsigned)__clzll((long long)(unsigned long long)i0)) & 7u] / (int)((in[(b) & 255u] & 0xffffu) | 1u)), __sad((int)c, (int)in[((unsigned)v3) & 255u], (unsigned)v3))) & 7u] = (unsigned)v3;
          v1 = (unsigned long long)i0;
        }
        skip_1000:;
      }
      break;
    }
  }
  v2 = (unsigned char)((unsigned)(short)((short)(unsigned)__dp4a((int)in[((unsigned)(unsigned long long)b) & 255u], (int)(unsigned)w, (int)0x96b65fd4u) - (short)(unsigned)v3));
  c ^= (unsigned)(unsigned short)((unsigned short)__vavgu4((unsigned)v0, (unsigned)v2) + (unsigned short)__vcmpeq4((unsigned)v3, t));
  {
    unsigned long long h = 1469598103934665603ull;
    h = (h ^ (unsigned long long)v0) * 1099511628211ull;
    h = (h ^ (unsigned long long)v1) * 1099511628211ull;
    h = (h ^ (unsigned long long)v2) * 1099511628211ull;
    h = (h ^ (unsigned long long)v3) * 1099511628211ull;
    h = (h ^ (unsigned long long)v4) * 1099511628211ull;
    h = (h ^ (unsigned long long)v5) * 1099511628211ull;
    for (unsigned k = 0; k < 8u; ++k) h = (h ^ loc[k]) * 1099511628211ull;
    for (unsigned k = 0; k < 8u; ++k) h = (h ^ sh[sb + k]) * 1099511628211ull;
    out[t * 4u + 0u] = ((unsigned long long)a << 32) | b;
    out[t * 4u + 1u] = ((unsigned long long)c << 32) | d;
    out[t * 4u + 2u] = w;
    out[t * 4u + 3u] = h;
  }
}

static void run_dense_0() {
  static unsigned host_in[256];
  for (unsigned int i = 0; i < 256u; ++i) host_in[i] = (unsigned)cudiff_input(i, 2336904269u, 0u);
  unsigned* in = nullptr;
  cudiff_check(cudaMalloc(&in, sizeof(host_in)), "cudaMalloc");
  cudiff_check(cudaMemcpy(in, host_in, sizeof(host_in), cudaMemcpyHostToDevice), "cudaMemcpy");
  const size_t words = 1024;
  unsigned long long* out = nullptr;
  cudiff_check(cudaMalloc(&out, words * sizeof(unsigned long long)), "cudaMalloc");
  cudiff_check(cudaMemset(out, 0, words * sizeof(unsigned long long)), "cudaMemset");
  dense_0<<<2, 128, 0>>>(in, out);
  cudiff_check(cudaGetLastError(), "cudaLaunchKernel");
  cudiff_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  static unsigned long long host_out[1024];
  cudiff_check(cudaMemcpy(host_out, out, sizeof(host_out), cudaMemcpyDeviceToHost), "cudaMemcpy");
  cudiff_check(cudaFree(out), "cudaFree");
  cudiff_check(cudaFree(in), "cudaFree");
  std::printf("checksum dense_0 %016llx\n", cudiff_fold(host_out, words));
}

} // namespace cudiff_dense

static void cudiff_print_layout() {
  struct Row { const char* type; const char* property; unsigned long long value; };
  static const Row rows[] = {
      {"LayS0", "sizeof", sizeof(LayS0)},
      {"LayS0", "alignof", alignof(LayS0)},
      {"LayS0", "offsetof.m0", offsetof(LayS0, m0)},
      {"LayS0", "offsetof.m1", offsetof(LayS0, m1)},
      {"LayC1", "sizeof", sizeof(LayC1)},
      {"LayC1", "alignof", alignof(LayC1)},
      {"LayC1", "offsetof.m2", offsetof(LayC1, m2)},
      {"LayC1", "offsetof.m3", offsetof(LayC1, m3)},
      {"LayC1", "offsetof.m4", offsetof(LayC1, m4)},
      {"LayC1", "offsetof.m5", offsetof(LayC1, m5)},
  };
  for (const Row& row : rows) std::printf("layout %s %s %llu\n", row.type, row.property, row.value);
}


static void cudiff_run_tests() {
  cudiff_test_0::run_kernel_0();
  cudiff_dense::run_dense_0();
}

extern "C" { __device__ unsigned long long cudiff_layout_LayS0[] = {sizeof(LayS0), alignof(LayS0), offsetof(LayS0, m0), offsetof(LayS0, m1)}; }
extern "C" { __device__ unsigned long long cudiff_layout_LayC1[] = {sizeof(LayC1), alignof(LayC1), offsetof(LayC1, m2), offsetof(LayC1, m3), offsetof(LayC1, m4), offsetof(LayC1, m5)}; }

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "--layout") == 0) {
    cudiff_print_layout();
    return 0;
  }
  cudiff_check(cudaDeviceSetLimit(cudaLimitStackSize, 4096), "cudaDeviceSetLimit");
  cudiff_run_tests();
  cudiff_print_layout();
  return 0;
}
