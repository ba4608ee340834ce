// expect: none
__device__ void release(int* p, int* q) {
  ::operator delete(p);
  delete q;
}
