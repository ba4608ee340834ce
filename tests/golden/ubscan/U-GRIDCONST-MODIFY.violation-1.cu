// expect: U-GRIDCONST-MODIFY
struct Params { int x; int y[2]; };
__global__ void k(const __grid_constant__ Params p, int* out) {
  const_cast<Params&>(p).x += threadIdx.x;  // <-
  out[0] = p.x;
}
