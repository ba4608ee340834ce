// expect: U-SHARED-MISALIGNED
__global__ void k() {
  extern __shared__ float array[];
  short* array0 = (short*)array;
  float* array1 = (float*)&array0[127];  // <-
  array1[0] = 1.0f;
}
