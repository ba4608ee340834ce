// Undefined-behaviour scan (generator/undefined_scan.cpp): every scanned U rule is found on the
// line of a snippet that breaks it and in no near miss, and where an edit plants it in a
// generated program; the catalog's probes and generated programs (single and batched, default
// policy and every construct on) give no finding at all.
#include "generator/generator.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <functional>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace cudiff::generator;

/// Snippets for one rule. Each violation marks its offending line with `// <-`; near misses
/// are valid code close to a violation and must give no finding of any rule.
struct Control {
  std::string rule;
  std::vector<std::string> violations;
  std::vector<std::string> near_misses;
};

// clang-format off
const std::vector<Control>& controls() {
  static const std::vector<Control> table = {
    {"U-SYNC-DIVERGENT",
     {R"(__global__ void k(int* out) {
  if (threadIdx.x < 16) {
    __syncthreads();  // <-
  }
  out[threadIdx.x] = 1;
})",
      R"(__device__ void step(int* s) { s[threadIdx.x] += 1; __syncthreads(); }
__global__ void k(int* s) {
  for (int i = 0; i < (int)threadIdx.x; ++i)
    step(s);  // <-
})",
      R"(__global__ void k(int* out) {
  if (threadIdx.x == 0) {
    out[0] = 1;
    return;
  }
  int any = __syncthreads_or(out[threadIdx.x] != 0);  // <-
  out[threadIdx.x] = any;
})",
      R"(__global__ void k(int* out) {
  int v = threadIdx.x % 2 ? __syncthreads_count(out[0] > 1) : 0;  // <-
  out[threadIdx.x] = v;
})",
      R"(__global__ void k(int* out) {
  switch (out[threadIdx.x]) {
  case 1: asm volatile("bar.sync 0;"); break;  // <-
  default: break;
  }
})"},
     {R"(__device__ void step(int* s) { __syncthreads(); s[threadIdx.x] += 1; }
__global__ void k(int* out) {
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  step(s);
  if (threadIdx.x < 16) out[threadIdx.x] = s[threadIdx.x ^ 1];
  {
    __syncthreads();
  }
  int c = __syncthreads_count(threadIdx.x > 3 && out != nullptr);
  bool all = __syncthreads_and((threadIdx.x ? c : 1) != 0) != 0;
  if constexpr (sizeof(int) == 4) {
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i) out[i] += all;
})",
      R"(__host__ __device__ void sync_if_device(int* s) {
#ifndef __CUDA_ARCH__
  if (s == nullptr) return;
#else
  __syncthreads();
#endif
}
__global__ void k(int* s) { sync_if_device(s); })"}},
    {"U-SYNCWARP-MASK",
     {R"(__global__ void k(int* out) {
  __syncwarp(0x0000ffff);  // <-
  out[threadIdx.x] = 1;
})",
      R"(__global__ void k(int* out) {
  if (threadIdx.x & 1)
    __syncwarp();  // <-
})",
      R"(__global__ void k(int* out, unsigned mask) {
  __syncwarp(mask);  // <-
})"},
     {R"(#define FULL_MASK 0xffffffff
constexpr unsigned kFull = 0xFFFFFFFFu;
__global__ void k(int* out) {
  __shared__ int s[32];
  s[threadIdx.x] = threadIdx.x;
  __syncwarp();
  __syncwarp(0xffffffffu);
  __syncwarp(~0u);
  __syncwarp(kFull);
  __syncwarp(FULL_MASK);
  out[threadIdx.x] = s[(threadIdx.x + 1) & 31];
})"}},
    {"U-GRIDCONST-MODIFY",
     {R"(struct Params { int x; int y[2]; };
__global__ void k(const __grid_constant__ Params p, int* out) {
  const_cast<Params&>(p).x += threadIdx.x;  // <-
  out[0] = p.x;
})",
      R"(struct Params { int x; int y[2]; };
__global__ void k(const __grid_constant__ Params p, int* out) {
  p.y[1] = 3;  // <-
})"},
     {R"(struct Params { int x; int y[2]; };
__global__ void k(const __grid_constant__ Params p, int* out) {
  int x = p.x;
  x += p.y[threadIdx.x & 1];
  const Params* q = &p;
  out[threadIdx.x] = x == p.x ? q->y[0] : x;
})"}},
    {"U-KPARAM-MEMCPY",
     {R"(struct Counted {
  int* counter;
  Counted(const Counted& other) : counter(other.counter) { ++*counter; }
};
__global__ void k(Counted c, int* out) {  // <-
  out[0] = 1;
})"},
     {R"(struct Plain {
  int v;
  explicit Plain(int x) : v(x) {}
  Plain(const Plain& other) : v(other.v) {}
  __host__ __device__ int get() const { return v; }
};
struct Counted {
  int* counter;
  Counted(const Counted& other) : counter(other.counter) { ++*counter; }
};
__global__ void k(Plain p, const Counted* c, int* out) { out[0] = p.get(); }
void run(int* out) {
  Plain p(1);
  k<<<1, 1>>>(p, nullptr, out);
})"}},
    {"U-KPARAM-MULTICOPY",
     {R"(struct Counted {
  int* counter;
  Counted(int* c) : counter(c) {}
  Counted(const Counted& other);
};
template <typename T> __global__ void k(T t) {}
void run(int* n) {
  Counted c(n);
  k<<<1, 1>>>(c);  // <-
})"},
     {R"(struct Counted {
  int* counter;
  Counted(int* c) : counter(c) {}
  Counted(const Counted& other) = default;
};
template <typename T> __global__ void k(T t) {}
void run(int* n) {
  Counted c(n);
  k<<<1, 1>>>(c);
})"}},
    {"U-KPARAM-EARLY-DTOR",
     {R"(struct Owner {
  int* data;
  ~Owner() { delete[] data; }
};
__global__ void k(Owner o) { o.data[0] = 4; }  // <-
)"},
     {R"(struct Owner {
  int* data;
  __host__ __device__ ~Owner() { }
};
__global__ void k(Owner o) { o.data[0] = 4; }
)"}},
    {"U-MANAGED-RUNTIME-STATE",
     {R"(#include <cstdio>
__managed__ int counter;
__attribute__((destructor)) static void report() {  // <-
  std::printf("%d\n", counter);
})",
      R"(__managed__ int counter;
static int snapshot = counter;  // <-
)",
      R"(__managed__ int total;
