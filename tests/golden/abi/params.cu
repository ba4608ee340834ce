#include <cstdint>
struct alignas(16) A16 { int x; };
struct alignas(8) A8c { char c; };
struct Empty {};
struct Cplx { double re, im; };
struct Big { int v[1100]; };
struct Mixed { char c; double d; short s; };
struct Three { char a, b, c; };

__device__ __noinline__ A16 f_a16(A16 a) { a.x += 1; return a; }
__device__ __noinline__ A8c f_a8c(A8c a) { a.c += 1; return a; }
__device__ __noinline__ int2 f_int2(int2 a) { a.x += a.y; return a; }
__device__ __noinline__ float4 f_float4(float4 a) { a.x += a.w; return a; }
__device__ __noinline__ longlong2 f_ll2(longlong2 a) { a.x += a.y; return a; }
__device__ __noinline__ char3 f_char3(char3 a) { a.x += a.z; return a; }
__device__ __noinline__ short2 f_short2(short2 a) { a.x += a.y; return a; }
__device__ __noinline__ long long f_i64(long long a, unsigned long long b) { return a + b; }
__device__ __noinline__ short f_i16(short a, unsigned short b) { return a + b; }
__device__ __noinline__ bool f_bool(bool a, bool b) { return a != b; }
__device__ __noinline__ char f_char(char a, signed char b, unsigned char c) { return a + b + c; }
__device__ __noinline__ Empty f_empty(Empty e, int x) { return e; }
__device__ __noinline__ int f_empty2(Empty e, int x) { return x; }
__device__ __noinline__ Cplx f_cplx(Cplx c) { c.re += c.im; return c; }
__device__ __noinline__ Mixed f_mixed(Mixed m) { m.d += m.c; return m; }
__device__ __noinline__ Three f_three(Three t) { t.a += t.c; return t; }
__device__ __noinline__ int f_ptr(int* p, const int& r) { return *p + r; }
__device__ __noinline__ int& f_ref(int& r) { return r; }
__device__ __noinline__ float f_float(float a, double b) { return a + b; }
__device__ __noinline__ void f_void(int* p) { *p = 1; }
extern "C" __device__ __noinline__ int f_c(int a) { return a + 1; }

__global__ void k_all(int* out, A16 a16, A8c a8c, int2 i2, float4 f4, longlong2 ll2, char3 c3, short2 s2,
                      long long i64, short i16, bool b, char c, Empty e, Cplx cx, Mixed m, Three t, float f, double d) {
  A16 r1 = f_a16(a16); A8c r2 = f_a8c(a8c); int2 r3 = f_int2(i2); float4 r4 = f_float4(f4);
  longlong2 r5 = f_ll2(ll2); char3 r6 = f_char3(c3); short2 r7 = f_short2(s2);
  Cplx r8 = f_cplx(cx); Mixed r9 = f_mixed(m); Three r10 = f_three(t); f_empty(e, 1);
  int x = 0;
  out[0] = r1.x + r2.c + r3.x + (int)r4.x + (int)r5.x + r6.x + r7.x + (int)r8.re + (int)r9.d + r10.a
         + f_i64(i64, 2) + f_i16(i16, 3) + f_bool(b, true) + f_char(c, 1, 2) + f_empty2(e, 3) + f_ptr(out, out[1])
         + f_ref(x) + f_float(f, d) + f_c(5);
  f_void(out + 2);
}
__global__ void k_grid(const __grid_constant__ Cplx c, const __grid_constant__ int i, double* out) { out[0] = c.re + c.im + i; }
__global__ void k_big(Big b, int* out) { out[0] = b.v[7]; }
__global__ void k_scalars(unsigned char a, signed char b, unsigned short c, unsigned d, unsigned long long e, long f, float* g, const int* __restrict__ h) { g[0] = a+b+c+d+e+f+h[0]; }
template <typename T> __global__ void k_tmpl(T t, T* out) { out[0] = t; }
template __global__ void k_tmpl<int>(int, int*);
template __global__ void k_tmpl<Cplx>(Cplx, Cplx*);
extern __device__ int ext_fn(int);
__global__ void k_ext(int* o) { o[0] = ext_fn(o[1]); }
__device__ __noinline__ static int f_static(int a) { return a * 3; }
__global__ void k_static(int* o) { o[0] = f_static(o[1]); }
