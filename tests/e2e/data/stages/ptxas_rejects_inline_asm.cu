// Inline PTX with an instruction that does not exist. Both front ends pass asm text through
// unread, so only ptxas can reject it ("Not a name of any known instruction"): a rejection whose
// stage is certainly ptxas, under nvcc and clang alike.
__global__ void kernel(unsigned* out) {
  unsigned value;
  asm volatile("frobnicate.u32 %0, 7;" : "=r"(value));
  out[threadIdx.x] = value;
}

int main() { return 0; }
