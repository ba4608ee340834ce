// A valid kernel compiled with verbose ptxas: its "info" lines are not errors.
__global__ void kernel(int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i * 2;
}

int main() { return 0; }
