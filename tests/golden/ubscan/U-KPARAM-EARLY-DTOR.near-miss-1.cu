// expect: none
struct Owner {
  int* data;
  __host__ __device__ ~Owner() { }
};
__global__ void k(Owner o) { o.data[0] = 4; }

