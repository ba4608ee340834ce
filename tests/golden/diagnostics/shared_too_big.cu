// Too much static shared memory for one block: rejected by ptxas, not by the front end.
__global__ void kernel(int* out) {
  __shared__ char s[300000];
  s[threadIdx.x] = static_cast<char>(threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = s[(threadIdx.x + 1) % 300000];
}
