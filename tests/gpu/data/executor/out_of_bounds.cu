// An illegal address: the kernel writes through a null pointer. The error is sticky: the
// executor that ran it must be replaced, and the program re-run as a process.
#include <cstdio>
__global__ void null_write(int* data) { data[threadIdx.x] = 1; }
int main() {
  null_write<<<1, 32>>>(nullptr);
  const cudaError_t status = cudaDeviceSynchronize();
  std::printf("status %s\n", cudaGetErrorName(status));
  return status == cudaSuccess ? 0 : 1;
}
