// Layout probes that agree: a struct with a vector member and alignas, one with bit-fields,
// an empty base and a derived record. Sidecar: layout_agree.json (same stem).
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <type_traits>

struct LayB0 {};
struct alignas(16) LayS1 : LayB0 {
  char m0;
  short2 m1;
  alignas(8) int m2[3];
};
static_assert(std::is_standard_layout_v<LayS1>, "cudiff: standard layout");
struct LayS2 {
  unsigned int m3 : 5;
  int : 0;
  signed char m4 : 7;
  double m5;
};

extern "C" { __device__ unsigned long long cudiff_layout_LayB0[] = {sizeof(LayB0), alignof(LayB0)}; }
extern "C" { __device__ unsigned long long cudiff_layout_LayS1[] = {sizeof(LayS1), alignof(LayS1), offsetof(LayS1, m0), offsetof(LayS1, m1), offsetof(LayS1, m2)}; }
extern "C" { __device__ unsigned long long cudiff_layout_LayS2[] = {sizeof(LayS2), alignof(LayS2), offsetof(LayS2, m5)}; }

static void cudiff_print_layout() {
  struct Row { const char* type; const char* property; unsigned long long value; };
  static const Row rows[] = {
      {"LayB0", "sizeof", sizeof(LayB0)},         {"LayB0", "alignof", alignof(LayB0)},
      {"LayS1", "sizeof", sizeof(LayS1)},         {"LayS1", "alignof", alignof(LayS1)},
      {"LayS1", "offsetof.m0", offsetof(LayS1, m0)}, {"LayS1", "offsetof.m1", offsetof(LayS1, m1)},
      {"LayS1", "offsetof.m2", offsetof(LayS1, m2)}, {"LayS2", "sizeof", sizeof(LayS2)},
      {"LayS2", "alignof", alignof(LayS2)},       {"LayS2", "offsetof.m5", offsetof(LayS2, m5)},
  };
  for (const Row& row : rows) std::printf("layout %s %s %llu\n", row.type, row.property, row.value);
}

__global__ void kernel(unsigned long long* out) { out[threadIdx.x] = threadIdx.x; }

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "--layout") == 0) {  // before any CUDA call
    cudiff_print_layout();
    return 0;
  }
  unsigned long long* out = nullptr;
  unsigned long long host[4] = {};
  if (cudaMalloc(&out, sizeof(host)) != cudaSuccess) return 1;
  kernel<<<1, 4>>>(out);
  cudaMemcpy(host, out, sizeof(host), cudaMemcpyDeviceToHost);
  std::printf("checksum kernel %llx\n", host[0] + host[1] * 3 + host[2] * 5 + host[3] * 7);
  cudaFree(out);
  cudiff_print_layout();
  return 0;
}
