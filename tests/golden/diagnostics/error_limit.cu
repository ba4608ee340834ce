// More than 100 errors: cudafe++ stops at its error limit (nvcc exits with status 4).
#define E1(n) out[n] = undefined_##n;
#define E10(n) E1(n##0) E1(n##1) E1(n##2) E1(n##3) E1(n##4) E1(n##5) E1(n##6) E1(n##7) E1(n##8) E1(n##9)
__global__ void kernel(int* out) {
  E10(1)
  E10(2)
  E10(3)
  E10(4)
  E10(5)
  E10(6)
  E10(7)
  E10(8)
  E10(9)
  E10(10)
  E10(11)
}
