// A small device function that the optimizer inlines: clang reports it with -Rpass=inline.
__device__ int twice(int v) { return 2 * v; }

__global__ void kernel(int* out) { out[0] = twice(out[0]); }
