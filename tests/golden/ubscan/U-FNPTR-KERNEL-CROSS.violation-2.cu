// expect: U-FNPTR-KERNEL-CROSS
__global__ void child(int*) {}
__managed__ void (*kernel_ptr)(int*);
__global__ void record() {
  kernel_ptr = child;  // <-
}
