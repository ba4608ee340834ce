// A missing header: a fatal (catastrophic) error that stops compilation at once.
#include "no_such_header.h"

__global__ void kernel(int* out) { out[0] = 1; }
