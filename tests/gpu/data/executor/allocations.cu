// Eight host threads at once allocate and free through every entry point the executor counts:
// cudaMalloc, cudaMallocAsync and cudaFreeAsync on a stream of their own, cudaMallocPitch,
// cudaMallocManaged, and host pinned memory (cudaMallocHost, cudaHostAlloc, cudaFreeHost). Each
// thread's kernels add into a stream-ordered buffer and the host sums it; one sum per thread is
// printed. Then it leaks one buffer of each kind, which the executor frees after it.
#include <cstdio>
#include <thread>
#include <vector>
constexpr unsigned kWords = 1024;
__global__ void add(unsigned* words, unsigned value) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kWords) words[i] += value + i;
}
int main() {
  constexpr int kThreads = 8, kRounds = 40;
  std::vector<unsigned long long> sums(kThreads);
  std::vector<int> failures(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&sums, &failures, t] {
      int& failed = failures[t];
      cudaStream_t stream = nullptr;
      unsigned* host = nullptr;
      if (cudaStreamCreate(&stream) != cudaSuccess || cudaMallocHost(&host, kWords * sizeof(unsigned)) != cudaSuccess) {
        ++failed;
        return;
      }
      for (int round = 0; round < kRounds && failed == 0; ++round) {
        unsigned *plain = nullptr, *async = nullptr, *pitched = nullptr, *managed = nullptr;
        size_t pitch = 0;
        failed += cudaMalloc(&plain, kWords * sizeof(unsigned)) != cudaSuccess;
        failed += cudaMallocAsync(&async, kWords * sizeof(unsigned), stream) != cudaSuccess;
        failed += cudaMallocPitch(&pitched, &pitch, 100 * sizeof(unsigned), 10) != cudaSuccess;
        failed += cudaMallocManaged(&managed, kWords * sizeof(unsigned)) != cudaSuccess;
        if (failed != 0) break;
        cudaMemsetAsync(async, 0, kWords * sizeof(unsigned), stream);
        add<<<kWords / 256, 256, 0, stream>>>(async, static_cast<unsigned>(t + round));
        cudaMemcpyAsync(host, async, kWords * sizeof(unsigned), cudaMemcpyDeviceToHost, stream);
        failed += cudaFreeAsync(async, stream) != cudaSuccess;
        failed += cudaStreamSynchronize(stream) != cudaSuccess;
        for (unsigned i = 0; i < kWords; ++i) sums[t] += host[i];
        failed += cudaFree(plain) != cudaSuccess;
        failed += cudaFree(pitched) != cudaSuccess;
        failed += cudaFree(managed) != cudaSuccess;
      }
      void* mapped = nullptr;
      failed += cudaHostAlloc(&mapped, 4096, cudaHostAllocDefault) != cudaSuccess;
      failed += cudaFreeHost(mapped) != cudaSuccess;
      failed += cudaFreeHost(host) != cudaSuccess;
      failed += cudaStreamDestroy(stream) != cudaSuccess;
    });
  for (std::thread& thread : threads) thread.join();
  void *leaked = nullptr, *leaked_async = nullptr, *leaked_pinned = nullptr;
  int failed = 0;
  failed += cudaMalloc(&leaked, 1 << 20) != cudaSuccess;
  failed += cudaMallocAsync(&leaked_async, 1 << 20, 0) != cudaSuccess;
  failed += cudaMallocHost(&leaked_pinned, 1 << 20) != cudaSuccess;
  failed += cudaDeviceSynchronize() != cudaSuccess;
  for (int t = 0; t < kThreads; ++t) {
    std::printf("thread %d sum %llu failures %d\n", t, sums[t], failures[t]);
    failed += failures[t];
  }
  return failed == 0 ? 0 : 1;
}
