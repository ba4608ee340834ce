// An error inside an included header: clang prints "In file included from" context.
#include "header_error.h"

__global__ void kernel(int* out) { out[0] = broken(); }
