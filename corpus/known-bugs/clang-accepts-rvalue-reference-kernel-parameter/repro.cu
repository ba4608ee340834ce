// The guide (section I.4.20.8): a __global__ function cannot have an rvalue reference
// parameter. nvcc rejects it; clang-22 accepts it. Rules catalog R-KERNEL-PARAM-RVALREF.
__global__ void take(int &&r) {} // expected-error: R-KERNEL-PARAM-RVALREF
