// expect: none
struct Base { __device__ virtual int f() const { return 1; } };
struct Derived : Base { __device__ int f() const override { return 2; } };
struct Plain { int v; };
__global__ void k(Plain p, int* out) {
  Derived d;
  Base* b = &d;
  out[0] = b->f() + p.v;
  Base* h = new Derived();
  out[1] = h->f();
  delete h;
}
int main() {
  Plain p{1};
  int* out = nullptr;
  cudaMalloc(&out, 8);
  k<<<1, 1>>>(p, out);
  cudaMemcpy(&p, out, sizeof(int), cudaMemcpyDeviceToHost);
}
