// nvcc 13.0 drops the host-side definition of an `extern "C" __device__` variable declared
// without braces (cudafe++ writes `extern "C" int cudiff_x;`), so its host link fails with
// an undefined reference from __cudaRegisterVar; clang links. The generator's probes use
// `extern "C" { ... }`, which both compilers link.
extern "C" __device__ int cudiff_x = 1;

int main() { return 0; }
