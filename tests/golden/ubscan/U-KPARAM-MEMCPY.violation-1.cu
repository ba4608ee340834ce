// expect: U-KPARAM-MEMCPY U-KPARAM-MULTICOPY
struct Counted {
  int* counter;
  Counted(const Counted& other) : counter(other.counter) { ++*counter; }
};
__global__ void k(Counted c, int* out) {  // <-
  out[0] = 1;
}
