// expect: U-SYNC-DIVERGENT
__global__ void k(int* out) {
  switch (out[threadIdx.x]) {
  case 1: asm volatile("bar.sync 0;"); break;  // <-
  default: break;
  }
}
