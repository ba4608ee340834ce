// expect: none
__device__ int flag;
__constant__ float table[4];
__global__ void k(float* out) { int* p = &flag; out[0] = table[*p & 3]; }
int main() {
  static const float host[4] = {1, 2, 3, 4};
  cudaMemcpyToSymbol(table, host, sizeof(table));
  int* dp = nullptr;
  cudaGetSymbolAddress((void**)&dp, flag);
  size_t bytes = sizeof(flag);
  return bytes == 4 && dp != nullptr;
}
