// expect: U-VIRT-CROSS-SPACE
struct Shape { virtual __host__ __device__ int area() const { return 0; } };
int main() {
  Shape s;
  Shape* d = nullptr;
  cudaMalloc(&d, sizeof(Shape));
  cudaMemcpy(d, &s, sizeof(Shape), cudaMemcpyHostToDevice);  // <-
}
