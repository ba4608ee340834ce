// expect: none
struct Plain {
  int v;
  explicit Plain(int x) : v(x) {}
  Plain(const Plain& other) : v(other.v) {}
  __host__ __device__ int get() const { return v; }
};
struct Counted {
  int* counter;
  Counted(const Counted& other) : counter(other.counter) { ++*counter; }
};
__global__ void k(Plain p, const Counted* c, int* out) { out[0] = p.get(); }
void run(int* out) {
  Plain p(1);
  k<<<1, 1>>>(p, nullptr, out);
}
