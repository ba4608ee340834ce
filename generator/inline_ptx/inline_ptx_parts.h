// Internals of the inline-PTX blocks (generator/inline_ptx/inline_ptx.h): the instruction record that
// make_block produces, asm_statement spells and run executes, and the exact semantics of each
// instruction as the PTX ISA states them (namespace isa, unit-tested with hand-worked values).
#pragma once

#include "generator/inline_ptx/inline_ptx.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cudiff::generator::ptx {

/// A register file of the block. `input` and `output` are the asm operands (%N), indexed
/// within Block::inputs / Block::outputs; the others are declared inside the braces:
/// `.reg .b32 %ct<N>`, `.reg .b64 %cw<N>`, `.reg .pred %cp<N>` (prefixes no compiler uses for
/// its own registers, so an operand the compiler substitutes is never shadowed).
enum class Bank : std::uint8_t { b32, b64, pred, input, output };

struct Reg {
  Bank bank = Bank::b32;
  int index = 0;
  bool operator==(const Reg&) const = default;
};

/// A source operand: a register (a predicate one may be negated, `!%cp1`) or an immediate.
struct Operand {
  bool immediate = false;
  Reg reg = {};
  std::uint64_t value = 0;  ///< the immediate, already truncated to the operand's width
  bool negated = false;
};

/// Integer PTX types. `pred` only for the logic instructions on predicates.
enum class Type : std::uint8_t { b32, b64, u8, s8, u16, s16, u32, s32, u64, s64, pred };

enum class Op : std::uint8_t {
  mov,
  add,
  sub,  // moves and the loop counters
  and_,
  or_,
  xor_,
  not_,
  cnot,
  lop3,
  shl,
  shr,
  shf_l,
  shf_r,
  prmt,
  bfe,
  bfi,
  bfind,
  brev,
  popc,
  clz,
  add_cc,
  addc,
  sub_cc,
  subc,
  mad_cc,
  madc,  // carry chains: CC.CF
  mul_lo,
  mul_hi,
  mul_wide,
  mad_lo,
  mad_hi,
  mad_wide,
  min,
  max,
  selp,
  slct,
  setp,
  cvt,
  vop4,
  vop2,  // SIMD video: `mode` is a VideoOp
  label,
  bra
};

enum class PrmtMode : std::uint8_t { generic, f4e, b4e, rc8, ecl, ecr, rc16 };
enum class CmpOp : std::uint8_t { eq, ne, lt, le, gt, ge, lo, ls, hi, hs };
enum class BoolOp : std::uint8_t { none, and_, or_, xor_ };
enum class VideoOp : std::uint8_t { add, sub, absdiff, min, max };

struct Instruction {
  Op op = Op::mov;
  Type type = Type::b32;   ///< the instruction type; cvt, slct and the video ops: the destination's
  Type type2 = Type::b32;  ///< cvt's source type, slct's selector type (s32), video's a type
  Type type3 = Type::b32;  ///< video's b type
  int mode = 0;  ///< lop3's immLut, a PrmtMode, a CmpOp (setp), a VideoOp; mad_cc/madc: 1 for .hi, 0 for .lo
  BoolOp bool_op = BoolOp::none;  ///< setp's combining operation (its last source is c)
  /// shf: .clamp (else .wrap); bfind: .shiftamt; addc/subc/madc: .cc; video: .sat.
  bool flag = false;
  bool accumulate = false;  ///< video: the secondary `.add` (sum of the lanes plus c)
  bool uniform = false;     ///< bra.uni
  std::vector<Reg> dests = {};
  std::vector<Operand> sources = {};
  std::optional<Operand> guard = {};  ///< `@%cp0` / `@!%cp0`
  int label = -1;                     ///< label's number, or a branch's target
  std::string family = {};            ///< the knob family it was generated for ("prmt", "loop"...)
};

/// Bits of a type (8..64); 1 for pred.
int bits_of(Type type);
bool is_signed(Type type);
std::string spell(Type type);
/// The PTX mnemonic with all its modifiers: "shf.l.clamp.b32", "setp.lt.and.s32"...
std::string mnemonic(const Instruction& instruction);
/// One line of PTX without the trailing newline: "@!%cp0 xor.b32 %ct1, %ct0, 0x0000ffff;".
/// `output_count` places the inputs' operand numbers after the outputs'.
std::string instruction_text(const Instruction& instruction, std::size_t output_count);

/// The instruction families, each with its weight knob "ptx.family.<name>" (knobs_ptx.def).
const std::vector<std::string>& family_names();

namespace isa {

/// Exact semantics of each instruction, from the PTX ISA's pseudocode. Operands and results are
/// zero-extended bit patterns of the instruction type's width (a .u32 result < 2^32).
std::uint64_t mask(int bits);
std::int64_t sign_extend(std::uint64_t value, int bits);

std::uint32_t lop3(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t lut);
std::uint64_t cnot(std::uint64_t a);
/// shl/shr: the amount is a .u32; amounts larger than the width clamp to the width.
std::uint64_t shl(int bits, std::uint64_t a, std::uint32_t amount);
std::uint64_t shr(Type type, std::uint64_t a, std::uint32_t amount);
std::uint32_t shf(bool left, bool clamp, std::uint32_t a, std::uint32_t b, std::uint32_t c);
std::uint32_t prmt(PrmtMode mode, std::uint32_t a, std::uint32_t b, std::uint32_t c);
std::uint64_t bfe(Type type, std::uint64_t a, std::uint32_t pos, std::uint32_t len);
std::uint64_t bfi(int bits, std::uint64_t a, std::uint64_t b, std::uint32_t pos, std::uint32_t len);
std::uint32_t bfind(Type type, bool shiftamt, std::uint64_t a);
std::uint64_t brev(int bits, std::uint64_t a);
std::uint32_t popc(std::uint64_t a);
std::uint32_t clz(int bits, std::uint64_t a);
/// mul.lo / mul.hi of the type (the low or high half of the double-width product); mul.wide
/// of a 32-bit type (the 64-bit product).
std::uint64_t mul_lo(Type type, std::uint64_t a, std::uint64_t b);
std::uint64_t mul_hi(Type type, std::uint64_t a, std::uint64_t b);
std::uint64_t mul_wide(Type type, std::uint64_t a, std::uint64_t b);
std::uint64_t min(Type type, std::uint64_t a, std::uint64_t b);
std::uint64_t max(Type type, std::uint64_t a, std::uint64_t b);
bool compare(CmpOp op, Type type, std::uint64_t a, std::uint64_t b);
/// cvt.dtype.atype between integer types: the source chopped to atype, converted (sign- or
/// zero-extended, or truncated), then extended to the destination register of `register_bits`
/// by dtype's signedness (the ISA's rule for destinations wider than the instruction type).
std::uint64_t cvt(Type dtype, Type atype, std::uint64_t a, int register_bits);
/// vadd4..vmax4 (lanes 4) and vadd2..vmax2 (lanes 2) with the default mask and selectors.
std::uint32_t video(VideoOp op, int lanes, Type dtype, Type atype, Type btype, bool sat, bool accumulate,
                    std::uint32_t a, std::uint32_t b, std::uint32_t c);

/// A carry-chain step: the sum (or difference) of the type's width and the carry (borrow) out.
struct Carried {
  std::uint64_t value = 0;
  bool carry = false;
};
Carried add_carry(int bits, std::uint64_t a, std::uint64_t b, bool carry_in);
Carried sub_borrow(int bits, std::uint64_t a, std::uint64_t b, bool borrow_in);

} // namespace isa

} // namespace cudiff::generator::ptx
