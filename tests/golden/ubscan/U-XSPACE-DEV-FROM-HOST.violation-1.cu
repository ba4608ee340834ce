// expect: U-XSPACE-DEV-FROM-HOST
__device__ int dev_only(int x) { return x; }
int main() {
  return dev_only(1);  // <-
}
