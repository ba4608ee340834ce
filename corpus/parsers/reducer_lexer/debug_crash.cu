// clang's debugging pragma that makes its front end crash on purpose: a REAL clang crash.
__global__ void kernel(int* out) { out[0] = 1; }
#pragma clang __debug crash
