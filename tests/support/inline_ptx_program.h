// A CUDA program made of inline-PTX blocks (generator/inline_ptx/inline_ptx.h), for the compile and GPU
// tests of the blocks: one __device__ function per block, a kernel that runs every block on 64
// input vectors (thread t takes vector t), and a main that prints each block's inputs and
// outputs, so the test compares them with run() without mirroring the input hash.
#pragma once

#include "common/rng.h"
#include "generator/generator.h"
#include "generator/inline_ptx/inline_ptx_parts.h"

#include <sstream>
#include <string>
#include <vector>

namespace cudiff::test {

inline constexpr int kPtxVectors = 64;  ///< threads of the one launch: input vectors per block
inline constexpr int kPtxMaxInputs = 4, kPtxMaxOutputs = 3;

struct PtxProgramBlock {
  generator::ptx::Block block;
  std::string family;  ///< the only family its policy enabled, or "mixed"
  bool called_twice = false;
};

/// `count` blocks; block k enables only family k % (families + 1) (the last: every family, the
/// default weights), so a disagreement names its family. Some are called twice, their second
/// call on the first call's outputs mixed into the inputs, so one kernel inlines them twice.
inline std::vector<PtxProgramBlock> make_ptx_blocks(int count, std::uint64_t seed) {
  namespace ptx = generator::ptx;
  const std::vector<std::string>& families = ptx::family_names();
  std::vector<PtxProgramBlock> blocks;
  for (int k = 0; k < count; ++k) {
    generator::Policy policy = generator::Policy::defaults();
    const std::size_t which = static_cast<std::size_t>(k) % (families.size() + 1);
    const std::string family = which < families.size() ? families[which] : "mixed";
    if (which < families.size())
      for (const std::string& name : families) policy.set("ptx.family." + name, name == family ? 1 : 0);
    SeededRng rng(seed * 1000003 + static_cast<std::uint64_t>(k));
    std::vector<ptx::Width> inputs, outputs;
    const auto in_count = rng.range(1, kPtxMaxInputs), out_count = rng.range(1, kPtxMaxOutputs);
    for (int i = 0; i < in_count; ++i) inputs.push_back(rng.chance(0.5) ? ptx::Width::b32 : ptx::Width::b64);
    for (int i = 0; i < out_count; ++i) outputs.push_back(rng.chance(0.5) ? ptx::Width::b32 : ptx::Width::b64);
    const bool twice = rng.chance(0.25);
    blocks.push_back(PtxProgramBlock{ptx::make_block(rng, policy, inputs, outputs), family, twice});
  }
  return blocks;
}

/// The .cu text. Output lines: `block <k> call <c> thread <t> in <hex>... out <hex>...`.
inline std::string ptx_program(const std::vector<PtxProgramBlock>& blocks) {
  namespace ptx = generator::ptx;
  std::ostringstream cu;
  cu << "#include <cstdio>\n#include <cstdlib>\n\n";
  const auto type_of = [](ptx::Width w) { return w == ptx::Width::b32 ? "unsigned int" : "unsigned long long"; };
  for (std::size_t k = 0; k < blocks.size(); ++k) {
    const ptx::Block& block = blocks[k].block;
    std::vector<std::string> in_names, out_names;
    cu << "__device__ __forceinline__ void cudiff_ptx_" << k << "(";
    for (std::size_t i = 0; i < block.inputs.size(); ++i) {
      in_names.push_back("i" + std::to_string(i));
      cu << (i ? ", " : "") << type_of(block.inputs[i]) << " i" << i;
    }
    for (std::size_t i = 0; i < block.outputs.size(); ++i) {
      out_names.push_back("o" + std::to_string(i));
      cu << ", " << type_of(block.outputs[i]) << "& o" << i;
    }
    cu << ") {\n  " << ptx::asm_statement(block, out_names, in_names) << "\n}\n\n";
  }
  const int in_slots = kPtxMaxInputs, out_slots = kPtxMaxOutputs;
  cu << "__global__ void cudiff_ptx_kernel(const unsigned long long* in, unsigned long long* out) {\n"
     << "  const unsigned t = threadIdx.x;\n";
  for (std::size_t k = 0; k < blocks.size(); ++k) {
    const ptx::Block& block = blocks[k].block;
    for (int call = 0; call < (blocks[k].called_twice ? 2 : 1); ++call) {
      const std::string base_in = "(" + std::to_string(k) + "u * " + std::to_string(kPtxVectors) + "u + t) * " +
                                  std::to_string(in_slots) + "u";
      const std::size_t row = (k * 2 + static_cast<std::size_t>(call)) * kPtxVectors;
      cu << "  {\n";
      for (std::size_t i = 0; i < block.inputs.size(); ++i) {
        cu << "    " << type_of(block.inputs[i]) << " a" << i << " = (" << type_of(block.inputs[i]) << ")(in["
           << base_in << " + " << i << "]";
        if (call == 1)
          cu << " ^ out[(" << row - kPtxVectors << "u + t) * " << out_slots << "u + " << i % block.outputs.size()
             << "]";
        cu << ");\n";
      }
      for (std::size_t i = 0; i < block.outputs.size(); ++i)
        cu << "    " << type_of(block.outputs[i]) << " r" << i << ";\n";
      cu << "    cudiff_ptx_" << k << "(";
      for (std::size_t i = 0; i < block.inputs.size(); ++i) cu << (i ? ", " : "") << "a" << i;
      for (std::size_t i = 0; i < block.outputs.size(); ++i) cu << ", r" << i;
      cu << ");\n";
      for (std::size_t i = 0; i < block.outputs.size(); ++i)
        cu << "    out[(" << row << "u + t) * " << out_slots << "u + " << i << "] = r" << i << ";\n";
      cu << "  }\n";
    }
  }
  cu << "}\n\n";
  // Host: inputs from a fixed hash (edge values for the first vectors), one launch, and the
  // inputs each call saw printed beside its outputs.
  const std::size_t n = blocks.size();
  cu << "static unsigned long long cudiff_hash(unsigned long long x) {\n"
     << "  x += 0x9E3779B97F4A7C15ull; x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;\n"
     << "  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull; return x ^ (x >> 31);\n}\n"
     << "static const unsigned long long cudiff_edges[] = {0ull, 1ull, 0xffffffffull, 0x80000000ull, 0x7fffffffull,\n"
     << "  0xffffffffffffffffull, 0x8000000000000000ull, 0x7fffffffffffffffull, 2ull, 31ull, 32ull, 63ull, 64ull,\n"
     << "  0xffull, 0x80ull, 0xffff8000ull};\n"
     << "static const int cudiff_widths[" << n << "][" << kPtxMaxInputs + kPtxMaxOutputs << "] = {\n";
  for (const PtxProgramBlock& entry : blocks) {
    cu << "  {";
    for (int i = 0; i < kPtxMaxInputs; ++i)
      cu << (i < static_cast<int>(entry.block.inputs.size())
                 ? (entry.block.inputs[static_cast<std::size_t>(i)] == ptx::Width::b32 ? 32 : 64)
                 : 0)
         << ", ";
    for (int i = 0; i < kPtxMaxOutputs; ++i)
      cu << (i < static_cast<int>(entry.block.outputs.size())
                 ? (entry.block.outputs[static_cast<std::size_t>(i)] == ptx::Width::b32 ? 32 : 64)
                 : 0)
         << (i + 1 < kPtxMaxOutputs ? ", " : "");
    cu << "},\n";
  }
  cu << "};\nstatic const int cudiff_twice[" << n << "] = {";
  for (const PtxProgramBlock& entry : blocks) cu << (entry.called_twice ? 1 : 0) << ",";
  cu << "};\n\n"
     << "#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { "
        "printf(\"CUDA error %s: %s\\n\", #call, cudaGetErrorString(e)); return 1; } } while (0)\n\n"
     << "int main() {\n"
     << "  const int blocks = " << n << ", vectors = " << kPtxVectors << ";\n"
     << "  const size_t in_words = (size_t)blocks * vectors * " << in_slots << ";\n"
     << "  const size_t out_words = (size_t)blocks * 2 * vectors * " << out_slots << ";\n"
     << "  unsigned long long* in = (unsigned long long*)calloc(in_words, 8);\n"
     << "  unsigned long long* out = (unsigned long long*)calloc(out_words, 8);\n"
     << "  for (int k = 0; k < blocks; ++k) for (int t = 0; t < vectors; ++t) for (int i = 0; i < " << in_slots
     << "; ++i) {\n"
     << "    const size_t at = ((size_t)k * vectors + t) * " << in_slots << " + i;\n"
     << "    unsigned long long v = t < 16 ? cudiff_edges[(t + i * 5) % 16] : cudiff_hash(at);\n"
     << "    if (t >= 16 && t < 24) v &= 0xffull;  // small values: shift amounts, bit positions\n"
     << "    in[at] = cudiff_widths[k][i] == 32 ? (v & 0xffffffffull) : v;\n  }\n"
     << "  unsigned long long *d_in, *d_out;\n"
     << "  CHECK(cudaMalloc(&d_in, in_words * 8)); CHECK(cudaMalloc(&d_out, out_words * 8));\n"
     << "  CHECK(cudaMemcpy(d_in, in, in_words * 8, cudaMemcpyHostToDevice));\n"
     << "  CHECK(cudaMemset(d_out, 0, out_words * 8));\n"
     << "  cudiff_ptx_kernel<<<1, vectors>>>(d_in, d_out);\n"
     << "  CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize());\n"
     << "  CHECK(cudaMemcpy(out, d_out, out_words * 8, cudaMemcpyDeviceToHost));\n"
     << "  for (int k = 0; k < blocks; ++k) for (int call = 0; call < 1 + cudiff_twice[k]; ++call)\n"
     << "    for (int t = 0; t < vectors; ++t) {\n"
     << "      printf(\"block %d call %d thread %d in\", k, call, t);\n"
     << "      const size_t row = ((size_t)k * 2 + call) * vectors;\n"
     << "      int outs = 0; for (int i = 0; i < " << out_slots << "; ++i) outs += cudiff_widths[k][" << in_slots
     << " + i] != 0;\n"
     << "      for (int i = 0; i < " << in_slots << " && cudiff_widths[k][i]; ++i) {\n"
     << "        unsigned long long v = in[((size_t)k * vectors + t) * " << in_slots << " + i];\n"
     << "        if (call == 1) v ^= out[(row - vectors + t) * " << out_slots << " + i % outs];\n"
     << "        if (cudiff_widths[k][i] == 32) v &= 0xffffffffull;\n"
     << "        printf(\" %llx\", v);\n      }\n"
     << "      printf(\" out\");\n"
     << "      for (int i = 0; i < outs; ++i) printf(\" %llx\", out[(row + t) * " << out_slots << " + i]);\n"
     << "      printf(\"\\n\");\n    }\n"
     << "  return 0;\n}\n";
  return cu.str();
}

} // namespace cudiff::test
