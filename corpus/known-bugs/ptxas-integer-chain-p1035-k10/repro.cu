// ptxas wrong code on nvcc -O3 PTX (found by cudiff's integer-kernel hunt, 2026-11-25, H100).
// Right: k0 2d25e4cabdc5cede (nvcc -O3 -Xptxas -O0, nvcc -O0, clang -O3, clang -O3 -Xcuda-ptxas -O0, clang -O0).
// Wrong: k0 455e124d53cc0a0b (nvcc -O3, i.e. ptxas -O3; also -Xptxas -O1 and -O2).
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
  if ((unsigned)__sad((int)(unsigned)h, (int)(unsigned)q, __vcmpgeu4((unsigned)(w >> 32), c)) > __brev(((unsigned)q << (a & 31u)))) {
    loc[(unsigned)__hadd((int)a, (int)d) & 7u] = (__vadd4(a, (unsigned)(w >> 32)) + (a < 7u ? b : (unsigned)w));
  } else {
    b = (unsigned)__rhadd((int)__funnelshift_lc(((unsigned)q + a), ((unsigned)(w >> 32) << (0u & 31u)), (d | (unsigned)h)), (int)__usad(__funnelshift_rc(d, 2u, (unsigned)q), __uhadd((unsigned)w, (unsigned)w), __vcmpgeu4(d, d)));
    b = (unsigned)(unsigned char)(unsigned)((int)(unsigned)(signed char)(unsigned)q >> ((unsigned)(signed char)c & 31u));
  }
  w = w * 0x9e3779b97f4a7c15ull + __uhadd((unsigned)__dp2a_hi((unsigned)(w >> 32), a, a), __vadd4(9u, (unsigned)h));
  if ((unsigned)w < __byte_perm(__vcmpgeu4((unsigned)h, b), __funnelshift_l((unsigned)h, (unsigned)q, d), (unsigned)(signed char)c)) {
    w = w * 0x9e3779b97f4a7c15ull + ((0x515b7b54u < 0xcb7c1198u ? b : (unsigned)w) ^ __vmaxu4(c, (unsigned)(w >> 32)));
    b = (__funnelshift_r((unsigned)__dp4a((unsigned)q, 0xaf3114f1u, a), a, (unsigned)__ffs((unsigned)w)) ^ (unsigned)(short)__vsub2(24u, a));
  } else {
    for (unsigned i4 = 0; i4 < (12u & 3u); ++i4) {
      if (((unsigned)__sad((int)21u, (int)b, 0xc7591d3du) & 15u) == 2u) break;
      loc[(unsigned)w & 7u] = (unsigned)(w >> 32);
      c = min((unsigned)((int)33u >> (((unsigned)q | (unsigned)h) & 31u)), (unsigned)__rhadd((int)(unsigned)__popcll(w ^ (unsigned)h), (int)(c ^ c)));
    }
  }
  h = (unsigned short)(h * (unsigned)(__umul64hi(w, (unsigned)__dp4a((unsigned)w, (unsigned)(w >> 32), (unsigned)h)) >> (d & 31u)) + (a << (b & 31u)));
  w = w * 0x9e3779b97f4a7c15ull + loc[(unsigned)__mulhi((int)15u, (int)(unsigned)(w >> 32)) & 7u];
  c = __uhadd((__funnelshift_r((unsigned)w, 10u, 0xa8722f9eu) - c), 0x5a0fd74fu);
  for (unsigned i2 = 0; i2 < (a & 3u); ++i2) {
    if ((__vabsdiffu4(0x234004ffu, 0x1cb50081u) & 15u) == 1u) break;
    b = __urhadd((unsigned)h, __funnelshift_lc(__vsub2(d, (unsigned)q), __usad(0x76a34e12u, (unsigned)w, (unsigned)w), (unsigned)__ffs(c)));
    q = (unsigned char)(q ^ ((unsigned)__dp2a_hi((d >> ((unsigned)(w >> 32) & 31u)), (unsigned)(unsigned char)8u, (unsigned)__mulhi((int)(unsigned)q, (int)33u)) >> 3));
    d = b;
  }
  out[t] = w ^ ((unsigned long long)(a ^ b) << 32) ^ (c + d) ^ ((unsigned long long)h << 16) ^ q ^ loc[t & 7u];
}
typedef void (*K)(const unsigned*, unsigned long long*);
K ks[] = {k0};
int main() {
  unsigned host[256]; unsigned long long x = 1035u;
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
