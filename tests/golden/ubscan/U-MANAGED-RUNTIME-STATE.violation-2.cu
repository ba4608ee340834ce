// expect: U-MANAGED-RUNTIME-STATE
__managed__ int counter;
static int snapshot = counter;  // <-

