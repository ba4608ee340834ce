// The guide (section I.4.9.5): the address of a __device__ function cannot be taken in host
// code. clang-22 rejects it ("reference to __device__ function 'plus_one' in __host__
// function"); nvcc 13.0.88 accepts it silently. Rules catalog R-FNPTR-DEVFN-HOST.
__device__ int plus_one(int a) { return a + 1; }

void host_side() {
  int (*p)(int) = plus_one; // expected-error: R-FNPTR-DEVFN-HOST
  (void)p;
}