struct Flush { ~Flush() { total = 0; } };
static Flush flusher;  // <-
)",
      R"(#include <cstdlib>
__managed__ int total;
static void on_exit_handler() { total = 1; }
int main() {
  std::atexit(on_exit_handler);  // <-
})"},
     {R"(#include <cstdlib>
__managed__ int total;
struct Quiet { ~Quiet() {} };
static Quiet quiet;
static int plain = 3;
__attribute__((noinline)) static void report() {}
static void on_exit_handler() { plain = 1; }
__global__ void k() { total += 1; }
int main() {
  std::atexit(on_exit_handler);
  total = 2;
  k<<<1, 1>>>();
  cudaDeviceSynchronize();
  return total;
})"}},
    {"U-MANAGED-COHERENCE",
     {R"(#include <cstdio>
__managed__ int result;
__global__ void k() { result = 1; }
int main() {
  k<<<1, 1>>>();
  std::printf("%d\n", result);  // <-
  cudaDeviceSynchronize();
})"},
     {R"(#include <cstdio>
__managed__ int result;
__global__ void k(int* r) { *r = 1; }
int main() {
  result = 0;
  k<<<1, 1>>>(&result);
  cudaDeviceSynchronize();
  std::printf("%d\n", result);
})"}},
    {"U-PTR-DEVADDR-IN-HOST",
     {R"(__device__ int flag;
int main() {
  int* p = &flag;  // <-
  return p != nullptr;
})",
      R"(__constant__ float table[4];
__global__ void k(const float* t) {}
int main() {
  k<<<1, 1>>>(table);  // <-
})"},
     {R"(__device__ int flag;
__constant__ float table[4];
__global__ void k(float* out) { int* p = &flag; out[0] = table[*p & 3]; }
int main() {
  static const float host[4] = {1, 2, 3, 4};
  cudaMemcpyToSymbol(table, host, sizeof(table));
  int* dp = nullptr;
  cudaGetSymbolAddress((void**)&dp, flag);
  size_t bytes = sizeof(flag);
  return bytes == 4 && dp != nullptr;
})"}},
    {"U-PTR-DEREF-CROSS",
     {R"(int main() {
  int* d = nullptr;
  cudaMalloc(&d, 4 * sizeof(int));
  d[0] = 1;  // <-
})",
      R"(__global__ void k(int* p) { p[0] = 1; }
int main() {
  int host[4] = {};
  k<<<1, 1>>>(host);  // <-
})",
      R"(static const int lookup[4] = {1, 2, 3, 4};
__global__ void k(int* out) {
  out[0] = lookup[threadIdx.x & 3];  // <-
})",
      R"(#include <cstdlib>
