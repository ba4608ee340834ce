// A trivial valid file, used with driver-level bad flags.
__global__ void kernel(int* out) { out[0] = 1; }
