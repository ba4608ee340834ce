// values: the integer types of generated programs and C++'s arithmetic on them, exactly, with
// every undefined-behaviour case reported instead of computed (YARPGen's UBKind).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cudiff::generator {

/// The integer types a generated program uses. `long` is left out: its width is the one
/// integer property that differs between targets, and long long covers 64 bits.
enum class IntType : std::uint8_t { Bool, Char, SChar, UChar, Short, UShort, Int, UInt, LLong, ULLong };

/// Every IntType, in declaration order.
const std::vector<IntType>& all_int_types();
/// C++ spelling, e.g. "unsigned short".
std::string type_name(IntType type);
int bit_width(IntType type);
/// Plain char is signed on x86-64 Linux hosts, and CUDA devices follow the host.
bool is_signed(IntType type);
/// Conversion rank ([conv.rank]): bool < chars < short < int < long long.
int rank(IntType type);
/// The type after integral promotion ([conv.prom]): everything below int becomes int.
IntType promote(IntType type);
/// The usual arithmetic conversions ([expr.arith.conv]) of two operand types (promotes first).
IntType common_type(IntType a, IntType b);
/// The unsigned type of the same rank (bool and the chars map to unsigned char).
IntType make_unsigned(IntType type);

/// A value of an integer type. `bits` holds the value's two's-complement bit pattern truncated
/// to the type's width (upper bits zero), so equal values compare equal as structs.
struct Value {
  IntType type = IntType::Int;
  std::uint64_t bits = 0;

  static Value make(IntType type, std::int64_t value);   ///< modular, like a conversion
  static Value make_unsigned(IntType type, std::uint64_t value);
  std::int64_t as_signed() const;    ///< the mathematical value for signed types
  std::uint64_t as_unsigned() const; ///< the mathematical value for unsigned types
  bool is_negative() const { return is_signed(type) && as_signed() < 0; }
  bool is_zero() const { return bits == 0; }
  bool operator==(const Value&) const = default;
};

/// Integral conversion ([conv.integral]): modular for every target (C++20 made the signed case
/// defined; both compilers have always done it). To bool: value != 0.
Value convert(Value value, IntType to);
/// The smallest and largest value of a type.
Value min_value(IntType type);
Value max_value(IntType type);

enum class UnaryOp : std::uint8_t { Neg, BitNot, LogNot, Plus };
enum class BinaryOp : std::uint8_t {
  Add,
  Sub,
  Mul,
  Div,
  Rem,
  Shl,
  Shr,
  BitAnd,
  BitOr,
  BitXor,
  Lt,
  Gt,
  Le,
  Ge,
  Eq,
  Ne,
  LogAnd,
  LogOr
};
std::string op_text(UnaryOp op);
std::string op_text(BinaryOp op);
const std::vector<BinaryOp>& all_binary_ops();

/// Why an operation has no defined result.
enum class UB : std::uint8_t {
  None,
  SignedOverflow,
  DivByZero,
  DivOverflow,
  ShiftNegative,
  ShiftTooLarge,
  ShiftOfNegative,
  ShiftOverflow,
  OutOfBounds,
  Uninitialized
};
std::string to_string(UB ub);

/// A value, or the reason it has none.
struct Outcome {
  Value value;
  UB ub = UB::None;
  bool ok() const { return ub == UB::None; }
};

/// The result type of `a op b` for operands of these types.
IntType result_type(BinaryOp op, IntType a, IntType b);
IntType result_type(UnaryOp op, IntType a);
/// `a op b` with C++17 semantics. Both operands are always evaluated (a generated && or || must
/// be defined on every lane, which is stricter than C++ and keeps the check simple).
Outcome apply(BinaryOp op, Value a, Value b);
Outcome apply(UnaryOp op, Value a);
/// The type of `c ? a : b`: the common type, except that two operands of one type keep it.
IntType conditional_type(IntType a, IntType b);

/// A C++ literal of the type with this value, parenthesized where needed, e.g. "(short)-5",
/// "4294967295u", "(-2147483647 - 1)".
std::string literal(Value value);

} // namespace cudiff::generator
