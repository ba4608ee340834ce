struct alignas(32) A32 { int x; };
struct Inner { char c; };
struct alignas(8) Nest { Inner i; short s; };
union U { int i; double d; };
struct MemberAligned { char c; alignas(16) int x; };
struct Bits { unsigned a : 3; unsigned b : 5; };
__device__ __noinline__ A32 g_a32(A32 a) { a.x++; return a; }
__device__ __noinline__ Nest g_nest(Nest n) { n.s++; return n; }
__device__ __noinline__ U g_union(U u) { u.i++; return u; }
__device__ __noinline__ MemberAligned g_ma(MemberAligned m) { m.x++; return m; }
__device__ __noinline__ Bits g_bits(Bits b) { b.a++; return b; }
__device__ __noinline__ double2 g_d2(double2 d) { d.x += d.y; return d; }
__device__ __noinline__ uchar4 g_uc4(uchar4 d) { d.x += d.y; return d; }
__device__ __noinline__ int3 g_i3(int3 d) { d.x += d.y; return d; }
__device__ __noinline__ ulonglong2 g_ull2(ulonglong2 d) { d.x += d.y; return d; }
__device__ __noinline__ __int128 g_i128(__int128 a, unsigned __int128 b) { return a + b; }
__device__ __noinline__ long g_long(long a, unsigned long b) { return a + b; }
__device__ __noinline__ bool g_bool_ret(int a) { return a > 1; }
__device__ __noinline__ unsigned char g_uchar_ret(int a) { return a; }
__device__ __noinline__ short g_short_ret(int a) { return a; }
struct Big2 { unsigned long long v[200]; };
__device__ __noinline__ Big2 g_big(Big2 b) { b.v[3]++; return b; }
template <typename T> __device__ __noinline__ T g_t(T t) { return t; }
__global__ void k2(int* o, A32 a, Nest n, U u, MemberAligned m, Bits b, double2 d2, uchar4 uc4, int3 i3, ulonglong2 u2, __int128 i128, long l, bool bo, Big2 big) {
  o[0] = g_a32(a).x + g_nest(n).s + g_union(u).i + g_ma(m).x + g_bits(b).a + (int)g_d2(d2).x + g_uc4(uc4).x + g_i3(i3).x + (int)g_ull2(u2).x
   + (int)g_i128(i128, 3) + (int)g_long(l, 2) + g_bool_ret(o[1]) + g_uchar_ret(o[2]) + g_short_ret(o[3]) + (int)g_big(big).v[3] + g_t<short>(o[4]) + (int)g_t<long long>(o[5]) + (int)g_t(u2).y;
}
