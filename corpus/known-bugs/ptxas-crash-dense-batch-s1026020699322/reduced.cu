__global__ void __launch_bounds__(64)
    dense_0(const unsigned *__restrict__ in, unsigned *__restrict__ out) {
  const unsigned t = blockIdx.x;
  unsigned a = in[t], c = in[t], d;
  unsigned long long w = c;
  int v2 = in[0];
  asm volatile("{\n\t"
               ".reg .b32 %%ct<24>;\n\t"
               ".reg .b64 %%cw<10>;\n\t"
               ".reg .pred %%cp<8>;\n\t"
               "mov.u32 %%ct7, 0x00000005;\n\t"
               "cudiff_l7:\n\t"
               "sub.u32 %%ct7, %%ct7, 0x00000001;\n\t"
               "setp.ne.u32 %%cp5, %%ct7, 0x00000000;\n\t"
               "@%%cp5 bra cudiff_l7;\n\t"
               "lop3.b32 %%ct12, %%ct9, %%ct0, %%ct0, 0xBA;\n\t"
               "setp.eq.s32 %%cp0, %%ct7, %%ct12;\n\t"
               "@!%%cp0 bra cudiff_l17;\n\t"
               "bra cudiff_l18;\n\t"
               "cudiff_l17:\n\t"
               "shr.s64 %%cw0, %%cw1, %%ct6;\n\t"
               "cudiff_l18:\n\t"
               "mov.b64 %1, %%cw0;\n\t"
               "}"
               : "=r"(d), "=l"(w)
               : "l"((unsigned long long)v2 & 0));
  out[0] = w;
}
