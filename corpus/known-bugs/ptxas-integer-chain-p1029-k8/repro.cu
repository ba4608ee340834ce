// ptxas wrong code on nvcc -O3 PTX (found by cudiff's integer-kernel hunt, 2026-11-25, H100).
// Right: k0 d61d307629ee99e9 (nvcc -O3 -Xptxas -O0, nvcc -O0, clang -O3, clang -O3 -Xcuda-ptxas -O0, clang -O0).
// Wrong: k0 c34bab6e97bc43e1 (nvcc -O3, i.e. ptxas -O3; also -Xptxas -O1 and -O2).
// compute-sanitizer memcheck and initcheck: 0 errors on both nvcc -O3 and -Xptxas -O0 binaries.
#include <cstdio>
#include <cuda_runtime.h>
__global__ void k0(const unsigned* in, unsigned long long* out) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned a = in[t], b = in[(t * 7u + 3u) & 255u], c = in[(t * 13u + 5u) & 255u], d = t;
  unsigned long long w = ((unsigned long long)a << 32) | c;
  unsigned short h = (unsigned short)b; unsigned char q = (unsigned char)(c >> 8);
  unsigned loc[8];
  for (unsigned i = 0; i < 8u; ++i) loc[i] = in[(t + i * 31u) & 255u];
  d = __vabsdiffu4(__vcmpgeu4(a, (unsigned)(__umul64hi(w, (unsigned)h) >> ((unsigned)(w >> 32) & 31u))), __vabsdiffu4(__funnelshift_lc(d, 0x17e5d9a3u, (unsigned)(w >> 32)), (unsigned)((int)0x04d5facfu >> ((unsigned)(w >> 32) & 31u))));
  loc[__vabsdiffu4(0x8683edb7u, b) & 7u] = (unsigned)(w >> 32);
  #pragma unroll 4
  for (unsigned i2 = 0; i2 < ((0x1f9b333cu < b ? 21u : d) & 15u); ++i2) {
    if (((unsigned)__popc(0x2b3a63e3u) & 15u) == 11u) break;
    loc[(d ^ 6u) & 7u] = ((unsigned)h + b);
    a = b;
  }
  w ^= (unsigned long long)(unsigned)(short)__vsub2(12u, d) << (__funnelshift_l(22u, (unsigned)h, 9u) & 63u);
  b = (unsigned)__dp2a_hi((~(unsigned)(short)a), __byte_perm(__funnelshift_rc((unsigned)(w >> 32), (unsigned)q, b), (0xefe0a432u >> (b & 31u)), (unsigned)(unsigned char)b), (unsigned)__clz(__vcmpgeu4(15u, d)));
  if ((((int)(unsigned)(w >> 32) < (int)(unsigned)q ? 11u : (unsigned)w) * (unsigned)(unsigned char)c) > __funnelshift_rc(__funnelshift_lc(d, d, b), b, (unsigned)__ffs(b))) {
    loc[b & 7u] = __uhadd((unsigned)(((unsigned)q >> (b & 15u)) & ((1u << ((unsigned)q & 15u)) - 1u)), ((unsigned)(w >> 32) | c));
  } else {
    c = (unsigned)max((int)__funnelshift_r((unsigned)(w >> 32), ((int)3u < (int)c ? a : b), __funnelshift_r(b, (unsigned)h, b)), (int)((int)(unsigned)(unsigned short)(c * b) < (int)__funnelshift_l(b, b, c) ? (unsigned)(unsigned char)b : __byte_perm(d, d, 18u)));
  }
  a = 0x100809b5u;
  loc[__brev((unsigned)w) & 7u] = (unsigned)__hadd((int)__funnelshift_l(b, (unsigned)q, a), (int)24u);
  w = w * 0x9e3779b97f4a7c15ull + (__vmaxu4(c, a) | __brev((unsigned)q));
  c = (unsigned)(signed char)(unsigned)(signed char)(unsigned)(signed char)(unsigned)w;
  a = (unsigned)((int)min(__funnelshift_lc(17u, (unsigned)q, (unsigned)h), b) >> ((((unsigned)q - 28u) < (c < (unsigned)w ? a : d) ? (unsigned)__popcll(w ^ b) : (unsigned)(__brevll(w) >> 17)) & 31u));
  a = min(__funnelshift_rc((unsigned)(__umul64hi(w, (unsigned)(w >> 32)) >> (b & 31u)), (unsigned)(__umul64hi(w, b) >> (a & 31u)), (unsigned)__hadd((int)(unsigned)q, (int)(unsigned)h)), (unsigned)__clzll(w | (a & c)));
  a = (__byte_perm(__usad(b, (unsigned)w, 0x927ca8cfu), __funnelshift_r((unsigned)q, a, (unsigned)(w >> 32)), d) ^ (unsigned)(__umul64hi(w, (unsigned)__hadd((int)a, (int)25u)) >> (__byte_perm((unsigned)(w >> 32), d, d) & 31u)));
  a = (unsigned)max((int)25u, (int)(unsigned)__mulhi((int)__vsub2((unsigned)h, (unsigned)(w >> 32)), (int)__vadd4(c, (unsigned)(w >> 32))));
  out[t] = w ^ ((unsigned long long)(a ^ b) << 32) ^ (c + d) ^ ((unsigned long long)h << 16) ^ q ^ loc[t & 7u];
}
typedef void (*K)(const unsigned*, unsigned long long*);
K ks[] = {k0};
int main() {
  unsigned host[256]; unsigned long long x = 1029u;
  for (int i = 0; i < 256; ++i) { x = x * 6364136223846793005ull + 1442695040888963407ull; host[i] = (unsigned)(x >> 29); }
  unsigned* in; unsigned long long* out; cudaMalloc(&in, sizeof host); cudaMalloc(&out, 256 * 8);
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  for (int k = 0; k < (int)(sizeof ks / sizeof ks[0]); ++k) {
    cudaMemset(out, 0, 256 * 8);
    ks[k]<<<2, 128>>>(in, out);
    unsigned long long res[256]; cudaError_t e = cudaMemcpy(res, out, sizeof res, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) { printf("k%d error %s\n", k, cudaGetErrorString(e)); return 1; }
    unsigned long long f = 1469598103934665603ull;
    for (int i = 0; i < 256; ++i) f = (f ^ res[i]) * 1099511628211ull;
    printf("k%d %016llx\n", k, f);
  }
  return 0;
}
