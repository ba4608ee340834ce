// expect: U-MANAGED-RUNTIME-STATE
__managed__ int total;
struct Flush { ~Flush() { total = 0; } };
static Flush flusher;  // <-

