// ptxas wrong code on nvcc -O3 PTX (found by cudiff's integer-kernel hunt, 2026-11-25, H100).
// Right: k0 dc3fd5621b4199ab (nvcc -O3 -Xptxas -O0, nvcc -O0, clang -O3, clang -O3 -Xcuda-ptxas -O0, clang -O0).
// Wrong: k0 0fa8e4bda6372292 (nvcc -O3, i.e. ptxas -O3; also -Xptxas -O1 and -O2).
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
  q = (unsigned char)(q ^ (a >> 3));
  c = (unsigned)(signed char)(unsigned)__hadd((int)(0x377a3091u | (unsigned)q), (int)((int)0x9afcefdcu < (int)18u ? 28u : 22u));
  w = w * 0x9e3779b97f4a7c15ull + (unsigned)(signed char)loc[(unsigned)h & 7u];
  d = (unsigned)__sad((int)min((b ^ (unsigned)h), (a < d ? b : (unsigned)w)), (int)(unsigned)__dp4a(__vsub4((unsigned)h, (unsigned)h), (17u ^ (unsigned)w), __vsub2((unsigned)h, (unsigned)w)), __vadd4((unsigned)((0x6a6084f1u >> ((unsigned)q & 15u)) & ((1u << ((unsigned)q & 15u)) - 1u)), __umulhi(b, a)));
  #pragma unroll 1
  for (unsigned i2 = 0; i2 < (__vsub2(c, 0xe76c76a8u) & 3u); ++i2) {
    if ((a & 7u) == 5u) continue;
    if ((unsigned)__sad((int)(0x94014ab7u | c), (int)(unsigned)(signed char)a, (unsigned)__hadd((int)(unsigned)h, (int)d)) == __funnelshift_rc((unsigned)__clz(b), (unsigned)__mulhi((int)(unsigned)h, (int)b), __vabsdiffu4((unsigned)w, 0x0bd75ed7u))) {
      d = (unsigned)__ffs((unsigned)__clz((unsigned)__popcll(w ^ b)));
    } else {
      d += ((d < (unsigned)w ? (unsigned)(w >> 32) : 22u) ^ __vmaxu4(a, a));
    }
    a = ((unsigned)(w >> 32) < (unsigned)__clzll(w | __byte_perm((unsigned)q, (unsigned)w, b)) ? __vabsdiffu4(__vmaxu4((unsigned)(w >> 32), 0x8622bdf6u), (unsigned)q) : (unsigned)q);
    w ^= (unsigned long long)__funnelshift_rc(((unsigned)(w >> 32) ^ (unsigned)(w >> 32)), (unsigned)(signed char)d, (unsigned)(unsigned char)(unsigned)w) << (b & 63u);
  }
  d = (unsigned)h;
  d = a;
  w = w * 0x9e3779b97f4a7c15ull + ((unsigned)(signed char)d + ((unsigned)w < (unsigned)q ? 0x089156f7u : (unsigned)w));
  if ((unsigned)h == (unsigned)__popcll(w ^ __vabsdiffu4((unsigned)h, 0x4adcb208u))) {
    w ^= (unsigned long long)(__funnelshift_l(b, (unsigned)q, (unsigned)h) + __funnelshift_lc((unsigned)h, 0x8eacc96au, (unsigned)w)) << (__vadd4(b, c) & 63u);
    b = __funnelshift_r((unsigned)(__brevll(w) >> 17), d, (unsigned)(w >> 32));
  } else {
    q = (unsigned char)(q ^ (__vmaxu4((unsigned)(short)(unsigned)(w >> 32), ((unsigned)w - c)) >> 3));
  }
  if (__uhadd((unsigned)(unsigned char)7u, __byte_perm(a, (unsigned)(w >> 32), c)) != (unsigned)__popcll(w ^ (unsigned)h)) {
    a = ((unsigned)__clz(a) - d);
  } else {
    d = __funnelshift_rc(((int)__vabsdiffu4(a, d) < (int)0x67c1982au ? ((int)b < (int)(unsigned)h ? (unsigned)w : (unsigned)w) : __umulhi(b, (unsigned)q)), __vadd4(((unsigned)(w >> 32) | (unsigned)h), (unsigned)h), (unsigned)(signed char)((unsigned)(w >> 32) < b ? 6u : 0xff667602u));
  }
  c = ((unsigned)__rhadd((int)__usad(0x1dfdd585u, 10u, c), (int)__vadd4(a, b)) ^ (unsigned)(signed char)(b + b));
  if ((unsigned)__dp4a((unsigned)max((int)0xc64ba66eu, (int)b), 21u, ((unsigned)h - (unsigned)(w >> 32))) < 0x359ca5a0u) {
    h = (unsigned short)(h * __funnelshift_l(b, (unsigned)__hadd((int)(unsigned)h, (int)d), (unsigned)((int)32u >> (b & 31u))) + __brev(31u));
    d = 29u;
  } else {
    c = __funnelshift_r(((b << (0x0dbf55aau & 31u)) & (a + (unsigned)(w >> 32))), (unsigned)max((int)__vsub4(d, 22u), (int)(unsigned)(signed char)(unsigned)q), (~(unsigned)__clzll(w | a)));
    d = d;
  }
  #pragma unroll 1
  for (unsigned i2 = 0; i2 < ((d ^ (unsigned)q) & 3u); ++i2) {
    if ((unsigned)__popcll(w ^ ((unsigned)w < d ? 0x4f262a29u : d)) == (unsigned)__clz((unsigned)w)) {
      d += __umulhi((unsigned)(__brevll(w) >> 17), (unsigned)__dp2a_lo((int)0xb7858779u, (int)d, (int)(unsigned)h));
    } else {
      h = (unsigned short)(h * (unsigned)__clz(min((unsigned)w, 30u)) + ((unsigned)h << (d & 31u)));
      d = __uhadd(__funnelshift_l((unsigned)__popcll(w ^ (unsigned)w), d, __vadd4(c, d)), (unsigned)max((int)(unsigned)__ffs(d), (int)(unsigned)__ffs(c)));
    }
    d = (unsigned)__hadd((int)(unsigned)(short)__vsub2(0x18a0c24du, b), (int)__usad(__vmaxu4((unsigned)h, (unsigned)(w >> 32)), __usad(d, a, (unsigned)(w >> 32)), (unsigned)__clzll(w | (unsigned)w)));
    b = __vcmpgeu4(((unsigned)w ^ a), ((unsigned)__sad((int)(unsigned)w, (int)d, c) | (unsigned)(((unsigned)q >> (c & 15u)) & ((1u << ((unsigned)h & 15u)) - 1u))));
  }
  if ((unsigned)__hadd((int)min(11u, 28u), (int)(unsigned)__dp4a((unsigned)h, (unsigned)q, (unsigned)(w >> 32))) <= c) {
    a = (unsigned)__dp2a_hi((unsigned)((((unsigned)q & (unsigned)(w >> 32)) >> (((unsigned)h < 21u ? 31u : b) & 15u)) & ((1u << ((unsigned)__popc(d) & 15u)) - 1u)), __usad(__brev(0x351cdad9u), ((unsigned)q << (23u & 31u)), (unsigned)__clzll(w | 0xb68d16d3u)), d);
  } else {
    a = __vadd4((__urhadd(0x1cc10a98u, d) << ((unsigned)(signed char)b & 31u)), __vadd4(((unsigned)h + 15u), (unsigned)w));
  }
  out[t] = w ^ ((unsigned long long)(a ^ b) << 32) ^ (c + d) ^ ((unsigned long long)h << 16) ^ q ^ loc[t & 7u];
}
typedef void (*K)(const unsigned*, unsigned long long*);
K ks[] = {k0};
int main() {
  unsigned host[256]; unsigned long long x = 1091u;
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
