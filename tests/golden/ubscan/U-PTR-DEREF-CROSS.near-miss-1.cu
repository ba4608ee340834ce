// expect: none
__global__ void k(int* p) { p[threadIdx.x] = 1; }
int main() {
  int* d = nullptr;
  int host[4] = {};
  cudaMalloc(&d, sizeof(host));
  cudaMemcpy(d + 1, &host[1], sizeof(int), cudaMemcpyHostToDevice);
  k<<<1, 4>>>(d);
  cudaMemcpy(host, d, sizeof(host), cudaMemcpyDeviceToHost);
  cudaFree(d);
  int* pinned = nullptr;
  cudaMallocHost(&pinned, sizeof(host));
  k<<<1, 4>>>(pinned);
  cudaDeviceSynchronize();
  return host[0] + pinned[0] + static_cast<int>(sizeof(d[0]));
}
