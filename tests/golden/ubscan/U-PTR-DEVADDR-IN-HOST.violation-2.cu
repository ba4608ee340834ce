// expect: U-PTR-DEVADDR-IN-HOST
__constant__ float table[4];
__global__ void k(const float* t) {}
int main() {
  k<<<1, 1>>>(table);  // <-
}
