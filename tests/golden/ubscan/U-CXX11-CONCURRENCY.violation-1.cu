// expect: U-CXX11-CONCURRENCY
#include <atomic>
__global__ void k(int* p) {
  std::atomic_thread_fence(std::memory_order_seq_cst);  // <-
  p[0] = 1;
}
