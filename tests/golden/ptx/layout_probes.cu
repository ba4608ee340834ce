// Golden input for tests/unit/ptx_layout_test.cpp: layout probe arrays as the generator
// writes them, captured as PTX from both compilers by capture.sh.
#include <cstddef>

struct LayS0 { char m0; int m1; double m2; };
struct alignas(16) LayS1 { short m3; char3 m4; };
struct LayS2 { char m5; long double m6; int m7; };  // device layouts differ (docs/generator.md)
struct LayS3 { unsigned m8 : 3; int : 0; char m9; };

extern "C" { __device__ unsigned long long cudiff_layout_LayS0[] = {sizeof(LayS0), alignof(LayS0), offsetof(LayS0, m0), offsetof(LayS0, m1), offsetof(LayS0, m2)}; }
extern "C" { __device__ unsigned long long cudiff_layout_LayS1[] = {sizeof(LayS1), alignof(LayS1), offsetof(LayS1, m3), offsetof(LayS1, m4)}; }
extern "C" { __device__ unsigned long long cudiff_layout_LayS2[] = {sizeof(LayS2), alignof(LayS2), offsetof(LayS2, m5), offsetof(LayS2, m6), offsetof(LayS2, m7)}; }
extern "C" { __device__ unsigned long long cudiff_layout_LayS3[] = {sizeof(LayS3), alignof(LayS3), offsetof(LayS3, m9)}; }
// Not probes of real types: all zero (no initializer in PTX) and wide values (many bytes).
extern "C" { __device__ unsigned long long cudiff_layout_Zero[] = {0, 0, 0}; }
extern "C" { __device__ unsigned long long cudiff_layout_Wide[] = {300, 70000, 0x123456789abcdef0ull}; }

__global__ void touch(unsigned long long* out) { out[0] = cudiff_layout_LayS0[0] + cudiff_layout_Wide[1]; }
