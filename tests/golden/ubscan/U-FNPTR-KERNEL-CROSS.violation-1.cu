// expect: U-FNPTR-KERNEL-CROSS
__global__ void child(int* p) { *p = 1; }
__global__ void parent(void (*f)(int*), int* p) { f<<<1, 1>>>(p); }
int main() {
  int* p = nullptr;
  cudaMalloc(&p, 4);
  parent<<<1, 1>>>(child, p);  // <-
}
