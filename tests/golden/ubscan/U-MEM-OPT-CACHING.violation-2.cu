// expect: U-MEM-OPT-CACHING
__global__ void wait_for(int* flag, int* out) {
  while (flag[0] == 0)  // <-
    ;
  out[0] = 1;
}
