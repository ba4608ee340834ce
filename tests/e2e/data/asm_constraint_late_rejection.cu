// A real late rejection (found by hand for the stage-aware oracle): the output operand's
// constraint 'q' names a 128-bit register, but the operand is a 4-byte int. nvcc's front end
// says so ("asm operand type size(4) does not match type/size implied by constraint 'q'");
// clang-22's front end lets it through, and ptxas rejects the PTX it emitted ("Arguments
// mismatch for instruction 'mov'").
__global__ void kernel(int* out) {
  int x;
  asm("mov.u32 %0, 1;" : "=q"(x));
  out[0] = x;
}
