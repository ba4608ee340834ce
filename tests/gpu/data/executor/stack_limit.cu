// Reads the device stack limit before setting its own: a fresh process sees the default, and
// so must a program in an executor after another program raised it.
#include <cstdio>
int main() {
  size_t stack = 0;
  cudaDeviceGetLimit(&stack, cudaLimitStackSize);
  std::printf("stack %zu\n", stack);
  cudaDeviceSetLimit(cudaLimitStackSize, 16384);
  return 0;
}
