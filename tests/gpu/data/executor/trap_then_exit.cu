// __trap() and the program's own exit(2) on the error, as generated programs do on a CUDA error.
#include <cstdio>
#include <cstdlib>
__global__ void traps(int* out) {
  if (threadIdx.x == 5) __trap();
  out[threadIdx.x] = 1;
}
int main() {
  int* out = nullptr;
  cudaMalloc(&out, 64 * sizeof(int));
  traps<<<1, 32>>>(out);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::printf("CUDA error after the kernel\n");
    std::fflush(stdout);
    std::exit(2);
  }
  std::printf("no error\n");
  return 0;
}
