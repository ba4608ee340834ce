// expect: U-XSPACE-DEV-FROM-HOST
void bump(int* p) {
  atomicAdd(p, 1);  // <-
}
