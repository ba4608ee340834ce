// Benchmark case "long_double_layout": a statistics accumulator with a long double member,
// shared between host and device. On the device, nvcc keeps the host's layout (a 16-byte,
// 16-aligned long double) while clang-22 makes long double a double (8, 8), so the same
// struct has a different size and member offsets in the two compilers' device code. The
// layout probe (a __device__ array of sizeof/alignof/offsetof, read from each compiler's PTX,
// as cudiff's layout oracle does) shows it; both compilers accept the file.
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(e_));         \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

struct Sample {
  float value;
  float weight;
  int group;
};

struct Accumulator {
  char tag;
  long double weighted_sum;
  int count;
  float minimum;
  float maximum;
};

struct GroupStats {
  int group;
  int count;
  double mean;
  double spread;
};

extern "C" {
__device__ unsigned long long layout_probe[] = {sizeof(Accumulator), alignof(Accumulator),
                                                offsetof(Accumulator, weighted_sum), offsetof(Accumulator, count),
                                                offsetof(Accumulator, minimum)};
}

__host__ __device__ inline void reset(Accumulator& a, char tag) {
  a.tag = tag;
  a.weighted_sum = 0;
  a.count = 0;
  a.minimum = 3.0e38f;
  a.maximum = -3.0e38f;
}

__device__ inline void add_sample(Accumulator& a, const Sample& s) {
  a.weighted_sum += static_cast<double>(s.value) * s.weight;
  a.count += 1;
  a.minimum = fminf(a.minimum, s.value);
  a.maximum = fmaxf(a.maximum, s.value);
}

__device__ inline unsigned int hash32(unsigned int x) {
  x ^= x >> 17;
  x *= 0xed5ad4bbu;
  x ^= x >> 11;
  x *= 0xac4c1b51u;
  x ^= x >> 15;
  return x;
}

__global__ void make_samples(Sample* samples, int n, int groups) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned int h = hash32(static_cast<unsigned int>(i) + 0x9e3779b9u);
  samples[i].value = (h & 0xffff) / 655.36f;
  samples[i].weight = 0.5f + ((h >> 16) & 0xff) / 255.0f;
  samples[i].group = static_cast<int>((h >> 24) % static_cast<unsigned int>(groups));
}

__global__ void accumulate(const Sample* samples, int n, Accumulator* per_thread) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  Accumulator local;
  reset(local, 'a');
  for (int i = t; i < n; i += gridDim.x * blockDim.x) add_sample(local, samples[i]);
  per_thread[t] = local;
}

__global__ void group_counts(const Sample* samples, int n, int* counts, float* sums) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  atomicAdd(&counts[samples[i].group], 1);
  atomicAdd(&sums[samples[i].group], samples[i].value);
}

__global__ void finish_groups(const int* counts, const float* sums, GroupStats* stats, int groups) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= groups) return;
  stats[g].group = g;
  stats[g].count = counts[g];
  stats[g].mean = counts[g] > 0 ? static_cast<double>(sums[g]) / counts[g] : 0.0;
  stats[g].spread = 0.0;
}

static Accumulator merge(const Accumulator* parts, int count) {
  Accumulator total;
  reset(total, 't');
  for (int i = 0; i < count; ++i) {
    total.weighted_sum += parts[i].weighted_sum;
    total.count += parts[i].count;
    if (parts[i].count > 0) {
      total.minimum = parts[i].minimum < total.minimum ? parts[i].minimum : total.minimum;
      total.maximum = parts[i].maximum > total.maximum ? parts[i].maximum : total.maximum;
    }
  }
  return total;
}

static void print_layout() {
  std::printf("host layout: sizeof %zu alignof %zu weighted_sum@%zu count@%zu minimum@%zu\n", sizeof(Accumulator),
              alignof(Accumulator), offsetof(Accumulator, weighted_sum), offsetof(Accumulator, count),
              offsetof(Accumulator, minimum));
}

static void print_device_layout() {
  unsigned long long probe[5] = {};
  CHECK(cudaMemcpyFromSymbol(probe, layout_probe, sizeof probe));
  std::printf("device layout: sizeof %llu alignof %llu weighted_sum@%llu count@%llu minimum@%llu\n", probe[0],
              probe[1], probe[2], probe[3], probe[4]);
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1 << 20;
  const int groups = 16;
  const int threads = 128, blocks = 64;
  if (argc > 1 && std::strcmp(argv[1], "--layout") == 0) {
    print_layout();
    return 0;
  }
  Sample* samples = nullptr;
  Accumulator* parts = nullptr;
  int* counts = nullptr;
  float* sums = nullptr;
  GroupStats* stats = nullptr;
  CHECK(cudaMalloc(&samples, n * sizeof(Sample)));
  CHECK(cudaMalloc(&parts, threads * blocks * sizeof(Accumulator)));
  CHECK(cudaMalloc(&counts, groups * sizeof(int)));
  CHECK(cudaMalloc(&sums, groups * sizeof(float)));
  CHECK(cudaMalloc(&stats, groups * sizeof(GroupStats)));
  CHECK(cudaMemset(counts, 0, groups * sizeof(int)));
  CHECK(cudaMemset(sums, 0, groups * sizeof(float)));

  make_samples<<<(n + 255) / 256, 256>>>(samples, n, groups);
  accumulate<<<blocks, threads>>>(samples, n, parts);
  group_counts<<<(n + 255) / 256, 256>>>(samples, n, counts, sums);
  finish_groups<<<1, groups>>>(counts, sums, stats, groups);
  CHECK(cudaDeviceSynchronize());

  Accumulator* host_parts = static_cast<Accumulator*>(std::malloc(threads * blocks * sizeof(Accumulator)));
  GroupStats host_stats[groups];
  CHECK(cudaMemcpy(host_parts, parts, threads * blocks * sizeof(Accumulator), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(host_stats, stats, sizeof host_stats, cudaMemcpyDeviceToHost));
  const Accumulator total = merge(host_parts, threads * blocks);
  print_layout();
  print_device_layout();
  std::printf("count %d weighted sum %.3Lf min %.3f max %.3f\n", total.count, total.weighted_sum, total.minimum,
              total.maximum);
  for (int g = 0; g < groups; g += 4)
    std::printf("group %2d count %6d mean %.4f\n", host_stats[g].group, host_stats[g].count, host_stats[g].mean);
  std::free(host_parts);
  CHECK(cudaFree(stats));
  CHECK(cudaFree(sums));
  CHECK(cudaFree(counts));
  CHECK(cudaFree(parts));
  CHECK(cudaFree(samples));
  return total.count == n ? 0 : 1;
}
