// clang-22 crashes in the NVPTX backend ("Cannot select ... GlobalTLSAddress") on a
// `thread_local` variable in a __device__ function, which the CUDA C++ Programming Guide forbids
// (rules catalog R-THREADLOCAL-DEV): it should be a front-end error, as it is with nvcc.
// Found by the rules catalog's violation template: `cudiff check` reports the crash.
__device__ int counter() {
  static thread_local int calls = 0;
  return ++calls;
}
