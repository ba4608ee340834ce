// expect: U-SHARED-MISALIGNED
__global__ void k() {
  extern __shared__ unsigned long long cudiff_dynamic_shared[];
  long long* sh = reinterpret_cast<long long*>(reinterpret_cast<unsigned char*>(cudiff_dynamic_shared) + 4);  // <-
  sh[threadIdx.x] = 0;
}
