// expect: U-PTR-DEVADDR-IN-HOST
__device__ int flag;
int main() {
  int* p = &flag;  // <-
  return p != nullptr;
}
