#!/usr/bin/env python3
"""Compute-dense integer kernels for a quick ptxas hunt: nvcc -O3 vs -Xptxas -O0 vs -O0.
Every operation is defined for all inputs (unsigned arithmetic, masked shifts and indices)."""
import random, sys

U32 = ['a', 'b', 'c', 'd']
def u32(r, depth):
    if depth <= 0 or r.random() < 0.2:
        return r.choice(U32 + ['(unsigned)w', '(unsigned)(w >> 32)', '(unsigned)h', '(unsigned)q', '0x%08xu' % r.getrandbits(32), '%du' % r.randint(0, 33)])
    x = lambda: u32(r, depth - 1)
    ops = [
        lambda: '(%s + %s)' % (x(), x()), lambda: '(%s - %s)' % (x(), x()), lambda: '(%s * %s)' % (x(), x()),
        lambda: '(%s ^ %s)' % (x(), x()), lambda: '(%s & %s)' % (x(), x()), lambda: '(%s | %s)' % (x(), x()),
        lambda: '(~%s)' % x(), lambda: '(%s << (%s & 31u))' % (x(), x()), lambda: '(%s >> (%s & 31u))' % (x(), x()),
        lambda: '(unsigned)((int)%s >> (%s & 31u))' % (x(), x()),
        lambda: '__byte_perm(%s, %s, %s)' % (x(), x(), x()), lambda: '__funnelshift_l(%s, %s, %s)' % (x(), x(), x()),
        lambda: '__funnelshift_r(%s, %s, %s)' % (x(), x(), x()), lambda: '__funnelshift_lc(%s, %s, %s)' % (x(), x(), x()),
        lambda: '__funnelshift_rc(%s, %s, %s)' % (x(), x(), x()), lambda: '__brev(%s)' % x(),
        lambda: '(unsigned)__popc(%s)' % x(), lambda: '(unsigned)__clz(%s)' % x(), lambda: '(unsigned)__ffs(%s)' % x(),
        lambda: '__umulhi(%s, %s)' % (x(), x()), lambda: '(unsigned)__mulhi((int)%s, (int)%s)' % (x(), x()),
        lambda: '__usad(%s, %s, %s)' % (x(), x(), x()), lambda: '(unsigned)__sad((int)%s, (int)%s, %s)' % (x(), x(), x()),
        lambda: '(unsigned)__hadd((int)%s, (int)%s)' % (x(), x()), lambda: '(unsigned)__rhadd((int)%s, (int)%s)' % (x(), x()),
        lambda: '__uhadd(%s, %s)' % (x(), x()), lambda: '__urhadd(%s, %s)' % (x(), x()),
        lambda: '__vadd4(%s, %s)' % (x(), x()), lambda: '__vsub4(%s, %s)' % (x(), x()), lambda: '__vsub2(%s, %s)' % (x(), x()),
        lambda: '__vabsdiffu4(%s, %s)' % (x(), x()), lambda: '__vcmpgeu4(%s, %s)' % (x(), x()), lambda: '__vmaxu4(%s, %s)' % (x(), x()),
        lambda: '(unsigned)__dp4a(%s, %s, %s)' % (x(), x(), x()), lambda: '(unsigned)__dp2a_lo((int)%s, (int)%s, (int)%s)' % (x(), x(), x()),
        lambda: '(unsigned)__dp2a_hi(%s, %s, %s)' % (x(), x(), x()),
        lambda: '(%s < %s ? %s : %s)' % (x(), x(), x(), x()), lambda: '((int)%s < (int)%s ? %s : %s)' % (x(), x(), x(), x()),
        lambda: 'min(%s, %s)' % (x(), x()), lambda: '(unsigned)max((int)%s, (int)%s)' % (x(), x()),
        lambda: '(unsigned)(unsigned char)%s' % x(), lambda: '(unsigned)(signed char)%s' % x(),
        lambda: '(unsigned)(short)%s' % x(), lambda: '(unsigned)(unsigned short)(%s * %s)' % (x(), x()),
        lambda: '(unsigned)((%s >> (%s & 15u)) & ((1u << (%s & 15u)) - 1u))' % (x(), x(), x()),
        lambda: '(unsigned)__popcll(w ^ %s)' % x(), lambda: '(unsigned)__clzll(w | %s)' % x(),
        lambda: '(unsigned)(__umul64hi(w, %s) >> (%s & 31u))' % (x(), x()),
        lambda: '(unsigned)(__brevll(w) >> 17)',
        lambda: 'loc[%s & 7u]' % x(),
    ]
    return r.choice(ops)()

