// Invalid PTX in inline assembly: the front end passes it through, ptxas rejects it.
__global__ void kernel(int* out) {
  asm volatile("bogus.instruction %0;" : : "r"(out[0]));
}
