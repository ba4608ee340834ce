// Benchmark case "managed_histogram": a histogram program whose sample counter is a
// __managed__ variable updated from a kernel. nvcc accepts it; clang-22 rejects it with
// "reference to __host__ variable 'total_samples' in __global__ function" (clang does not
// implement __managed__). Everything else is ordinary CUDA that both compilers accept.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cmath>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t status_ = (call);                                              \
    if (status_ != cudaSuccess) {                                              \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                  \
                   cudaGetErrorString(status_));                               \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

namespace config {
constexpr int kBins = 64;
constexpr int kThreads = 256;
constexpr int kItemsPerThread = 4;
constexpr float kLow = -4.0f;
constexpr float kHigh = 4.0f;
} // namespace config

struct HistogramParams {
  int bins;
  float low;
  float high;
  float scale() const { return bins / (high - low); }
};

__managed__ unsigned long long total_samples;

__host__ __device__ inline std::uint32_t lcg_next(std::uint32_t state) {
  return state * 1664525u + 1013904223u;
}

__host__ __device__ inline float to_unit(std::uint32_t bits) {
  return static_cast<float>(bits >> 8) * (1.0f / 16777216.0f);
}

__device__ float box_muller(std::uint32_t& state) {
  state = lcg_next(state);
  float u1 = fmaxf(to_unit(state), 1e-7f);
  state = lcg_next(state);
  float u2 = to_unit(state);
  return sqrtf(-2.0f * logf(u1)) * cosf(6.2831853f * u2);
}

template <typename T>
__device__ T clamp_to(T value, T low, T high) {
  return value < low ? low : (value > high ? high : value);
}

__device__ int bin_of(float value, const HistogramParams& params) {
  int bin = static_cast<int>((value - params.low) * (params.bins / (params.high - params.low)));
  return clamp_to(bin, 0, params.bins - 1);
}

__global__ void generate_samples(float* samples, int n, std::uint32_t seed) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  std::uint32_t state = seed ^ (static_cast<std::uint32_t>(i) * 2654435761u);
  samples[i] = box_muller(state);
}

__global__ void histogram_shared(const float* samples, int n, HistogramParams params, unsigned int* bins) {
  __shared__ unsigned int local[config::kBins];
  for (int b = threadIdx.x; b < params.bins; b += blockDim.x) local[b] = 0;
  __syncthreads();
  int base = (blockIdx.x * blockDim.x + threadIdx.x) * config::kItemsPerThread;
  int counted = 0;
  for (int k = 0; k < config::kItemsPerThread; ++k) {
    int i = base + k;
    if (i < n) {
      atomicAdd(&local[bin_of(samples[i], params)], 1u);
      ++counted;
    }
  }
  atomicAdd(&total_samples, static_cast<unsigned long long>(counted));
  __syncthreads();
  for (int b = threadIdx.x; b < params.bins; b += blockDim.x) atomicAdd(&bins[b], local[b]);
}

__device__ unsigned int warp_sum(unsigned int value) {
  for (int offset = 16; offset > 0; offset /= 2) value += __shfl_down_sync(0xffffffffu, value, offset);
  return value;
}

__global__ void sum_bins(const unsigned int* bins, int count, unsigned int* result) {
  unsigned int value = 0;
  for (int i = threadIdx.x; i < count; i += blockDim.x) value += bins[i];
  value = warp_sum(value);
  if ((threadIdx.x & 31) == 0) atomicAdd(result, value);
}

__global__ void exclusive_scan(const unsigned int* in, unsigned int* out, int count) {
  __shared__ unsigned int buffer[config::kBins];
  int t = threadIdx.x;
  if (t < count) buffer[t] = in[t];
  __syncthreads();
  for (int stride = 1; stride < count; stride *= 2) {
    unsigned int add = (t >= stride && t < count) ? buffer[t - stride] : 0;
    __syncthreads();
    if (t < count) buffer[t] += add;
    __syncthreads();
  }
  if (t < count) out[t] = t == 0 ? 0 : buffer[t - 1];
}

__global__ void normalize(const unsigned int* bins, float* density, int count, float scale, unsigned int total) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count && total > 0) density[i] = bins[i] * scale / total;
}

