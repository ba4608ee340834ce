// expect: none
__global__ void k() {
  extern __shared__ float array[];
  short* array0 = (short*)array;
  float* array1 = (float*)&array0[128];
  int* array2 = (int*)&array1[64];
  extern __shared__ unsigned long long cudiff_dynamic_shared[];
  long long* sh = reinterpret_cast<long long*>(reinterpret_cast<unsigned char*>(cudiff_dynamic_shared) + 8);
  short* sh2 = reinterpret_cast<short*>(reinterpret_cast<unsigned char*>(cudiff_dynamic_shared) + 2 * 3);
  array2[0] = sh[0] + sh2[0];
}
