// expect: U-MANAGED-RUNTIME-STATE
#include <cstdio>
__managed__ int counter;
__attribute__((destructor)) static void report() {  // <-
  std::printf("%d\n", counter);
}
