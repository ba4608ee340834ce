// nvcc 13.0 rejects this valid program; clang-22 accepts it. An extern "C" __device__
// variable defined inside a namespace has C language linkage but is still a member of the
// namespace ([dcl.link]); nvcc's generated registration stub names it `::probe` and the host
// compiler stops with "'::probe' has not been declared; did you mean 'n::probe'?".
// Found while batching generated programs (cudiff generate --batch). Run:
//   cudiff check corpus/known-bugs/nvcc-extern-c-device-in-namespace/repro.cu
namespace n {
extern "C" {
__device__ unsigned long long probe[] = {1, 2};
}
} // namespace n

int main() { return 0; }
