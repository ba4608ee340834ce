// A __device__ function declared, never defined: without -rdc ptxas rejects the call
// ("Unresolved extern function"); with -rdc the device linker (nvlink) does.
__device__ int device_missing(int);

__global__ void kernel(int* out) { out[0] = device_missing(out[0]); }

int main() { return 0; }
