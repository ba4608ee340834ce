// The __managed__ discrepancy of examples/managed_counter.cu (nvcc accepts, clang-22 rejects
// "reference to __host__ variable 'hits' in __global__ function"), buried in about a hundred
// lines that have nothing to do with it: the reducer must dig it out (tests/e2e/reduce_*).
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                          \
  do {                                                                       \
    cudaError_t status = (call);                                             \
    if (status != cudaSuccess) {                                             \
      std::fprintf(stderr, "CUDA error: %s\n", cudaGetErrorString(status)); \
      std::exit(1);                                                          \
    }                                                                        \
  } while (0)

constexpr int kThreads = 128;
constexpr int kBlocks = 8;

struct Vec3 {
  float x, y, z;
};

__host__ __device__ inline Vec3 add(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
__host__ __device__ inline float dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

template <typename T>
__device__ T clamp_value(T value, T low, T high) {
  return value < low ? low : (value > high ? high : value);
}

__device__ unsigned int mix(unsigned int seed) {
  seed ^= seed >> 16;
  seed *= 0x7feb352du;
  seed ^= seed >> 15;
  seed *= 0x846ca68bu;
  seed ^= seed >> 16;
  return seed;
}

__managed__ int hits;

__global__ void saxpy(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void count_hits(const float* values, int n, float threshold) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && values[i] > threshold) atomicAdd(&hits, 1);
}

__global__ void dots(const Vec3* a, const Vec3* b, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = clamp_value(dot(add(a[i], b[i]), a[i]), -100.0f, 100.0f);
}

__global__ void scramble(unsigned int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = mix(static_cast<unsigned int>(i));
}

static float host_sum(const float* values, int n) {
  float sum = 0;
  for (int i = 0; i < n; ++i) sum += values[i];
  return sum;
}

int main() {
  const int n = kThreads * kBlocks;
  float *x = nullptr, *y = nullptr;
  CHECK(cudaMallocManaged(&x, n * sizeof(float)));
  CHECK(cudaMallocManaged(&y, n * sizeof(float)));
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 17);
    y[i] = 1.0f;
  }
  saxpy<<<kBlocks, kThreads>>>(n, 2.0f, x, y);
  CHECK(cudaDeviceSynchronize());

  hits = 0;
  count_hits<<<kBlocks, kThreads>>>(y, n, 20.0f);
  CHECK(cudaDeviceSynchronize());

  Vec3 *a = nullptr, *b = nullptr;
  float* out = nullptr;
  CHECK(cudaMallocManaged(&a, n * sizeof(Vec3)));
  CHECK(cudaMallocManaged(&b, n * sizeof(Vec3)));
  CHECK(cudaMallocManaged(&out, n * sizeof(float)));
  for (int i = 0; i < n; ++i) {
    a[i] = {1.0f * i, 2.0f, 3.0f};
    b[i] = {0.5f, 0.25f * i, 1.0f};
  }
  dots<<<kBlocks, kThreads>>>(a, b, out, n);
  CHECK(cudaDeviceSynchronize());

  unsigned int* bits = nullptr;
  CHECK(cudaMallocManaged(&bits, n * sizeof(unsigned int)));
  scramble<<<kBlocks, kThreads>>>(bits, n);
  CHECK(cudaDeviceSynchronize());

  std::printf("sum %.1f hits %d dots %.1f bits %u\n", host_sum(y, n), hits, host_sum(out, n), bits[n - 1]);
  CHECK(cudaFree(bits));
  CHECK(cudaFree(out));
  CHECK(cudaFree(b));
  CHECK(cudaFree(a));
  CHECK(cudaFree(y));
  CHECK(cudaFree(x));
  return 0;
}