__global__ void k(int* p) { p[0] = 1; }
int main() {
  int* h = (int*)malloc(16);
  k<<<1, 1>>>(h);  // <-
})"},
     {R"(__global__ void k(int* p) { p[threadIdx.x] = 1; }
int main() {
  int* d = nullptr;
  int host[4] = {};
  cudaMalloc(&d, sizeof(host));
  cudaMemcpy(d + 1, &host[1], sizeof(int), cudaMemcpyHostToDevice);
  k<<<1, 4>>>(d);
  cudaMemcpy(host, d, sizeof(host), cudaMemcpyDeviceToHost);
  cudaFree(d);
  int* pinned = nullptr;
  cudaMallocHost(&pinned, sizeof(host));
  k<<<1, 4>>>(pinned);
  cudaDeviceSynchronize();
  return host[0] + pinned[0] + static_cast<int>(sizeof(d[0]));
})"}},
    {"U-FNPTR-KERNEL-CROSS",
     {R"(__global__ void child(int* p) { *p = 1; }
__global__ void parent(void (*f)(int*), int* p) { f<<<1, 1>>>(p); }
int main() {
  int* p = nullptr;
  cudaMalloc(&p, 4);
  parent<<<1, 1>>>(child, p);  // <-
})",
      R"(__global__ void child(int*) {}
__managed__ void (*kernel_ptr)(int*);
__global__ void record() {
  kernel_ptr = child;  // <-
})"},
     {R"(__global__ void child(int* p) { *p = 1; }
__global__ void parent(int* p) {
  void (*f)(int*) = child;
  f<<<1, 1>>>(p);
}
int main() {
  cudaFuncAttributes attributes;
  cudaFuncGetAttributes(&attributes, child);
  int* p = nullptr;
  cudaMalloc(&p, 4);
  child<<<1, 1>>>(p);
  parent<<<1, 1>>>(p);
})"}},
    {"U-VIRT-CROSS-SPACE",
     {R"(struct Shape { virtual __host__ __device__ int area() const { return 0; } };
__global__ void k(Shape s, int* out) { out[0] = s.area(); }  // <-
)",
      R"(struct Shape { virtual __host__ __device__ int area() const { return 0; } };
int main() {
  Shape s;
  Shape* d = nullptr;
  cudaMalloc(&d, sizeof(Shape));
  cudaMemcpy(d, &s, sizeof(Shape), cudaMemcpyHostToDevice);  // <-
})",
      R"(#include <new>
struct Shape { virtual __host__ __device__ int area() const { return 0; } };
__global__ void use(Shape* s, int* out) { out[0] = s->area(); }
int main() {
  Shape* s = nullptr;
  cudaMallocManaged(&s, sizeof(Shape));
  new (s) Shape();  // <-
})"},
     {R"(struct Base { __device__ virtual int f() const { return 1; } };
struct Derived : Base { __device__ int f() const override { return 2; } };
struct Plain { int v; };
__global__ void k(Plain p, int* out) {
  Derived d;
  Base* b = &d;
  out[0] = b->f() + p.v;
  Base* h = new Derived();
  out[1] = h->f();
  delete h;
}
int main() {
  Plain p{1};
  int* out = nullptr;
  cudaMalloc(&out, 8);
  k<<<1, 1>>>(p, out);
  cudaMemcpy(&p, out, sizeof(int), cudaMemcpyDeviceToHost);
})"}},
    {"U-XSPACE-HOST-FROM-DEV",
     {R"(int host_only(int x) { return x + 1; }
__global__ void k(int* out) {
  out[0] = host_only(3);  // <-
})",
      R"(int host_only(int x) { return x + 1; }
__host__ __device__ int both(int x) {
  return host_only(x);  // <-
})",
      R"(#include <cstdio>
__global__ void k(int* out) {
  puts("device");  // <-
})"},
     {R"(#include <cstdio>
int host_only(int x) { return x + 1; }
constexpr int twice(int x) { return 2 * x; }
__device__ int dev(int x) { return x ^ 1; }
__host__ __device__ int both(int x) {
#ifdef __CUDA_ARCH__
  return dev(x);
#else
  return host_only(x);
#endif
}
__global__ void k(int* out, float f) {
  int v = __shfl_sync(0xffffffffu, out[threadIdx.x], 0);
  atomicAdd(out, v + twice(2) + both(1) + min(v, 3));
  out[1] = static_cast<int>(sqrtf(f)) + make_int2(1, 2).x;
  __threadfence_system();
  printf("%d\n", out[0]);
}
int main() {
  int* out = nullptr;
  cudaMalloc(&out, 8);
  k<<<1, 32>>>(out, 2.0f);
  cudaDeviceSynchronize();
  return both(host_only(1));
})"}},
    {"U-XSPACE-DEV-FROM-HOST",
     {R"(__device__ int dev_only(int x) { return x; }
int main() {
  return dev_only(1);  // <-
})",
      R"(void bump(int* p) {
  atomicAdd(p, 1);  // <-
})",
      R"(__device__ int dev_only(int x) { return x; }
