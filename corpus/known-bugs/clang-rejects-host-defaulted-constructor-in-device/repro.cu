// The guide (section I.4.20.10): execution space specifiers on a function explicitly defaulted
// on its first declaration are ignored, and the function's space is inferred as for an
// implicit one. So this constructor is usable from device code: nvcc accepts the program
// (warning 20012-D), clang-22 keeps the __host__ and rejects it ("no matching constructor ...
// call to __host__ function from __device__ function"). Rules catalog V-DEFAULTED-FIRSTDECL.
struct with_default {
  __host__ with_default() = default;
  unsigned long long v = 7ull;
};

__device__ unsigned long long use(unsigned long long x) {
  with_default s;
  return x ^ (s.v ^ 7ull);
}
