// No main(): checked as an object file, not reported as two failed links.
__device__ int twice(int x) { return 2 * x; }
__global__ void apply(int* data) { data[threadIdx.x] = twice(data[threadIdx.x]); }
