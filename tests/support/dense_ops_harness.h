// A program that computes every operation of the compute-dense family (generator/dense/dense_ops.def)
// on fixed operand vectors and prints each value, so a test can compare the real operation —
// the host compiler's operators, or the GPU's intrinsics under nvcc and clang — with the
// generator's semantics (dense::apply), which predict every generated checksum.
#pragma once

#include "generator/dense/dense.h"

#include <cstdint>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace cudiff::test {

inline constexpr int kDenseOperands = 5;

/// 256 operand vectors: edge values in every position, then a fixed hash.
inline std::vector<std::uint64_t> dense_operand_values() {
  static const std::uint64_t edges[] = {0,
                                        1,
                                        2,
                                        3,
                                        7,
                                        8,
                                        15,
                                        16,
                                        31,
                                        32,
                                        33,
                                        63,
                                        64,
                                        65,
                                        0x7f,
                                        0x80,
                                        0xff,
                                        0x100,
                                        0x7fff,
                                        0x8000,
                                        0xffff,
                                        0x10000,
                                        0x7fffffff,
                                        0x80000000,
                                        0x80000001,
                                        0xfffffffe,
                                        0xffffffff,
                                        0x100000000ull,
                                        0x7fffffffffffffffull,
                                        0x8000000000000000ull,
                                        0xffffffffffffffffull,
                                        0xffffffff80000000ull};
  std::vector<std::uint64_t> values;
  std::uint64_t x = 0x9E3779B97F4A7C15ull;
  for (int vector = 0; vector < 256; ++vector)
    for (int k = 0; k < kDenseOperands; ++k) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      const std::uint64_t pick = (x >> 33) % 3;
      std::uint64_t value = pick == 0 ? edges[(x >> 40) % std::size(edges)] : x ^ (x >> 29);
      if (pick == 1) value &= 0xffffffffull;
      values.push_back(value);
    }
  return values;
}

/// The operation's text with operand k read from v[k] (32-bit operands truncated).
inline std::string dense_op_text(const generator::dense::OpInfo& op) {
  std::string out;
  const std::string pattern = op.text;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '%' && i + 1 < pattern.size() && pattern[i + 1] >= '0' && pattern[i + 1] <= '9') {
      const int k = pattern[i + 1] - '0';
      out += op.args[k] == '8' ? "v[" + std::to_string(k) + "]" : "((unsigned)v[" + std::to_string(k) + "])";
      ++i;
    } else {
      out += pattern[i];
    }
  }
  return out;
}

