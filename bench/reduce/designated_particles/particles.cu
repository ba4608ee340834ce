// Benchmark case "designated_particles": a particle simulation whose default parameters are
// written with designated initializers out of declaration order. clang-22 accepts that (a
// -Wreorder-init-list warning); nvcc rejects it: "out-of-order initializers are nonstandard
// in C++". Everything else is ordinary CUDA that both compilers accept.
#include <cstdio>
#include <cstdlib>
#include <cmath>

#define CUDA_CHECK(expr)                                                        \
  do {                                                                          \
    cudaError_t error_ = (expr);                                                \
    if (error_ != cudaSuccess) {                                                \
      std::fprintf(stderr, "cuda error %s at %s:%d\n", cudaGetErrorString(error_), \
                   __FILE__, __LINE__);                                         \
      std::exit(2);                                                             \
    }                                                                           \
  } while (0)

struct float3x {
  float x, y, z;
};

__host__ __device__ inline float3x make3(float x, float y, float z) { return {x, y, z}; }
__host__ __device__ inline float3x operator+(float3x a, float3x b) { return make3(a.x + b.x, a.y + b.y, a.z + b.z); }
__host__ __device__ inline float3x operator-(float3x a, float3x b) { return make3(a.x - b.x, a.y - b.y, a.z - b.z); }
__host__ __device__ inline float3x operator*(float s, float3x a) { return make3(s * a.x, s * a.y, s * a.z); }
__host__ __device__ inline float length2(float3x a) { return a.x * a.x + a.y * a.y + a.z * a.z; }

struct Particle {
  float3x position;
  float3x velocity;
  float mass;
  int alive;
};

struct SimParams {
  float dt;
  float gravity;
  float damping;
  float floor_height;
  float restitution;
  int steps;
};

struct Bounds {
  float3x low;
  float3x high;
};

SimParams default_params() {
  SimParams params{.gravity = -9.81f, .dt = 0.005f, .damping = 0.999f, .floor_height = 0.0f,
                   .restitution = 0.6f, .steps = 200};
  return params;
}

__device__ float3x gravity_force(const Particle& p, const SimParams& params) {
  return make3(0.0f, p.mass * params.gravity, 0.0f);
}

__device__ float3x drag_force(const Particle& p, float coefficient) {
  float speed2 = length2(p.velocity);
  float speed = sqrtf(speed2);
  return (-coefficient * speed) * p.velocity;
}

__device__ void bounce(Particle& p, const SimParams& params) {
  if (p.position.y < params.floor_height) {
    p.position.y = params.floor_height;
    p.velocity.y = -p.velocity.y * params.restitution;
  }
}

__global__ void init_particles(Particle* particles, int n, unsigned int seed) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned int state = seed + 747796405u * static_cast<unsigned int>(i);
  auto next = [&state]() {
    state = state * 747796405u + 2891336453u;
    return static_cast<float>((state >> 9) & 0x3fffff) / 4194304.0f;
  };
  Particle p;
  p.position = make3(next() * 10.0f, 5.0f + next() * 5.0f, next() * 10.0f);
  p.velocity = make3(next() - 0.5f, 0.0f, next() - 0.5f);
  p.mass = 0.5f + next();
  p.alive = 1;
  particles[i] = p;
}

__global__ void step(Particle* particles, int n, SimParams params) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Particle p = particles[i];
  if (!p.alive) return;
  float3x force = gravity_force(p, params) + drag_force(p, 0.01f);
  float3x acceleration = (1.0f / p.mass) * force;
  p.velocity = params.damping * (p.velocity + params.dt * acceleration);
  p.position = p.position + params.dt * p.velocity;
  bounce(p, params);
  particles[i] = p;
}

__global__ void cull(Particle* particles, int n, Bounds bounds, int* alive_count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Particle& p = particles[i];
  bool inside = p.position.x >= bounds.low.x && p.position.x <= bounds.high.x && p.position.z >= bounds.low.z &&
                p.position.z <= bounds.high.z;
  p.alive = p.alive && inside;
  if (p.alive) atomicAdd(alive_count, 1);
}

__global__ void kinetic_energy(const Particle* particles, int n, float* energy) {
  __shared__ float partial[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float e = 0.0f;
  if (i < n && particles[i].alive) e = 0.5f * particles[i].mass * length2(particles[i].velocity);
  partial[threadIdx.x] = e;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(energy, partial[0]);
}

__global__ void center_of_mass(const Particle* particles, int n, float* sums) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || !particles[i].alive) return;
  const Particle& p = particles[i];
  atomicAdd(&sums[0], p.mass * p.position.x);
  atomicAdd(&sums[1], p.mass * p.position.y);
  atomicAdd(&sums[2], p.mass * p.position.z);
  atomicAdd(&sums[3], p.mass);
}

static void report(const char* label, float energy, const float* sums, int alive) {
  float mass = sums[3] > 0 ? sums[3] : 1.0f;
  std::printf("%-8s energy %10.3f  com (%6.3f %6.3f %6.3f)  alive %d\n", label, energy, sums[0] / mass,
              sums[1] / mass, sums[2] / mass, alive);
}

static bool plausible(float before, float after) { return std::isfinite(after) && after <= before * 1.5f + 1.0f; }

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 65536;
  const int threads = 256;
  const int blocks = (n + threads - 1) / threads;
  const SimParams params = default_params();
  const Bounds bounds{make3(0.0f, -1.0f, 0.0f), make3(10.0f, 100.0f, 10.0f)};

  Particle* particles = nullptr;
  float* energy = nullptr;
  float* sums = nullptr;
  int* alive = nullptr;
  CUDA_CHECK(cudaMalloc(&particles, n * sizeof(Particle)));
  CUDA_CHECK(cudaMalloc(&energy, sizeof(float)));
  CUDA_CHECK(cudaMalloc(&sums, 4 * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&alive, sizeof(int)));

  init_particles<<<blocks, threads>>>(particles, n, 2024u);
  CUDA_CHECK(cudaGetLastError());

  float host_energy[2] = {0, 0};
  float host_sums[4];
  int host_alive = 0;
  for (int phase = 0; phase < 2; ++phase) {
    if (phase == 1)
      for (int s = 0; s < params.steps; ++s) step<<<blocks, threads>>>(particles, n, params);
    CUDA_CHECK(cudaMemset(energy, 0, sizeof(float)));
    CUDA_CHECK(cudaMemset(sums, 0, 4 * sizeof(float)));
    CUDA_CHECK(cudaMemset(alive, 0, sizeof(int)));
    cull<<<blocks, threads>>>(particles, n, bounds, alive);
    kinetic_energy<<<blocks, threads>>>(particles, n, energy);
    center_of_mass<<<blocks, threads>>>(particles, n, sums);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(&host_energy[phase], energy, sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(host_sums, sums, sizeof host_sums, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&host_alive, alive, sizeof(int), cudaMemcpyDeviceToHost));
    report(phase == 0 ? "start" : "end", host_energy[phase], host_sums, host_alive);
  }

  CUDA_CHECK(cudaFree(alive));
  CUDA_CHECK(cudaFree(sums));
  CUDA_CHECK(cudaFree(energy));
  CUDA_CHECK(cudaFree(particles));
  return plausible(host_energy[0], host_energy[1]) ? 0 : 1;
}
