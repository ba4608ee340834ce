// expect: none
#include <atomic>
#include <cuda/std/atomic>
__global__ void k(int* p) {
  cuda::std::atomic_thread_fence(cuda::std::memory_order_seq_cst);
  p[0] = 1;
}
std::atomic<int> host_counter{0};
void bump() { host_counter.fetch_add(1, std::memory_order_relaxed); }

