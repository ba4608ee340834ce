// A run cut short: the kernel spins for about a minute, and the capture kills compute-sanitizer
// after a few seconds, so its output has no summary.
#include <cstdio>

__global__ void spin(unsigned long long* out) {
  const unsigned long long start = clock64();
  unsigned long long x = 0;
  while (clock64() - start < 100000000000ull) x += 1;
  out[0] = x;
}

int main() {
  std::printf("checksum kernel_0 started\n");
  std::fflush(stdout);
  unsigned long long* out = nullptr;
  cudaMalloc(&out, sizeof *out);
  spin<<<1, 1>>>(out);
  cudaDeviceSynchronize();
  return 0;
}
