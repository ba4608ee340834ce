// inline_ptx: asm volatile blocks of integer PTX for the compute-dense family
// (generator/dense/dense*.cpp), generated from the program's random stream and run exactly by the
// interpreter. They reach ptxas directly, as random-PTX fuzzers do, inside cudiff's programs
// and oracles. Internal to generator/.
#pragma once

#include "common/rng.h"
#include "generator/generator.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cudiff::generator::ptx {

/// The width of an asm operand: "r" (32 bits, C++ unsigned int) or "l" (64 bits, unsigned
/// long long).
enum class Width { b32, b64 };

struct Instruction;  // inline_ptx_parts.h

/// One `asm volatile("{ ... }" : outputs : inputs);` statement: straight-line integer PTX
/// with structured control flow inside (loops with recurrences, if/else, predicated
/// branches), declared registers scoped to the block's braces.
struct Block {
  std::vector<Width> inputs;   ///< read operands, in order
  std::vector<Width> outputs;  ///< written operands ("=r"/"=l"), in order
  std::vector<Instruction> body;
  std::vector<std::string> features;  ///< the instruction families it uses ("prmt", "addc", "loop"...), for measurement
  Block();
  ~Block();
  Block(const Block&);
  Block(Block&&) noexcept;
  Block& operator=(const Block&);
  Block& operator=(Block&&) noexcept;
};

/// A random block reading `inputs` and writing `outputs` operands. Knobs "ptx.*"
/// (knobs_ptx.def). Every instruction is defined for every input (shift amounts clamp or
/// mask as PTX specifies, no division), loops have constant trip counts.
Block make_block(Rng& rng, const Policy& policy, const std::vector<Width>& inputs, const std::vector<Width>& outputs);

/// The C++ statement: `asm volatile("{\n\t...}" : "=r"(o0), "=l"(o1) : "r"(i0), ...);`
/// `outputs` are lvalues of unsigned int / unsigned long long, `inputs` expressions of the
/// operand's type. Labels and registers are local to the block's braces, so a block may be
/// inlined many times into one kernel.
std::string asm_statement(const Block& block, const std::vector<std::string>& outputs,
                          const std::vector<std::string>& inputs);

/// What the block writes for these operand values (zero-extended to 64 bits), exactly as
/// the PTX ISA specifies each instruction.
std::vector<std::uint64_t> run(const Block& block, const std::vector<std::uint64_t>& inputs);

}  // namespace cudiff::generator::ptx
