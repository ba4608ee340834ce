// expect: U-PTR-DEREF-CROSS
int main() {
  int* d = nullptr;
  cudaMalloc(&d, 4 * sizeof(int));
  d[0] = 1;  // <-
}