/// A .cu (device) or .cpp (host) program printing "<op> <vector> <hex>" for every operation in
/// `ops` and every operand vector.
inline std::string dense_ops_program(const std::vector<generator::dense::Op>& ops, bool device) {
  const std::vector<std::uint64_t> values = dense_operand_values();
  const std::size_t vectors = values.size() / kDenseOperands;
  std::ostringstream text;
  text << "#include <cstdio>\n#include <cmath>\n#include <algorithm>\n";
  if (device) text << "#include <cuda_runtime.h>\n" << generator::dense::half_precision_includes();
  else text << "using std::min; using std::max;\n";
  text << "static const unsigned long long operands[" << values.size() << "] = {";
  for (std::size_t i = 0; i < values.size(); ++i) text << (i ? "," : "") << values[i] << "ull";
  text << "};\n";
  text << (device ? "__global__ void compute(const unsigned long long* operands, unsigned long long* out) {\n"
                    "  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                  : "static void compute(const unsigned long long* operands, unsigned long long* out, unsigned i) {\n");
  text << "  const unsigned long long* v = operands + i * " << kDenseOperands << ";\n";
  for (std::size_t j = 0; j < ops.size(); ++j)
    text << "  out[i * " << ops.size() << "u + " << j << "u] = (unsigned long long)("
         << dense_op_text(generator::dense::info(ops[j])) << ");\n";
  text << "}\n";
  const std::size_t words = vectors * ops.size();
  text << "static unsigned long long results[" << words << "];\n";
  text << "int main() {\n";
  if (device) {
    text << "  unsigned long long *d_operands, *d_out;\n"
            "  if (cudaMalloc(&d_operands, sizeof operands) || cudaMalloc(&d_out, sizeof results)) return 2;\n"
            "  cudaMemcpy(d_operands, operands, sizeof operands, cudaMemcpyHostToDevice);\n"
         << "  compute<<<" << vectors / 64 << ", 64>>>(d_operands, d_out);\n"
         << "  if (cudaDeviceSynchronize() != cudaSuccess) return 3;\n"
            "  cudaMemcpy(results, d_out, sizeof results, cudaMemcpyDeviceToHost);\n";
  } else {
    text << "  for (unsigned i = 0; i < " << vectors << "u; ++i) compute(operands, results, i);\n";
  }
  text << "  for (unsigned i = 0; i < " << vectors << "u; ++i)\n"
       << "    for (unsigned j = 0; j < " << ops.size() << "u; ++j)\n"
       << "      std::printf(\"%u %u %llx\\n\", j, i, results[i * " << ops.size() << "u + j]);\n"
       << "  return 0;\n}\n";
  return text.str();
}

/// One disagreement between a program's output and dense::apply.
struct DenseMismatch {
  generator::dense::Op op;
  std::size_t vector = 0;
  std::uint64_t printed = 0, predicted = 0;
};

/// Parses the program's output and compares every line with dense::apply; also counts lines.
inline std::vector<DenseMismatch> dense_mismatches(const std::vector<generator::dense::Op>& ops,
                                                   const std::string& output, std::size_t& lines) {
  const std::vector<std::uint64_t> values = dense_operand_values();
  std::vector<DenseMismatch> mismatches;
  std::istringstream in(output);
  unsigned j = 0, i = 0;
  std::string hex;
  lines = 0;
  while (in >> j >> i >> hex) {
    ++lines;
    const generator::dense::OpInfo& op = generator::dense::info(ops.at(j));
    std::uint64_t args[kDenseOperands];
    for (int k = 0; k < kDenseOperands; ++k) {
      const std::uint64_t value = values.at(i * kDenseOperands + k);
      args[k] = k < static_cast<int>(op.args.size()) && op.args[k] == '4' ? value & 0xffffffffull : value;
    }
    std::uint64_t predicted = generator::dense::apply(op.op, args);
    if (!op.result64) predicted &= 0xffffffffull;
    const std::uint64_t printed = std::stoull(hex, nullptr, 16);
    if (printed != predicted) mismatches.push_back({op.op, i, printed, predicted});
  }
  return mismatches;
}

/// "Op: n of m vectors disagree, e.g. operands ... printed ... predicted ..." per operation.
inline std::string describe(const std::vector<DenseMismatch>& mismatches) {
  const std::vector<std::uint64_t> values = dense_operand_values();
  std::map<std::string, std::pair<int, const DenseMismatch*>> by_op;
  for (const DenseMismatch& m : mismatches) {
    auto& entry = by_op[generator::dense::info(m.op).name];
    if (entry.first++ == 0) entry.second = &m;
  }
  std::string text;
  for (const auto& [name, entry] : by_op) {
    const DenseMismatch& m = *entry.second;
    char line[400];
    std::snprintf(line, sizeof line,
                  "%s (%s): %d vectors disagree, e.g. operands %llx %llx %llx %llx printed %llx predicted %llx\n",
                  name.c_str(), generator::dense::info(m.op).text, entry.first,
                  static_cast<unsigned long long>(values[m.vector * kDenseOperands]),
                  static_cast<unsigned long long>(values[m.vector * kDenseOperands + 1]),
                  static_cast<unsigned long long>(values[m.vector * kDenseOperands + 2]),
                  static_cast<unsigned long long>(values[m.vector * kDenseOperands + 3]),
                  static_cast<unsigned long long>(m.printed), static_cast<unsigned long long>(m.predicted));
    text += line;
  }
  return text;
}

} // namespace cudiff::test
