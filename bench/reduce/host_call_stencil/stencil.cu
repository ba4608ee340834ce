// Benchmark case "host_call_stencil": a 2D heat-diffusion stencil whose __host__ __device__
// coefficient helper calls a host-only function. nvcc only warns (#20011-D, "calling a
// __host__ function from a __host__ __device__ function is not allowed") and accepts the
// file; clang-22 rejects it: "reference to __host__ function 'material_scale' in __host__
// __device__ function". Everything else is ordinary CUDA that both compilers accept.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>

#define CHECK_CUDA(call)                                                       \
  do {                                                                         \
    const cudaError_t result_ = (call);                                        \
    if (result_ != cudaSuccess) {                                              \
      std::fprintf(stderr, "CUDA failure '%s' in %s\n", cudaGetErrorString(result_), #call); \
      std::exit(3);                                                            \
    }                                                                          \
  } while (0)

constexpr int kTile = 16;
constexpr int kHalo = 1;

struct Grid {
  int width;
  int height;
  float spacing;
  __host__ __device__ int index(int x, int y) const { return y * width + x; }
  __host__ __device__ bool inside(int x, int y) const { return x >= 0 && y >= 0 && x < width && y < height; }
};

struct Material {
  float conductivity;
  float density;
  float heat_capacity;
};

float material_scale(const Material& m) {
  static int calls = 0;
  ++calls;
  return m.conductivity / (m.density * m.heat_capacity);
}

__host__ __device__ float diffusion_coefficient(const Material& m, float spacing) {
  return material_scale(m) / (spacing * spacing);
}

__device__ float load_or_boundary(const float* field, const Grid& grid, int x, int y, float boundary) {
  return grid.inside(x, y) ? field[grid.index(x, y)] : boundary;
}

__global__ void initialize(float* field, Grid grid, float hot, float cold) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (!grid.inside(x, y)) return;
  float dx = x - grid.width / 2.0f;
  float dy = y - grid.height / 2.0f;
  field[grid.index(x, y)] = dx * dx + dy * dy < 64.0f ? hot : cold;
}

__global__ void diffuse_tiled(const float* in, float* out, Grid grid, Material material, float dt, float boundary) {
  __shared__ float tile[kTile + 2 * kHalo][kTile + 2 * kHalo];
  const int x = blockIdx.x * kTile + threadIdx.x;
  const int y = blockIdx.y * kTile + threadIdx.y;
  const int tx = threadIdx.x + kHalo;
  const int ty = threadIdx.y + kHalo;
  tile[ty][tx] = load_or_boundary(in, grid, x, y, boundary);
  if (threadIdx.x == 0) tile[ty][0] = load_or_boundary(in, grid, x - 1, y, boundary);
  if (threadIdx.x == kTile - 1) tile[ty][kTile + 1] = load_or_boundary(in, grid, x + 1, y, boundary);
  if (threadIdx.y == 0) tile[0][tx] = load_or_boundary(in, grid, x, y - 1, boundary);
  if (threadIdx.y == kTile - 1) tile[kTile + 1][tx] = load_or_boundary(in, grid, x, y + 1, boundary);
  __syncthreads();
  if (!grid.inside(x, y)) return;
  const float alpha = diffusion_coefficient(material, grid.spacing);
  const float laplacian = tile[ty][tx - 1] + tile[ty][tx + 1] + tile[ty - 1][tx] + tile[ty + 1][tx] - 4.0f * tile[ty][tx];
  out[grid.index(x, y)] = tile[ty][tx] + dt * alpha * laplacian;
}

__global__ void total_heat(const float* field, Grid grid, double* total) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (grid.inside(x, y)) atomicAdd(total, static_cast<double>(field[grid.index(x, y)]));
}