__host__ __device__ int both(int x) {
  return dev_only(x);  // <-
})"},
     {R"(__device__ int dev_only(int x) { return x; }
__host__ __device__ int both(int x) {
#if defined(__CUDA_ARCH__)
  return dev_only(x);
#else
  return x;
#endif
}
__global__ void k(int* out) { out[0] = dev_only(both(1)); __syncthreads(); }
int main() { return both(2); }
)"}},
    {"U-SHARED-MISALIGNED",
     {R"(__global__ void k() {
  extern __shared__ float array[];
  short* array0 = (short*)array;
  float* array1 = (float*)&array0[127];  // <-
  array1[0] = 1.0f;
})",
      R"(__global__ void k() {
  extern __shared__ unsigned long long cudiff_dynamic_shared[];
  long long* sh = reinterpret_cast<long long*>(reinterpret_cast<unsigned char*>(cudiff_dynamic_shared) + 4);  // <-
  sh[threadIdx.x] = 0;
})"},
     {R"(__global__ void k() {
  extern __shared__ float array[];
  short* array0 = (short*)array;
  float* array1 = (float*)&array0[128];
  int* array2 = (int*)&array1[64];
  extern __shared__ unsigned long long cudiff_dynamic_shared[];
  long long* sh = reinterpret_cast<long long*>(reinterpret_cast<unsigned char*>(cudiff_dynamic_shared) + 8);
  short* sh2 = reinterpret_cast<short*>(reinterpret_cast<unsigned char*>(cudiff_dynamic_shared) + 2 * 3);
  array2[0] = sh[0] + sh2[0];
})"}},
    {"U-GNU-CONST-PURE-CONTRACT",
     {R"(__attribute__((const)) __device__ int get(const int* p) {
  return p[0];  // <-
})",
      R"(__device__ int calls;
__attribute__((pure)) __device__ int count(int x) {
  calls += 1;  // <-
  return x;
})",
      R"(__attribute__((pure)) __device__ int bump(int* p);
