// expect: U-PTR-DEREF-CROSS
__global__ void k(int* p) { p[0] = 1; }
int main() {
  int host[4] = {};
  k<<<1, 1>>>(host);  // <-
}
