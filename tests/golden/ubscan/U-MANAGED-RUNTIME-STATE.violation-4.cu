// expect: U-MANAGED-RUNTIME-STATE
#include <cstdlib>
__managed__ int total;
static void on_exit_handler() { total = 1; }
int main() {
  std::atexit(on_exit_handler);  // <-
}
