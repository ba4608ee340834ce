// expect: U-VIRT-CROSS-SPACE
#include <new>
struct Shape { virtual __host__ __device__ int area() const { return 0; } };
__global__ void use(Shape* s, int* out) { out[0] = s->area(); }
int main() {
  Shape* s = nullptr;
  cudaMallocManaged(&s, sizeof(Shape));
  new (s) Shape();  // <-
}
