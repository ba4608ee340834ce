// Benchmark case "long_double_warning": numerical integration whose device accumulator is a
// long double. Both compilers accept the file; only nvcc says anything about it: warning
// #20208-D "'long double' is treated as 'double' in device code". clang-22 prints no warning
// at all (its device side silently makes long double a double).
#include <cstdio>
#include <cstdlib>
#include <cmath>

#define CHECK(call)                                                             \
  do {                                                                          \
    cudaError_t err_ = (call);                                                  \
    if (err_ != cudaSuccess) {                                                  \
      std::fprintf(stderr, "%s failed: %s\n", #call, cudaGetErrorString(err_)); \
      std::exit(1);                                                             \
    }                                                                           \
  } while (0)

enum class Rule { midpoint, trapezoid, simpson };

struct Interval {
  double low;
  double high;
  int pieces;
  __host__ __device__ double width() const { return (high - low) / pieces; }
};

__host__ __device__ inline double integrand(double x) { return x * x * exp(-x) + sin(3.0 * x) / (1.0 + x * x); }

__host__ __device__ inline double midpoint(double a, double h) { return h * integrand(a + 0.5 * h); }

__host__ __device__ inline double trapezoid(double a, double h) { return 0.5 * h * (integrand(a) + integrand(a + h)); }

__host__ __device__ inline double simpson(double a, double h) {
  return h / 6.0 * (integrand(a) + 4.0 * integrand(a + 0.5 * h) + integrand(a + h));
}

__device__ double apply_rule(Rule rule, double a, double h) {
  switch (rule) {
    case Rule::midpoint: return midpoint(a, h);
    case Rule::trapezoid: return trapezoid(a, h);
    case Rule::simpson: return simpson(a, h);
  }
  return 0.0;
}

__global__ void integrate_pieces(Interval interval, Rule rule, double* partial, int per_thread) {
  const int thread = blockIdx.x * blockDim.x + threadIdx.x;
  const double h = interval.width();
  long double sum = 0;
  for (int k = 0; k < per_thread; ++k) {
    const int piece = thread * per_thread + k;
    if (piece < interval.pieces) sum += apply_rule(rule, interval.low + piece * h, h);
  }
  partial[thread] = static_cast<double>(sum);
}

// Three-point Gauss-Legendre on each piece: exact for polynomials up to degree five.
__device__ double gauss3(double a, double h) {
  const double half = 0.5 * h, center = a + half;
  const double node = 0.7745966692414834 * half;
  return half * (0.5555555555555556 * integrand(center - node) + 0.8888888888888888 * integrand(center) +
                 0.5555555555555556 * integrand(center + node));
}

__global__ void integrate_gauss(Interval interval, double* partial) {
  const int piece = blockIdx.x * blockDim.x + threadIdx.x;
  const double h = interval.width();
  partial[piece] = piece < interval.pieces ? gauss3(interval.low + piece * h, h) : 0.0;
}

__global__ void error_estimate(const double* fine, const double* coarse, double* estimate, int count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) estimate[i] = fabs(fine[2 * i] + fine[2 * i + 1] - coarse[i]) / 15.0;
}

__global__ void block_sum(const double* in, double* out, int count) {
  __shared__ double cache[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  cache[threadIdx.x] = i < count ? in[i] : 0.0;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) cache[threadIdx.x] += cache[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = cache[0];
}

__global__ void kahan_total(const double* values, int count, double* result) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  double sum = 0.0, compensation = 0.0;
  for (int i = 0; i < count; ++i) {
    double y = values[i] - compensation;
    double t = sum + y;
    compensation = (t - sum) - y;
    sum = t;
  }
  *result = sum;
}

static double host_reference(const Interval& interval) {
  double h = interval.width();
  double sum = 0.0;
  for (int i = 0; i < interval.pieces; ++i) sum += simpson(interval.low + i * h, h);
  return sum;
}

static const char* rule_name(Rule rule) {
  switch (rule) {
    case Rule::midpoint: return "midpoint";
    case Rule::trapezoid: return "trapezoid";
    case Rule::simpson: return "simpson";
  }
  return "?";
}

static double device_integral(const Interval& interval, Rule rule, int per_thread) {
  const int threads = 256;
  const int workers = (interval.pieces + per_thread - 1) / per_thread;
  const int blocks = (workers + threads - 1) / threads;
  double *partial = nullptr, *sums = nullptr, *total = nullptr;
  CHECK(cudaMalloc(&partial, blocks * threads * sizeof(double)));
  CHECK(cudaMalloc(&sums, blocks * sizeof(double)));
  CHECK(cudaMalloc(&total, sizeof(double)));
  CHECK(cudaMemset(partial, 0, blocks * threads * sizeof(double)));
  integrate_pieces<<<blocks, threads>>>(interval, rule, partial, per_thread);
  block_sum<<<blocks, threads>>>(partial, sums, blocks * threads);
  kahan_total<<<1, 1>>>(sums, blocks, total);
  CHECK(cudaDeviceSynchronize());
  double result = 0;
  CHECK(cudaMemcpy(&result, total, sizeof result, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(total));
  CHECK(cudaFree(sums));
  CHECK(cudaFree(partial));
  return result;
}

int main(int argc, char** argv) {
  const int pieces = argc > 1 ? std::atoi(argv[1]) : 1 << 18;
  const Interval interval{0.0, 8.0, pieces};
  const double reference = host_reference(interval);
  int failures = 0;
  for (Rule rule : {Rule::midpoint, Rule::trapezoid, Rule::simpson}) {
    for (int per_thread : {1, 4, 16}) {
      const double value = device_integral(interval, rule, per_thread);
      const double error = std::fabs(value - reference);
      const bool ok = error < 1e-6 * (1.0 + std::fabs(reference));
      failures += ok ? 0 : 1;
      std::printf("%-9s x%-2d %.12f error %.3e %s\n", rule_name(rule), per_thread, value, error, ok ? "ok" : "FAIL");
    }
  }
  {
    const int threads = 256, blocks = (interval.pieces + threads - 1) / threads;
    double *partial = nullptr, *sums = nullptr, *total = nullptr;
    CHECK(cudaMalloc(&partial, blocks * threads * sizeof(double)));
    CHECK(cudaMalloc(&sums, blocks * sizeof(double)));
    CHECK(cudaMalloc(&total, sizeof(double)));
    integrate_gauss<<<blocks, threads>>>(interval, partial);
    block_sum<<<blocks, threads>>>(partial, sums, blocks * threads);
    kahan_total<<<1, 1>>>(sums, blocks, total);
    double gauss = 0;
    CHECK(cudaMemcpy(&gauss, total, sizeof gauss, cudaMemcpyDeviceToHost));
    std::printf("gauss3       %.12f error %.3e\n", gauss, std::fabs(gauss - reference));
    CHECK(cudaFree(total));
    CHECK(cudaFree(sums));
    CHECK(cudaFree(partial));
  }
  std::printf("reference %.12f failures %d\n", reference, failures);
  return failures == 0 ? 0 : 1;
}
