// expect: U-KPARAM-EARLY-DTOR
struct Owner {
  int* data;
  ~Owner() { delete[] data; }
};
__global__ void k(Owner o) { o.data[0] = 4; }  // <-

