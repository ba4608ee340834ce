// A struct with a long double member: nvcc's device side keeps the host's layout (16-byte
// long double, alignment 16) while clang's device side makes long double a double (8, 8),
// so the device views differ. Sidecar: layout_long_double.json. Nothing here uses the long
// double in device code: only sizeof/alignof/offsetof in constant expressions.
#include <cstddef>
#include <cstdio>
#include <cstring>

struct LayS0 {
  char m0;
  long double m1;
  int m2;
};

extern "C" { __device__ unsigned long long cudiff_layout_LayS0[] = {sizeof(LayS0), alignof(LayS0), offsetof(LayS0, m0), offsetof(LayS0, m1), offsetof(LayS0, m2)}; }

static void cudiff_print_layout() {
  std::printf("layout LayS0 sizeof %llu\n", (unsigned long long)sizeof(LayS0));
  std::printf("layout LayS0 alignof %llu\n", (unsigned long long)alignof(LayS0));
  std::printf("layout LayS0 offsetof.m0 %llu\n", (unsigned long long)offsetof(LayS0, m0));
  std::printf("layout LayS0 offsetof.m1 %llu\n", (unsigned long long)offsetof(LayS0, m1));
  std::printf("layout LayS0 offsetof.m2 %llu\n", (unsigned long long)offsetof(LayS0, m2));
}

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "--layout") == 0) {
    cudiff_print_layout();
    return 0;
  }
  cudiff_print_layout();
  return 0;
}
