// Warnings only: an unused variable and a set-but-unused variable; the file is accepted.
__global__ void kernel(int* out) {
  int unused_in_kernel;
  int set_only = 0;
  set_only = 3;
  out[0] = 1;
}

int main() {
  int unused_in_host;
  return 0;
}
