// expect: U-VIRT-CROSS-SPACE
struct Shape { virtual __host__ __device__ int area() const { return 0; } };
__global__ void k(Shape s, int* out) { out[0] = s.area(); }  // <-

