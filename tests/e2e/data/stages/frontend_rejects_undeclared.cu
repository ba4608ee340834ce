// An undeclared name: both front ends reject it before any code is generated (cudafe++ under
// nvcc, clang's Sema), a rejection whose stage is certainly the front end.
__global__ void kernel(int* out) { out[threadIdx.x] = not_declared_anywhere; }

int main() { return 0; }
