// A kernel parameter of 32,768 bytes: past the 32,764 bytes CUDA 12.1 allows on sm_70 and
// later. nvcc's cicc (NVVM) rejects it with a located "Error:" (capital E).
struct big_t {
  char bytes[32768];
};
__global__ void big_kernel(big_t p, char *out) { out[0] = p.bytes[0]; }
