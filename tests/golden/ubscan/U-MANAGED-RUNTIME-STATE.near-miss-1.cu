// expect: none
#include <cstdlib>
__managed__ int total;
struct Quiet { ~Quiet() {} };
static Quiet quiet;
static int plain = 3;
__attribute__((noinline)) static void report() {}
static void on_exit_handler() { plain = 1; }
__global__ void k() { total += 1; }
int main() {
  std::atexit(on_exit_handler);
  total = 2;
  k<<<1, 1>>>();
  cudaDeviceSynchronize();
  return total;
}
