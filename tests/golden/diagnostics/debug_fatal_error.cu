// clang's debugging pragma that raises an LLVM fatal error on purpose ("error in backend").
__global__ void kernel(int* out) { out[0] = 1; }
#pragma clang __debug llvm_fatal_error
