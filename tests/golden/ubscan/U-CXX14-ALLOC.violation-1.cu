// expect: U-CXX14-ALLOC
__device__ void release(int* p) {
  ::operator delete(p, sizeof(int));  // <-
}
