// A run-side candidate modelled on NVIDIA/cccl issue 10958 (ptxas miscompiles CUB's warp-shuffle
// reduction of a 12-byte accumulator with a sub-4-byte value field: on ties the lower index is
// lost). Written for this suite from the issue's description, not its code: a 12-byte
// {short value; int index; int pad} accumulator shuffled as three 32-bit words with
// __shfl_down_sync, reduced with an arg-max whose comparator takes the unsigned magnitude of the
// short (|INT16_MIN| = 32768 does not fit a short), over values of 0x8000 that all tie.
// Correct output: "argmax <case> value -32768 index I" with I the lowest lane holding -32768
// (the largest magnitude wins, the lowest index wins ties);
// the program exits 1 when a result is wrong. The issue saw it with CUDA 13.3 on its GPUs; it is
// not yet known whether ptxas 13.0.88 shows it on sm_90 (confirmed: false).
#include <cstdio>
#include <cstring>

struct Accum {
  short value;
  int index;
  int pad;
};
static_assert(sizeof(Accum) == 12, "three 32-bit words");

__device__ unsigned magnitude(short v) { return v < 0 ? 0u - unsigned(int(v)) : unsigned(int(v)); }

__device__ Accum arg_max(const Accum& a, const Accum& b) {
  if (magnitude(a.value) < magnitude(b.value)) return b;
  if (magnitude(b.value) < magnitude(a.value)) return a;
  return b.index < a.index ? b : a;
}

__device__ Accum shuffle_down(const Accum& in, unsigned offset) {
  unsigned words[3];
  memcpy(words, &in, sizeof in);
  for (unsigned& word : words) word = __shfl_down_sync(0xffffffffu, word, offset);
  Accum out;
  memcpy(&out, words, sizeof out);
  return out;
}

__global__ void reduce(const short* values, Accum* out) {
  const int lane = threadIdx.x;
  Accum acc{values[blockIdx.x * 32 + lane], lane, 0};
  for (unsigned offset = 16; offset > 0; offset /= 2) {
    const Accum other = shuffle_down(acc, offset);
    if (lane + offset < 32) acc = arg_max(acc, other);
  }
  if (lane == 0) out[blockIdx.x] = acc;
}

int main() {
  constexpr int cases = 4;
  short host_values[cases * 32];
  for (int c = 0; c < cases; ++c)
    for (int lane = 0; lane < 32; ++lane)
      // case 0: all INT16_MIN; 1: INT16_MIN from lane 5 on, else 32767; 2: INT16_MIN at odd lanes,
      // else 32767; 3: INT16_MIN at even lanes, else -32767. INT16_MIN has the largest magnitude.
      host_values[c * 32 + lane] = c == 0   ? short(-32768)
                                   : c == 1 ? (lane < 5 ? short(32767) : short(-32768))
                                   : c == 2 ? (lane % 2 ? short(-32768) : short(32767))
                                            : (lane % 2 ? short(-32767) : short(-32768));
  short* values = nullptr;
  Accum* out = nullptr;
  cudaMalloc(&values, sizeof host_values);
  cudaMalloc(&out, cases * sizeof(Accum));
  cudaMemcpy(values, host_values, sizeof host_values, cudaMemcpyHostToDevice);
  reduce<<<cases, 32>>>(values, out);
  Accum results[cases];
  const cudaError_t status = cudaMemcpy(results, out, sizeof results, cudaMemcpyDeviceToHost);
  if (status != cudaSuccess) {
    std::printf("CUDA error: %s\n", cudaGetErrorString(status));
    return 2;
  }
  const int expected_index[cases] = {0, 5, 1, 0};
  int wrong = 0;
  for (int c = 0; c < cases; ++c) {
    std::printf("argmax %d value %d index %d\n", c, int(results[c].value), results[c].index);
    wrong += results[c].index != expected_index[c] || results[c].value != -32768;
  }
  return wrong == 0 ? 0 : 1;
}
