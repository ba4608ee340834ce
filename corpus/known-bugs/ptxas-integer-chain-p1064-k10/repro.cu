// ptxas wrong code on nvcc -O3 PTX (found by cudiff's integer-kernel hunt, 2026-11-25, H100).
// Right: k0 963f3fcd9d550a3f (nvcc -O3 -Xptxas -O0, nvcc -O0, clang -O3, clang -O3 -Xcuda-ptxas -O0, clang -O0).
// Wrong: k0 b623283437f5f349 (nvcc -O3, i.e. ptxas -O3; also -Xptxas -O1 and -O2).
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
  if (26u < (unsigned)__popcll(w ^ __vsub2(c, a))) {
    w = w * 0x9e3779b97f4a7c15ull + 5u;
    #pragma unroll 1
    for (unsigned i4 = 0; i4 < ((unsigned)(unsigned char)b & 15u); ++i4) {
      if (((unsigned)(unsigned short)((unsigned)w * (unsigned)q) & 7u) == 4u) continue;
      loc[b & 7u] = __funnelshift_lc(__vsub4(c, 0x727a33c3u), ((unsigned)w << (c & 31u)), __umulhi(7u, b));
      b = a;
    }
  } else {
    a = (unsigned)h;
    a = ((unsigned)__sad((int)(unsigned)(unsigned char)(unsigned)w, (int)((int)(unsigned)q < (int)(unsigned)h ? (unsigned)(w >> 32) : a), 29u) < (~c) ? c : (unsigned)__dp4a(__uhadd((unsigned)h, (unsigned)(w >> 32)), (unsigned)__ffs((unsigned)q), __funnelshift_lc(7u, b, b)));
  }
  if ((~__vadd4((unsigned)h, c)) < 0x624f3d4au) {
    q = (unsigned char)(q ^ (__funnelshift_lc((unsigned)__rhadd((int)0xd3db68f3u, (int)(unsigned)h), __funnelshift_rc(22u, b, b), (unsigned)__dp4a(13u, 0x46e6b8dfu, b)) >> 3));
    if (__vcmpgeu4((unsigned)(unsigned char)d, (unsigned)h) > (((unsigned)w < 1u ? 0xdd7fe80eu : b) | __urhadd(b, 0xf2728813u))) {
      c = (unsigned)(__brevll(w) >> 17);
    }
  }
  for (unsigned i2 = 0; i2 < (__umulhi(a, c) & 7u); ++i2) {
    if ((__funnelshift_lc((unsigned)(w >> 32), (unsigned)h, (unsigned)w) & 15u) == 7u) break;
    if (d > (unsigned)(unsigned short)((unsigned)__rhadd((int)c, (int)d) * __vmaxu4((unsigned)q, 12u))) {
      d = (unsigned)(__umul64hi(w, (unsigned)w) >> (__funnelshift_rc(min((unsigned)q, d), __funnelshift_rc(d, 0x4f6aaba9u, (unsigned)q), __vsub2(b, c)) & 31u));
    }
    loc[min((unsigned)(w >> 32), 0x4dfea61eu) & 7u] = (unsigned)__rhadd((int)(unsigned)__dp4a(28u, 0x2c9eec45u, 0x4622c697u), (int)(unsigned)w);
  }
  a = ((unsigned)__ffs((unsigned)__dp2a_lo((int)d, (int)0x0357db34u, (int)c)) + (unsigned)(signed char)__vabsdiffu4((unsigned)q, (unsigned)(w >> 32)));
  #pragma unroll 1
  for (unsigned i2 = 0; i2 < (b & 15u); ++i2) {
    if ((__funnelshift_l(d, d, 15u) & 15u) == 7u) break;
    h = (unsigned short)(h * (unsigned)(unsigned short)(__vmaxu4(a, a) * __usad(a, (unsigned)h, a)) + c);
    if (((3u ^ 0xe6281a72u) - (unsigned)(__umul64hi(w, (unsigned)h) >> (b & 31u))) != ((unsigned)(__brevll(w) >> 17) < (unsigned)__hadd((int)0x5ff1386du, (int)(unsigned)w) ? ((unsigned)w ^ a) : (unsigned)__popcll(w ^ (unsigned)h))) {
      d = (unsigned)__popcll(w ^ (unsigned)__ffs((d + a)));
      b = c;
    }
  }
  #pragma unroll 1
  for (unsigned i2 = 0; i2 < ((unsigned)__dp4a(d, (unsigned)(w >> 32), (unsigned)w) & 3u); ++i2) {
    if (((b - (unsigned)(w >> 32)) & 15u) == 7u) break;
    if (loc[(unsigned)__dp2a_lo((int)0x02a2f698u, (int)b, (int)7u) & 7u] <= (unsigned)(__umul64hi(w, __vadd4((unsigned)q, (unsigned)(w >> 32))) >> (__vmaxu4(5u, a) & 31u))) {
      loc[(b < 0xc7018aedu ? (unsigned)(w >> 32) : (unsigned)(w >> 32)) & 7u] = (unsigned)__mulhi((int)__vadd4((unsigned)(w >> 32), (unsigned)q), (int)__umulhi(c, d));
    }
    a = __vcmpgeu4((c + __vsub4(c, 0x6a317188u)), a);
    #pragma unroll 1
    for (unsigned i4 = 0; i4 < (__byte_perm(11u, 33u, (unsigned)w) & 3u); ++i4) {
      if ((__uhadd((unsigned)q, 30u) & 15u) == 14u) break;
      c = (__vmaxu4((6u & a), (unsigned)((d >> (0x500e36b5u & 15u)) & ((1u << (0x160be62fu & 15u)) - 1u))) << ((unsigned)(short)loc[a & 7u] & 31u));
      d = (unsigned)((__byte_perm((unsigned)((int)d >> ((unsigned)h & 31u)), (unsigned)__clzll(w | 0x8bebe479u), d) >> ((unsigned)__popcll(w ^ (unsigned)__dp2a_hi(c, a, 0xe0068e16u)) & 15u)) & ((1u << ((unsigned)__sad((int)(unsigned)__clz(b), (int)(unsigned)(w >> 32), (c ^ 0x37bc3952u)) & 15u)) - 1u));
    }
  }
  w ^= (unsigned long long)((unsigned)(((unsigned)q >> (8u & 15u)) & ((1u << (0x24f9c8a0u & 15u)) - 1u)) - 23u) << ((unsigned)__dp4a(15u, (unsigned)w, a) & 63u);
  if ((c << ((unsigned)(((unsigned)h >> (b & 15u)) & ((1u << ((unsigned)(w >> 32) & 15u)) - 1u)) & 31u)) == (unsigned)__clzll(w | __funnelshift_r((unsigned)w, d, 33u))) {
    d = b;
    for (unsigned i4 = 0; i4 < ((a * a) & 7u); ++i4) {
      b = a;
      q = (unsigned char)(q ^ ((unsigned)q >> 3));
    }
  } else {
    b = (unsigned)(__brevll(w) >> 17);
    for (unsigned i4 = 0; i4 < ((unsigned)__dp2a_hi((unsigned)q, c, (unsigned)w) & 15u); ++i4) {
      a = (unsigned)(unsigned short)((unsigned)h * b);
      b = __funnelshift_l(__vadd4((b ^ (unsigned)(w >> 32)), (unsigned)__clz((unsigned)q)), 0x87259115u, (unsigned)__dp4a(((unsigned)h & (unsigned)h), (unsigned)((int)b >> (b & 31u)), (unsigned)((int)(unsigned)(w >> 32) >> (a & 31u))));
    }
  }
  w ^= (unsigned long long)(unsigned)(short)__vsub2(0x3e3dab10u, 18u) << (c & 63u);
  c = (unsigned)__mulhi((int)(__urhadd((unsigned)(w >> 32), (unsigned)h) ^ (d * (unsigned)q)), (int)(unsigned)w);
  c = (unsigned)__popcll(w ^ (unsigned)__clz((unsigned)__popcll(w ^ (unsigned)h)));
  b = __byte_perm((~__uhadd((unsigned)h, b)), __vsub2((unsigned)__popc(b), c), __vsub4((unsigned)(signed char)0xd600bc78u, (unsigned)(__brevll(w) >> 17)));
  d = (min(0x5848fce5u, (unsigned)__clz(c)) & ((c < (unsigned)q ? a : b) & __urhadd((unsigned)w, (unsigned)q)));
  out[t] = w ^ ((unsigned long long)(a ^ b) << 32) ^ (c + d) ^ ((unsigned long long)h << 16) ^ q ^ loc[t & 7u];
}
typedef void (*K)(const unsigned*, unsigned long long*);
K ks[] = {k0};
int main() {
  unsigned host[256]; unsigned long long x = 1064u;
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
