// expect: none
struct Params { int x; int y[2]; };
__global__ void k(const __grid_constant__ Params p, int* out) {
  int x = p.x;
  x += p.y[threadIdx.x & 1];
  const Params* q = &p;
  out[threadIdx.x] = x == p.x ? q->y[0] : x;
}
