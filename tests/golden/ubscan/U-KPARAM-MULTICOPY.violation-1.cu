// expect: U-KPARAM-MEMCPY U-KPARAM-MULTICOPY
struct Counted {
  int* counter;
  Counted(int* c) : counter(c) {}
  Counted(const Counted& other);
};
template <typename T> __global__ void k(T t) {}
void run(int* n) {
  Counted c(n);
  k<<<1, 1>>>(c);  // <-
}