__device__ int bump(int* p) {
  *p = 1;  // <-
  return 0;
})"},
     {R"(__device__ int calls;
__attribute__((const)) __device__ int square(int x) {
  int y = x * x;
  y += 1;
  return y;
}
__attribute__((pure)) __device__ int first(const int* p) { return p[0] + p[1] + calls; }
__device__ int bump(int* p) { *p = 1; calls += 1; return 0; }
)"}},
    {"U-THISCAP-HOSTPTR",
     {R"(template <typename F> __global__ void run(F f, int* out) { out[0] = f(); }
struct Launcher {
  int offset = 3;
  void go(int* out) {
    auto f = [=] __device__ () { return offset + 1; };  // <-
    run<<<1, 1>>>(f, out);
  }
};)"},
     {R"(template <typename F> __global__ void run(F f, int* out) { out[0] = f(); }
struct Launcher {
  int offset = 3;
  void go(int* out) {
    auto f = [=, *this] __device__ () { return offset + 1; };
    auto g = [*this] __device__ () { return offset; };
    int local = offset;
    auto h = [=] __device__ () { return local; };
    run<<<1, 1>>>(f, out);
    run<<<1, 1>>>(g, out);
    run<<<1, 1>>>(h, out);
  }
};)"}},
    {"U-EXTLAM-12-CAPTURE-COPY",
     {R"(#include <cstdio>
template <typename F> __global__ void run(F f, int* out) { out[0] = f(); }
struct Tracked {
  int v;
  Tracked(int x) : v(x) {}
  Tracked(const Tracked& o) : v(o.v) { std::printf("copied\n"); }
};
void go(int* out) {
  Tracked t(1);
  auto f = [=] __device__ () { return t.v; };  // <-
  run<<<1, 1>>>(f, out);
})"},
     {R"(template <typename F> __global__ void run(F f, int* out) { out[0] = f(); }
struct Plain { int v; };
void go(int* out) {
  Plain t{1};
  auto f = [=] __device__ () { return t.v; };
  auto g = [t] __device__ () { return t.v + 1; };
  run<<<1, 1>>>(f, out);
  run<<<1, 1>>>(g, out);
})"}},
    {"R-EXTLAM-17-TRAITS",
     {R"(#include <type_traits>
template <bool B> __global__ void tagged(int* out) { out[0] = B; }
void go(int* out) {
  auto f = [] __device__ (int x) { return x; };
  tagged<std::is_trivially_copyable<decltype(f)>::value><<<1, 1>>>(out);  // <-
})"},
     {R"(#include <type_traits>
template <bool B> __global__ void tagged(int* out) { out[0] = B; }
struct Plain { int v; };
static_assert(std::is_trivially_copyable_v<Plain>, "plain");
void go(int* out) {
  auto f = [] __device__ (int x) { return x; };
  tagged<std::is_trivially_copyable<Plain>::value><<<1, 1>>>(out);
})"}},
    {"U-EXTLAM-DIAG-COVERAGE",
     {R"(void go(int* out) {
#if defined(__CUDA_ARCH__)
  auto f = [] __device__ (int x) { return x; };  // <-
#endif
})",
      R"(void go() {
  auto f = [] __device__ (int x) { return x; };
  int (*fp)(int) = f;  // <-
})",
      R"(#include <type_traits>
void go() {
  auto f = [] __device__ (int x) { return x; };
  using R = std::invoke_result_t<decltype(f), int>;  // <-
})"},
     {R"(#include <type_traits>
template <typename F> __global__ void run(F f, int* out) { out[0] = f(1); }
void go(int* out) {
  auto f = [] __device__ (int x) { return x; };
  auto h = [] __host__ __device__ (int x) { return x + 1; };
  int (*hp)(int) = h;
  using R = std::invoke_result_t<decltype(h), int>;
  R r = hp(1);
  run<<<1, 1>>>(f, out);
  run<<<1, 1>>>(h, out + r);
})"}},
    {"U-NVFUNC-NO-TRANSFER",
     {R"(#include <nvfunctional>
__global__ void k(nvstd::function<int(int)> fn, int* out) { out[0] = fn(1); }  // <-
)"},
     {R"(#include <nvfunctional>
__global__ void k(int* out) {
  nvstd::function<int(int)> fn = [](int x) { return x + 1; };
  out[0] = fn(1);
})"}},
    {"U-ARCH-NODIAG",
     {R"(#ifdef __CUDA_ARCH__
__device__ int table[4];  // <-
#else
__device__ int table[8];
#endif
)",
      R"(template <typename T> __global__ void kern(T in) {}
__host__ __device__ void launch() {
#if !defined(__CUDA_ARCH__)
  kern<<<1, 1>>>(1);  // <-
#endif
})"},
     {R"(__global__ void plain_kernel(int v) {}
__host__ __device__ int arch() {
#if __CUDA_ARCH__ >= 800
  return 800;
#elif !defined(__CUDA_ARCH__)
  plain_kernel<<<1, 1>>>(1);
  return 0;
#else
  return 1;
#endif
})"}},
    {"U-CXX11-GC",
     {R"(#include <memory>
__device__ void keep(int* p) {
  std::declare_reachable(p);  // <-
})"},
     {R"(#include <memory>
void keep(int* p) { std::declare_reachable(p); }
)"}},
    {"U-CXX11-CONCURRENCY",
     {R"(#include <atomic>
__global__ void k(int* p) {
  std::atomic_thread_fence(std::memory_order_seq_cst);  // <-
  p[0] = 1;
})"},
     {R"(#include <atomic>
#include <cuda/std/atomic>
__global__ void k(int* p) {
  cuda::std::atomic_thread_fence(cuda::std::memory_order_seq_cst);
  p[0] = 1;
}
std::atomic<int> host_counter{0};
void bump() { host_counter.fetch_add(1, std::memory_order_relaxed); }
)"}},
    {"U-CXX14-ALLOC",
     {R"(__device__ void release(int* p) {
  ::operator delete(p, sizeof(int));  // <-
})"},
     {R"(__device__ void release(int* p, int* q) {
  ::operator delete(p);
  delete q;
})"}},
    {"U-FLOAT128-CONSTEXPR",
     {R"(constexpr __float128 third = 1.0Q / 3;  // <-
)"},
     {R"(__float128 third = 1.0Q / 3;
constexpr double third_double = 1.0 / 3;
)"}},
    {"U-MEM-OPT-CACHING",
     {R"(__device__ int ready;
__global__ void wait_for(int* out) {
  while (ready == 0) {}  // <-
  out[0] = 1;
})",
      R"(__global__ void wait_for(int* flag, int* out) {
  while (flag[0] == 0)  // <-
    ;
  out[0] = 1;
})"},
     {R"(__device__ int ready;
__device__ int count;
__global__ void wait_for(volatile int* flag, int* out) {
  while (atomicAdd(&ready, 0) == 0) {}
  while (*flag == 0) {}
  int i = 0;
  while (i < count) { out[i] = i; ++i; }
  out[0] = 1;
})"}},
  };
  return table;
}
// clang-format on