def stmt(r, depth, indent):
    p = ' ' * indent
    k = r.random()
    if k < 0.55:
        return p + '%s = %s;\n' % (r.choice(U32), u32(r, 3))
    if k < 0.62:
        return p + 'w = w * 0x9e3779b97f4a7c15ull + %s;\n' % u32(r, 2)
    if k < 0.66:
        return p + 'w ^= (unsigned long long)%s << (%s & 63u);\n' % (u32(r, 2), u32(r, 1))
    if k < 0.71:
        return p + 'h = (unsigned short)(h * %s + %s);\n' % (u32(r, 2), u32(r, 1))
    if k < 0.75:
        return p + 'q = (unsigned char)(q ^ (%s >> 3));\n' % u32(r, 2)
    if k < 0.80:
        return p + 'loc[%s & 7u] = %s;\n' % (u32(r, 1), u32(r, 2))
    if k < 0.90 and depth > 0:
        v = 'i%d' % indent
        body = ''.join(stmt(r, depth - 1, indent + 2) for _ in range(r.randint(1, 3)))
        brk = ''
        if r.random() < 0.4:
            brk = p + '  if ((%s & 15u) == %du) break;\n' % (u32(r, 1), r.randint(0, 15))
        elif r.random() < 0.3:
            brk = p + '  if ((%s & 7u) == %du) continue;\n' % (u32(r, 1), r.randint(0, 7))
        unroll = r.choice(['', '#pragma unroll 1\n', '#pragma unroll 4\n', ''])
        return (unroll and p + unroll) + p + 'for (unsigned %s = 0; %s < (%s & %du); ++%s) {\n' % (v, v, u32(r, 1), r.choice([3, 7, 15]), v) + brk + body + p + '}\n'
    if depth > 0:
        t = ''.join(stmt(r, depth - 1, indent + 2) for _ in range(r.randint(1, 2)))
        e = ''.join(stmt(r, depth - 1, indent + 2) for _ in range(r.randint(0, 2)))
        s = p + 'if (%s %s %s) {\n' % (u32(r, 2), r.choice(['<', '>', '==', '!=', '<=']), u32(r, 2)) + t + p + '}'
        return s + (' else {\n' + e + p + '}\n' if e else '\n')
    return p + 'd += %s;\n' % u32(r, 2)

def kernel(r, n):
    body = ''.join(stmt(r, 2, 2) for _ in range(r.randint(6, 14)))
    return ('__global__ void k%d(const unsigned* in, unsigned long long* out) {\n' % n +
            '  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;\n'
            '  unsigned a = in[t], b = in[(t * 7u + 3u) & 255u], c = in[(t * 13u + 5u) & 255u], d = t;\n'
            '  unsigned long long w = ((unsigned long long)a << 32) | c;\n'
            '  unsigned short h = (unsigned short)b; unsigned char q = (unsigned char)(c >> 8);\n'
            '  unsigned loc[8];\n  for (unsigned i = 0; i < 8u; ++i) loc[i] = in[(t + i * 31u) & 255u];\n' + body +
            '  out[t] = w ^ ((unsigned long long)(a ^ b) << 32) ^ (c + d) ^ ((unsigned long long)h << 16) ^ q ^ loc[t & 7u];\n}\n')

def program(seed, count):
    r = random.Random(seed)
    src = '#include <cstdio>\n#include <cuda_runtime.h>\n'
    src += ''.join(kernel(r, n) for n in range(count))
    src += 'typedef void (*K)(const unsigned*, unsigned long long*);\nK ks[] = {%s};\n' % ', '.join('k%d' % n for n in range(count))
    src += '''int main() {
  unsigned host[256]; unsigned long long x = %du;
  for (int i = 0; i < 256; ++i) { x = x * 6364136223846793005ull + 1442695040888963407ull; host[i] = (unsigned)(x >> 29); }
  unsigned* in; unsigned long long* out; cudaMalloc(&in, sizeof host); cudaMalloc(&out, 256 * 8);
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  for (int k = 0; k < (int)(sizeof ks / sizeof ks[0]); ++k) {
    cudaMemset(out, 0, 256 * 8);
    ks[k]<<<2, 128>>>(in, out);
    unsigned long long res[256]; cudaError_t e = cudaMemcpy(res, out, sizeof res, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) { printf("k%%d error %%s\\n", k, cudaGetErrorString(e)); return 1; }
    unsigned long long f = 1469598103934665603ull;
    for (int i = 0; i < 256; ++i) f = (f ^ res[i]) * 1099511628211ull;
    printf("k%%d %%016llx\\n", k, f);
  }
  return 0;
}
''' % seed
    return src

if __name__ == '__main__':
    first, n, count, outdir = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    for s in range(first, first + n):
        open('%s/p%d.cu' % (outdir, s), 'w').write(program(s, count))
