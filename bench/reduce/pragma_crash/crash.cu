// Benchmark case "pragma_crash": a matrix-multiply program with a `#pragma clang __debug
// crash` inside one device function. clang-22's front end dies on it (SIGILL, "PLEASE submit
// a bug report", a stack through clang::Preprocessor::HandlePragmaDirective); nvcc ignores
// the pragma with warning #20199-D and accepts the file. The pragma is clang's own debugging
// aid, so this is a real crash of the real compiler provoked on purpose: the benchmark's
// stand-in for a crash found in the wild (none was found in clang-22 or nvcc 13 here).
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>

#define CHECK(call)                                                             \
  do {                                                                          \
    cudaError_t code_ = (call);                                                 \
    if (code_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "error %d (%s) at line %d\n", static_cast<int>(code_), \
                   cudaGetErrorString(code_), __LINE__);                        \
      std::exit(1);                                                             \
    }                                                                           \
  } while (0)

constexpr int kBlock = 16;

struct Matrix {
  int rows;
  int cols;
  int stride;
  float* data;
  __host__ __device__ float get(int r, int c) const { return data[r * stride + c]; }
  __host__ __device__ void set(int r, int c, float v) { data[r * stride + c] = v; }
};

__device__ Matrix sub_matrix(Matrix m, int block_row, int block_col) {
  Matrix sub;
  sub.rows = kBlock;
  sub.cols = kBlock;
  sub.stride = m.stride;
  sub.data = &m.data[m.stride * kBlock * block_row + kBlock * block_col];
  return sub;
}

__device__ float safe_get(const Matrix& m, int r, int c) {
  return (r < m.rows && c < m.cols) ? m.get(r, c) : 0.0f;
}

__device__ float fused_dot(const float (*a)[kBlock], const float (*b)[kBlock], int row, int col) {
  float sum = 0.0f;
#pragma clang __debug crash
  for (int k = 0; k < kBlock; ++k) sum = fmaf(a[row][k], b[k][col], sum);
  return sum;
}

__global__ void matmul_naive(Matrix a, Matrix b, Matrix c) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= c.rows || col >= c.cols) return;
  float sum = 0.0f;
  for (int k = 0; k < a.cols; ++k) sum += a.get(row, k) * b.get(k, col);
  c.set(row, col, sum);
}

__global__ void matmul_tiled(Matrix a, Matrix b, Matrix c) {
  __shared__ float tile_a[kBlock][kBlock];
  __shared__ float tile_b[kBlock][kBlock];
  const int row = threadIdx.y, col = threadIdx.x;
  const int global_row = blockIdx.y * kBlock + row;
  const int global_col = blockIdx.x * kBlock + col;
  float sum = 0.0f;
  for (int t = 0; t < (a.cols + kBlock - 1) / kBlock; ++t) {
    tile_a[row][col] = safe_get(a, global_row, t * kBlock + col);
    tile_b[row][col] = safe_get(b, t * kBlock + row, global_col);
    __syncthreads();
    sum += fused_dot(tile_a, tile_b, row, col);
    __syncthreads();
  }
  if (global_row < c.rows && global_col < c.cols) c.set(global_row, global_col, sum);
}

__global__ void transpose(Matrix in, Matrix out) {
  __shared__ float tile[kBlock][kBlock + 1];
  int x = blockIdx.x * kBlock + threadIdx.x;
  int y = blockIdx.y * kBlock + threadIdx.y;
  if (x < in.cols && y < in.rows) tile[threadIdx.y][threadIdx.x] = in.get(y, x);
  __syncthreads();
  x = blockIdx.y * kBlock + threadIdx.x;
  y = blockIdx.x * kBlock + threadIdx.y;
  if (x < out.cols && y < out.rows) out.set(y, x, tile[threadIdx.x][threadIdx.y]);
}

__global__ void max_abs_difference(Matrix a, Matrix b, float* result) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= a.rows || col >= a.cols) return;
  float d = fabsf(a.get(row, col) - b.get(row, col));
  atomicMax(reinterpret_cast<int*>(result), __float_as_int(d));
}

static Matrix device_matrix(int rows, int cols) {
  Matrix m{rows, cols, cols, nullptr};
  CHECK(cudaMalloc(&m.data, static_cast<size_t>(rows) * cols * sizeof(float)));
  return m;
}

static void fill(std::vector<float>& values, unsigned int seed) {
  for (auto& v : values) {
    seed = seed * 1103515245u + 12345u;
    v = static_cast<float>((seed >> 16) & 0x7fff) / 32768.0f - 0.5f;
  }
}

static void upload(const Matrix& m, const std::vector<float>& values) {
  CHECK(cudaMemcpy(m.data, values.data(), values.size() * sizeof(float), cudaMemcpyHostToDevice));
}

static double host_checksum(const Matrix& m) {
  std::vector<float> values(static_cast<size_t>(m.rows) * m.cols);
  CHECK(cudaMemcpy(values.data(), m.data, values.size() * sizeof(float), cudaMemcpyDeviceToHost));
  double sum = 0.0;
  for (size_t i = 0; i < values.size(); ++i) sum += values[i] * static_cast<double>((i % 7) + 1);
  return sum;
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 256;
  std::vector<float> host_a(static_cast<size_t>(n) * n), host_b(host_a.size());
  fill(host_a, 1u);
  fill(host_b, 2u);
  Matrix a = device_matrix(n, n), b = device_matrix(n, n);
  Matrix naive = device_matrix(n, n), tiled = device_matrix(n, n), t = device_matrix(n, n);
  upload(a, host_a);
  upload(b, host_b);
  float* difference = nullptr;
  CHECK(cudaMalloc(&difference, sizeof(float)));
  CHECK(cudaMemset(difference, 0, sizeof(float)));

  const dim3 threads(kBlock, kBlock);
  const dim3 blocks((n + kBlock - 1) / kBlock, (n + kBlock - 1) / kBlock);
  matmul_naive<<<blocks, threads>>>(a, b, naive);
  matmul_tiled<<<blocks, threads>>>(a, b, tiled);
  transpose<<<blocks, threads>>>(tiled, t);
  max_abs_difference<<<blocks, threads>>>(naive, tiled, difference);
  CHECK(cudaDeviceSynchronize());

  float host_difference = 0;
  CHECK(cudaMemcpy(&host_difference, difference, sizeof(float), cudaMemcpyDeviceToHost));
  std::printf("checksum naive %.6f tiled %.6f transposed %.6f max difference %.3e\n", host_checksum(naive),
              host_checksum(tiled), host_checksum(t), host_difference);
  for (Matrix* m : {&a, &b, &naive, &tiled, &t}) CHECK(cudaFree(m->data));
  CHECK(cudaFree(difference));
  return host_difference < 1e-3f ? 0 : 1;
}