/// The 1-based line holding `marker`, 0 when none.
int line_of(const std::string& text, const std::string& marker) {
  const std::size_t at = text.find(marker);
  if (at == std::string::npos) return 0;
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

std::string describe(const std::vector<UndefinedUse>& uses) {
  std::string text;
  for (const UndefinedUse& use : uses) text += "  " + use.rule_id + " line " + std::to_string(use.line) + ": " + use.excerpt + "\n";
  return text.empty() ? "  (nothing)\n" : text;
}

TEST(UndefinedScan, EveryScannedRuleIsAUndefinedRuleOfTheCatalog) {
  std::set<std::string> undefined;
  for (const Rule& rule : rule_catalog())
    if (rule.kind == RuleKind::undefined) undefined.insert(rule.id);
  const std::vector<std::string> scanned = undefined_rules_scanned();
  EXPECT_FALSE(scanned.empty());
  EXPECT_EQ(std::set<std::string>(scanned.begin(), scanned.end()).size(), scanned.size()) << "an id is listed twice";
  for (const std::string& id : scanned) EXPECT_TRUE(undefined.count(id)) << id << " is not a U rule of the catalog";
}

TEST(UndefinedScan, EveryScannedRuleHasControls) {
  std::set<std::string> controlled;
  for (const Control& control : controls()) {
    controlled.insert(control.rule);
    EXPECT_FALSE(control.violations.empty()) << control.rule;
    EXPECT_FALSE(control.near_misses.empty()) << control.rule;
  }
  for (const std::string& id : undefined_rules_scanned()) EXPECT_TRUE(controlled.count(id)) << id << " has no control";
}

TEST(UndefinedScan, EachViolationIsFoundOnItsLine) {
  for (const Control& control : controls())
    for (const std::string& snippet : control.violations) {
      const int line = line_of(snippet, "// <-");
      ASSERT_GT(line, 0) << control.rule << ": a violation without its // <- marker";
      const std::vector<UndefinedUse> uses = scan_undefined(snippet, {});
      const bool found = std::any_of(uses.begin(), uses.end(), [&](const UndefinedUse& use) {
        return use.rule_id == control.rule && use.line == line && use.excerpt.find("// <-") != std::string::npos;
      });
      EXPECT_TRUE(found) << control.rule << " not found on line " << line << " of:\n" << snippet << "\nfound:\n" << describe(uses);
    }
}

TEST(UndefinedScan, NearMissesGiveNothing) {
  for (const Control& control : controls())
    for (const std::string& snippet : control.near_misses) {
      const std::vector<UndefinedUse> uses = scan_undefined(snippet, {});
      EXPECT_TRUE(uses.empty()) << control.rule << " near miss:\n" << snippet << "\nfound:\n" << describe(uses);
    }
}

// The probes are valid code of every V rule the generator plants (host functions launching
// their own kernels, virtual functions in device code, static locals...).
TEST(UndefinedScan, CatalogProbesGiveNothing) {
  int probes = 0;
  for (const Rule& rule : rule_catalog()) {
    if (!rule.probe) continue;
    ++probes;
    std::string text = "#include <cstdio>\n#include <cuda_runtime.h>\n";
    for (const std::string& header : rule.probe->headers) text += "#include " + header + "\n";
    text += rule.probe->fragment;
    const std::vector<UndefinedUse> uses = scan_undefined(text, {});
    EXPECT_TRUE(uses.empty()) << rule.id << " probe:\n" << text << "\nfound:\n" << describe(uses);
  }
  RecordProperty("probes", probes);
}

TEST(UndefinedScan, AnyInputIsScannedWithoutThrowing) {
  const TestCase test = generate_program(Policy::defaults(), 7, Size::small);
  for (std::size_t cut = 0; cut < test.source.size(); cut += 97)
    EXPECT_NO_THROW(scan_undefined(std::string_view(test.source).substr(0, cut), to_json(test.sidecar)));
  for (const char* text : {"", "}}}{{{", "((((", "__global__ void k(", "#if __CUDA_ARCH__\n#else\n#else\n#endif\n#endif\n",
                           "R\"x(unterminated", "'", "template <<<>>> struct", "[=] __device__ [this] {", "\\\n#define"})
    EXPECT_NO_THROW(scan_undefined(text, {})) << text;
  std::string noise;
  std::uint64_t state = 12345;
  for (int i = 0; i < 20000; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    noise += "{}()[]<>;:,.=*&+-!?#\"'/\\ \nabcxyz0129_"[(state >> 33) % 40];
  }
  EXPECT_NO_THROW(scan_undefined(noise, {}));
  // A generated program with lines cut and shuffled that once sent the barrier walk backwards
  // (an endless loop) and into unbounded recursion.
  EXPECT_NO_THROW(scan_undefined(cudiff::read_file(cudiff::test::data("unit/data/undefined_scan_damaged_program.cu")), {}));
}

// ---- generated programs -----------------------------------------------------------------------

struct Job {
  const Policy* policy = nullptr;
  Size size = Size::small;
  std::uint64_t seed = 0;
};

std::vector<Job> jobs(const Policy& policy) {
  std::vector<Job> out;
  // Large programs first: they take most of the time, so the workers finish together.
  for (std::uint64_t seed = 1; seed <= 20; ++seed) out.push_back({&policy, Size::large, seed});
  for (std::uint64_t seed = 1; seed <= 60; ++seed) out.push_back({&policy, Size::medium, seed});
  for (std::uint64_t seed = 1; seed <= 150; ++seed) out.push_back({&policy, Size::small, seed});
  return out;
}

std::string finding_text(const std::string& where, const UndefinedUse& use) {
  return where + ": " + use.rule_id + " at line " + std::to_string(use.line) + ": " + use.excerpt;
}

/// Generates and scans each job's program on every core; returns one line per finding.
std::vector<std::string> scan_generated(const std::vector<Job>& work) {
  const unsigned workers = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
  std::vector<std::vector<std::string>> found(workers);
  std::atomic<std::size_t> next{0};
  std::vector<std::thread> threads;
  for (unsigned w = 0; w < workers; ++w)
    threads.emplace_back([&, w] {
      for (std::size_t i = next++; i < work.size(); i = next++) {
        const Job& job = work[i];
        const std::string where = "seed " + std::to_string(job.seed) + " (" + to_string(job.size) + ")";
        try {
          const TestCase test = generate_program(*job.policy, job.seed, job.size);
          for (const UndefinedUse& use : scan_undefined(test.source, to_json(test.sidecar)))
            found[w].push_back(finding_text(where, use));
        } catch (const std::exception& error) {
          found[w].push_back(where + ": generation failed: " + error.what());
        }
      }
    });
  for (std::thread& thread : threads) thread.join();
  std::vector<std::string> all;
  for (const auto& part : found) all.insert(all.end(), part.begin(), part.end());
  return all;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (std::size_t i = 0; i < lines.size() && i < 50; ++i) text += "  " + lines[i] + "\n";
  return text;
}

Policy every_construct() {
  Policy policy = Policy::defaults();
  for (const Knob& knob : Policy::defaults().knobs())
    if (knob.name.starts_with("construct.")) policy.set(knob.name, 1.0);
  return policy;
}

TEST(UndefinedScan, GeneratedProgramsGiveNothingWithTheDefaultPolicy) {
  const Policy policy = Policy::defaults();
  const std::vector<std::string> found = scan_generated(jobs(policy));
  EXPECT_TRUE(found.empty()) << found.size() << " findings (generator bugs or scanner mistakes):\n" << joined(found);
}

TEST(UndefinedScan, GeneratedProgramsGiveNothingWithEveryConstructOn) {
  const Policy policy = every_construct();
  const std::vector<std::string> found = scan_generated(jobs(policy));
  EXPECT_TRUE(found.empty()) << found.size() << " findings (generator bugs or scanner mistakes):\n" << joined(found);
}

// The scan reads generated code as the generator writes it: one edit that breaks a rule in a
// generated program is found on the edited line (marked /*planted*/).
struct Mutation {
  std::string rule;
  std::function<std::string(const std::string&)> apply;  ///< "" where the program has no place for it
};

std::string replace_first(const std::string& text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  return at == std::string::npos ? "" : text.substr(0, at) + to + text.substr(at + from.size());
}

std::function<std::string(const std::string&)> replacing(std::string from, std::string to) {
  return [from, to](const std::string& text) { return replace_first(text, from, to); };
}

/// A dynamic shared carve of a type wider than a byte, moved one byte off its alignment.
std::string misaligned_carve(const std::string& text) {
  static const std::regex carve(R"(\n  (short|unsigned short|int|unsigned int|long long|unsigned long long)\* (\w+) = )"
                                R"(reinterpret_cast<[^>]*>\(reinterpret_cast<unsigned char\*>\(cudiff_dynamic_shared\) \+ )");
  std::smatch match;
  if (!std::regex_search(text, match, carve)) return "";
  const std::size_t end = static_cast<std::size_t>(match.position(0) + match.length(0));
  const std::size_t eol = text.find('\n', end);
  return text.substr(0, end) + "1 + " + text.substr(end, eol - end) + " /*planted*/" + text.substr(eol);
}

/// A write to a __grid_constant__ parameter's member, first thing in its kernel.
std::string grid_constant_write(const std::string& text) {
  const std::size_t kernel = text.find("const __grid_constant__ ");
  const std::size_t gtid = text.find("const unsigned int gtid = ", kernel == std::string::npos ? text.size() : kernel);
  const std::size_t use = text.find("gc.p", gtid == std::string::npos ? text.size() : gtid);
  if (use == std::string::npos) return "";
  std::size_t end = use + 3;
  while (end < text.size() && std::isalnum(static_cast<unsigned char>(text[end]))) ++end;
  const std::size_t eol = text.find('\n', gtid);
  return text.substr(0, eol) + "\n  " + text.substr(use, end - use) + " += 1; /*planted*/" + text.substr(eol);
}

/// A kernel's own address passed to it by the host.
std::string kernel_address_argument(const std::string& text) {
  static const std::regex launch(R"((kernel_\d+)<<<[^;]*>>>\(out)");
  std::smatch match;
  if (!std::regex_search(text, match, launch)) return "";
  const std::size_t end = static_cast<std::size_t>(match.position(0) + match.length(0));
  return text.substr(0, end) + ", " + match[1].str() + " /*planted*/" + text.substr(end);
}

const std::vector<Mutation>& mutations() {
  static const std::vector<Mutation> table = {
      {"U-SYNC-DIVERGENT", replacing("\n  __syncthreads();\n", "\n  if (tid & 1) __syncthreads(); /*planted*/\n")},
      {"U-SYNCWARP-MASK", replacing("__syncwarp();", "__syncwarp(0xffffu); /*planted*/")},
      {"U-SHARED-MISALIGNED", misaligned_carve},
      {"U-GRIDCONST-MODIFY", grid_constant_write},
      {"U-THISCAP-HOSTPTR", replacing("[*this] __device__", "[=] /*planted*/ __device__")},
      {"U-PTR-DEVADDR-IN-HOST", replacing("cudaMemcpyToSymbol(", "cudaMemcpy(/*planted*/")},
      {"U-PTR-DEREF-CROSS", replacing("\"cudaMemset\");", "\"cudaMemset\"); out[0] = 1; /*planted*/")},
      {"U-XSPACE-DEV-FROM-HOST",
       replacing("\"cudaLaunchKernel\");", "\"cudaLaunchKernel\"); __syncthreads(); /*planted*/")},
      {"U-XSPACE-HOST-FROM-DEV",
       replacing("const unsigned int tid = ", "cudiff_fold(nullptr, 0); /*planted*/ const unsigned int tid = ")},
      {"U-FNPTR-KERNEL-CROSS", kernel_address_argument},
  };
  return table;
}

TEST(UndefinedScan, ViolationsPlantedInGeneratedProgramsAreFound) {
  const Policy policy = every_construct();
  std::vector<TestCase> programs;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) programs.push_back(generate_program(policy, seed, Size::small));
  for (std::uint64_t seed = 1; seed <= 10; ++seed) programs.push_back(generate_program(policy, seed, Size::medium));
  for (const Mutation& mutation : mutations()) {
    int planted = 0;
    for (const TestCase& program : programs) {
      const std::string mutated = mutation.apply(program.source);
      if (mutated.empty()) continue;
      ++planted;
      const int line = line_of(mutated, "/*planted*/");
      const std::vector<UndefinedUse> uses = scan_undefined(mutated, to_json(program.sidecar));
      const bool found = std::any_of(uses.begin(), uses.end(), [&](const UndefinedUse& use) {
        return use.rule_id == mutation.rule && use.line == line;
      });
      EXPECT_TRUE(found) << mutation.rule << " planted at line " << line << " of " << program.name << "; found:\n" << describe(uses);
      if (planted == 3) break;
    }
    EXPECT_GT(planted, 0) << mutation.rule << ": no generated program had a place to plant it";
  }
}

TEST(UndefinedScan, GeneratedBatchesGiveNothing) {
  const Policy defaults = Policy::defaults(), all = every_construct();
  const std::vector<std::pair<const Policy*, std::vector<std::uint64_t>>> batches = {
      {&defaults, {1, 2, 3, 4, 5, 6, 7, 8}}, {&defaults, {40, 41, 42}}, {&all, {11, 12, 13, 14, 15, 16}}, {&all, {90, 91}}};
  for (const auto& [policy, seeds] : batches)
    for (Size size : {Size::small, Size::medium}) {
      const TestCase batch = generate_batch(*policy, seeds, size);
      std::vector<std::string> found;
      for (const UndefinedUse& use : scan_undefined(batch.source, to_json(batch.sidecar)))
        found.push_back(finding_text(batch.name, use));
      EXPECT_TRUE(found.empty()) << joined(found);
    }
}

} // namespace