__global__ void max_reduce(const float* field, int count, float* result) {
  __shared__ float best[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  best[threadIdx.x] = i < count ? field[i] : -INFINITY;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) best[threadIdx.x] = fmaxf(best[threadIdx.x], best[threadIdx.x + s]);
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    int* as_int = reinterpret_cast<int*>(result);
    int old = *as_int;
    while (__int_as_float(old) < best[0]) {
      int assumed = old;
      old = atomicCAS(as_int, assumed, __float_as_int(best[0]));
      if (old == assumed) break;
    }
  }
}

static float host_stable_dt(const Grid& grid, const Material& material) {
  const float alpha = material.conductivity / (material.density * material.heat_capacity);
  return 0.2f * grid.spacing * grid.spacing / alpha;
}

static void write_ppm_row(const float* row, int width, float low, float high, char* line) {
  for (int x = 0; x < width; ++x) {
    float t = (row[x] - low) / (high - low);
    line[x] = t > 0.75f ? '#' : t > 0.5f ? '+' : t > 0.25f ? '.' : ' ';
  }
  line[width] = '\0';
}

int main(int argc, char** argv) {
  const int size = argc > 1 ? std::atoi(argv[1]) : 128;
  const Grid grid{size, size, 0.01f};
  const Material copper{385.0f, 8960.0f, 0.385f};
  const int steps = argc > 2 ? std::atoi(argv[2]) : 100;
  const float dt = host_stable_dt(grid, copper);

  float *a = nullptr, *b = nullptr, *peak = nullptr;
  double* heat = nullptr;
  const size_t bytes = static_cast<size_t>(grid.width) * grid.height * sizeof(float);
  CHECK_CUDA(cudaMalloc(&a, bytes));
  CHECK_CUDA(cudaMalloc(&b, bytes));
  CHECK_CUDA(cudaMalloc(&peak, sizeof(float)));
  CHECK_CUDA(cudaMalloc(&heat, sizeof(double)));

  const dim3 block(kTile, kTile);
  const dim3 blocks((grid.width + kTile - 1) / kTile, (grid.height + kTile - 1) / kTile);
  initialize<<<blocks, block>>>(a, grid, 100.0f, 20.0f);
  CHECK_CUDA(cudaGetLastError());
  for (int s = 0; s < steps; ++s) {
    diffuse_tiled<<<blocks, block>>>(a, b, grid, copper, dt, 20.0f);
    float* t = a;
    a = b;
    b = t;
  }
  CHECK_CUDA(cudaMemset(heat, 0, sizeof(double)));
  CHECK_CUDA(cudaMemset(peak, 0, sizeof(float)));
  total_heat<<<blocks, block>>>(a, grid, heat);
  max_reduce<<<(grid.width * grid.height + 255) / 256, 256>>>(a, grid.width * grid.height, peak);
  CHECK_CUDA(cudaDeviceSynchronize());

  double host_heat = 0;
  float host_peak = 0;
  CHECK_CUDA(cudaMemcpy(&host_heat, heat, sizeof host_heat, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(&host_peak, peak, sizeof host_peak, cudaMemcpyDeviceToHost));
  float* row = static_cast<float*>(std::malloc(grid.width * sizeof(float)));
  char* line = static_cast<char*>(std::malloc(grid.width + 1));
  for (int y = 0; y < grid.height; y += grid.height / 16) {
    CHECK_CUDA(cudaMemcpy(row, a + grid.index(0, y), grid.width * sizeof(float), cudaMemcpyDeviceToHost));
    write_ppm_row(row, grid.width, 20.0f, 100.0f, line);
    std::printf("|%s|\n", line);
  }
  std::printf("total heat %.3f peak %.3f dt %.6f\n", host_heat, host_peak, dt);
  std::free(line);
  std::free(row);
  CHECK_CUDA(cudaFree(heat));
  CHECK_CUDA(cudaFree(peak));
  CHECK_CUDA(cudaFree(b));
  CHECK_CUDA(cudaFree(a));
  return std::isfinite(host_heat) && host_peak <= 100.0f ? 0 : 1;
}
