// expect: U-CXX11-GC
#include <memory>
__device__ void keep(int* p) {
  std::declare_reachable(p);  // <-
}
