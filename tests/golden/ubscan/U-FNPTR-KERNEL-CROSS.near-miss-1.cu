// expect: none
__global__ void child(int* p) { *p = 1; }
__global__ void parent(int* p) {
  void (*f)(int*) = child;
  f<<<1, 1>>>(p);
}
int main() {
  cudaFuncAttributes attributes;
  cudaFuncGetAttributes(&attributes, child);
  int* p = nullptr;
  cudaMalloc(&p, 4);
  child<<<1, 1>>>(p);
  parent<<<1, 1>>>(p);
}