static double expected_fraction(int bin, const HistogramParams& params) {
  double width = (params.high - params.low) / params.bins;
  double left = params.low + bin * width;
  double right = left + width;
  return 0.5 * (std::erf(right / std::sqrt(2.0)) - std::erf(left / std::sqrt(2.0)));
}

static int check_histogram(const unsigned int* bins, const HistogramParams& params, int n) {
  int bad = 0;
  for (int b = 0; b < params.bins; ++b) {
    double expected = expected_fraction(b, params) * n;
    double tolerance = 6.0 * std::sqrt(expected + 1.0) + 0.01 * n / params.bins;
    if (b > 0 && b < params.bins - 1 && std::fabs(bins[b] - expected) > tolerance) ++bad;
  }
  return bad;
}

static void print_histogram(const unsigned int* bins, int count, int width) {
  unsigned int peak = 1;
  for (int b = 0; b < count; ++b) peak = bins[b] > peak ? bins[b] : peak;
  for (int b = 0; b < count; b += 4) {
    int stars = static_cast<int>(static_cast<double>(bins[b]) / peak * width);
    std::printf("%3d %8u ", b, bins[b]);
    for (int s = 0; s < stars; ++s) std::putchar('*');
    std::putchar('\n');
  }
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1 << 20;
  const HistogramParams params{config::kBins, config::kLow, config::kHigh};
  float* samples = nullptr;
  unsigned int* bins = nullptr;
  unsigned int* offsets = nullptr;
  unsigned int* sum = nullptr;
  float* density = nullptr;
  CHECK(cudaMalloc(&samples, n * sizeof(float)));
  CHECK(cudaMalloc(&bins, params.bins * sizeof(unsigned int)));
  CHECK(cudaMalloc(&offsets, params.bins * sizeof(unsigned int)));
  CHECK(cudaMalloc(&sum, sizeof(unsigned int)));
  CHECK(cudaMalloc(&density, params.bins * sizeof(float)));
  CHECK(cudaMemset(bins, 0, params.bins * sizeof(unsigned int)));
  CHECK(cudaMemset(sum, 0, sizeof(unsigned int)));
  total_samples = 0;

  const int blocks = (n + config::kThreads - 1) / config::kThreads;
  generate_samples<<<blocks, config::kThreads>>>(samples, n, 12345u);
  CHECK(cudaGetLastError());
  const int per_block = config::kThreads * config::kItemsPerThread;
  histogram_shared<<<(n + per_block - 1) / per_block, config::kThreads>>>(samples, n, params, bins);
  CHECK(cudaGetLastError());
  sum_bins<<<1, 128>>>(bins, params.bins, sum);
  exclusive_scan<<<1, config::kBins>>>(bins, offsets, params.bins);
  CHECK(cudaDeviceSynchronize());

  unsigned int host_bins[config::kBins];
  unsigned int host_offsets[config::kBins];
  unsigned int host_sum = 0;
  CHECK(cudaMemcpy(host_bins, bins, sizeof host_bins, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(host_offsets, offsets, sizeof host_offsets, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&host_sum, sum, sizeof host_sum, cudaMemcpyDeviceToHost));
  normalize<<<1, config::kBins>>>(bins, density, params.bins, params.scale(), host_sum);
  CHECK(cudaDeviceSynchronize());

  float host_density[config::kBins];
  CHECK(cudaMemcpy(host_density, density, sizeof host_density, cudaMemcpyDeviceToHost));
  print_histogram(host_bins, params.bins, 50);
  const int bad = check_histogram(host_bins, params, n);
  std::printf("samples %llu sum %u last offset %u density[32] %.4f bad bins %d\n", total_samples, host_sum,
              host_offsets[params.bins - 1], host_density[32], bad);

  CHECK(cudaFree(density));
  CHECK(cudaFree(sum));
  CHECK(cudaFree(offsets));
  CHECK(cudaFree(bins));
  CHECK(cudaFree(samples));
  return bad == 0 && total_samples == static_cast<unsigned long long>(n) ? 0 : 1;
}
