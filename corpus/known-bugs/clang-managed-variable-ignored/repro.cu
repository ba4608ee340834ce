// A __managed__ variable used from a kernel (CUDA C++ Programming Guide, managed memory).
// nvcc accepts it; clang-22 ignores the managed attribute ("'managed' attribute ignored") and
// rejects the kernel's use ("reference to __host__ variable 'counter' in __global__ function").
// A documented dialect difference (triage/known_differences.json), not a bug: it is in the
// suite because every campaign must keep finding and labelling it.
__managed__ int counter;

__global__ void bump() { atomicAdd(&counter, 1); }

int main() {
  counter = 0;
  bump<<<4, 32>>>();
  cudaDeviceSynchronize();
  return counter == 128 ? 0 : 1;
}
