// A __global__ function calling a host-only function.
int host_only(int v) { return v + 1; }

__global__ void kernel(int* out) { out[0] = host_only(out[0]); }

int main() { return 0; }
