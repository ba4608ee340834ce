// values: C++ integer types, promotions, usual arithmetic conversions and UB-checked operators.
#include "generator/semantics/values.h"

namespace cudiff::generator {
namespace {

std::uint64_t mask(int width) { return width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1; }

using Wide = __int128;

Wide math_value(Value v) { return is_signed(v.type) ? Wide(v.as_signed()) : Wide(v.as_unsigned()); }

bool fits(Wide value, IntType type) {
  return value >= math_value(min_value(type)) && value <= math_value(max_value(type));
}

Value from_wide(IntType type, Wide value) { return Value::make_unsigned(type, static_cast<std::uint64_t>(value)); }

} // namespace

const std::vector<IntType>& all_int_types() {
  static const std::vector<IntType> types = {IntType::Bool,  IntType::Char,   IntType::SChar, IntType::UChar,
                                             IntType::Short, IntType::UShort, IntType::Int,   IntType::UInt,
                                             IntType::LLong, IntType::ULLong};
  return types;
}

std::string type_name(IntType type) {
  switch (type) {
  case IntType::Bool: return "bool";
  case IntType::Char: return "char";
  case IntType::SChar: return "signed char";
  case IntType::UChar: return "unsigned char";
  case IntType::Short: return "short";
  case IntType::UShort: return "unsigned short";
  case IntType::Int: return "int";
  case IntType::UInt: return "unsigned int";
  case IntType::LLong: return "long long";
  case IntType::ULLong: return "unsigned long long";
  }
  return "?";
}

int bit_width(IntType type) {
  switch (type) {
  case IntType::Bool: return 1;
  case IntType::Char:
  case IntType::SChar:
  case IntType::UChar: return 8;
  case IntType::Short:
  case IntType::UShort: return 16;
  case IntType::Int:
  case IntType::UInt: return 32;
  case IntType::LLong:
  case IntType::ULLong: return 64;
  }
  return 0;
}

bool is_signed(IntType type) {
  return type == IntType::Char || type == IntType::SChar || type == IntType::Short || type == IntType::Int ||
         type == IntType::LLong;
}

int rank(IntType type) {
  switch (type) {
  case IntType::Bool: return 1;
  case IntType::Char:
  case IntType::SChar:
  case IntType::UChar: return 2;
  case IntType::Short:
  case IntType::UShort: return 3;
  case IntType::Int:
  case IntType::UInt: return 4;
  case IntType::LLong:
  case IntType::ULLong: return 6;
  }
  return 0;
}

IntType promote(IntType type) { return rank(type) < rank(IntType::Int) ? IntType::Int : type; }

IntType make_unsigned(IntType type) {
  switch (promote(type)) {
  case IntType::LLong:
  case IntType::ULLong: return IntType::ULLong;
  default: break;
  }
  if (rank(type) == rank(IntType::Int)) return IntType::UInt;
  if (rank(type) == rank(IntType::Short)) return IntType::UShort;
  return IntType::UChar;
}

IntType common_type(IntType a, IntType b) {
  a = promote(a);
  b = promote(b);
  if (a == b) return a;
  if (is_signed(a) == is_signed(b)) return rank(a) >= rank(b) ? a : b;
  const IntType u = is_signed(a) ? b : a;
  const IntType s = is_signed(a) ? a : b;
  if (rank(u) >= rank(s)) return u;
  if (bit_width(s) > bit_width(u)) return s;
  return make_unsigned(s);
}

Value Value::make(IntType type, std::int64_t value) {
  if (type == IntType::Bool) return Value{type, value != 0 ? 1u : 0u};
  return Value{type, static_cast<std::uint64_t>(value) & mask(bit_width(type))};
}

Value Value::make_unsigned(IntType type, std::uint64_t value) {
  if (type == IntType::Bool) return Value{type, value != 0 ? 1u : 0u};
  return Value{type, value & mask(bit_width(type))};
}

std::int64_t Value::as_signed() const {
  const int width = bit_width(type);
  if (width >= 64 || !is_signed(type)) return static_cast<std::int64_t>(bits);
  const std::uint64_t sign = std::uint64_t{1} << (width - 1);
  return static_cast<std::int64_t>((bits ^ sign) - sign);
}

std::uint64_t Value::as_unsigned() const { return bits; }

Value convert(Value value, IntType to) {
  if (to == IntType::Bool) return Value{to, value.bits != 0 ? 1u : 0u};
  return Value::make_unsigned(to, is_signed(value.type) ? static_cast<std::uint64_t>(value.as_signed()) : value.bits);
}

Value min_value(IntType type) {
  if (!is_signed(type)) return Value{type, 0};
  return Value{type, std::uint64_t{1} << (bit_width(type) - 1)};
}

Value max_value(IntType type) {
  if (!is_signed(type)) return Value{type, mask(bit_width(type))};
  return Value{type, mask(bit_width(type) - 1)};
}

std::string op_text(UnaryOp op) {
  switch (op) {
  case UnaryOp::Neg: return "-";
  case UnaryOp::BitNot: return "~";
  case UnaryOp::LogNot: return "!";
  case UnaryOp::Plus: return "+";
  }
  return "?";
}

std::string op_text(BinaryOp op) {
  static const char* const texts[] = {"+", "-", "*", "/",  "%",  "<<", ">>", "&",  "|",
                                      "^", "<", ">", "<=", ">=", "==", "!=", "&&", "||"};
  return texts[static_cast<int>(op)];
}

const std::vector<BinaryOp>& all_binary_ops() {
  static const std::vector<BinaryOp> ops = [] {
    std::vector<BinaryOp> all;
    for (int i = 0; i <= static_cast<int>(BinaryOp::LogOr); ++i) all.push_back(static_cast<BinaryOp>(i));
    return all;
  }();
  return ops;
}

std::string to_string(UB ub) {
  switch (ub) {
  case UB::None: return "none";
  case UB::SignedOverflow: return "signed overflow";
  case UB::DivByZero: return "division by zero";
  case UB::DivOverflow: return "division overflow";
  case UB::ShiftNegative: return "shift by a negative amount";
  case UB::ShiftTooLarge: return "shift by the width or more";
  case UB::ShiftOfNegative: return "left shift of a negative value";
  case UB::ShiftOverflow: return "left shift overflow";
  case UB::OutOfBounds: return "index out of bounds";
  case UB::Uninitialized: return "read of an uninitialized value";
  }
  return "?";
}

IntType result_type(BinaryOp op, IntType a, IntType b) {
  switch (op) {
  case BinaryOp::Shl:
  case BinaryOp::Shr: return promote(a);
  case BinaryOp::Lt:
  case BinaryOp::Gt:
  case BinaryOp::Le:
  case BinaryOp::Ge:
  case BinaryOp::Eq:
  case BinaryOp::Ne:
  case BinaryOp::LogAnd:
  case BinaryOp::LogOr: return IntType::Bool;
  default: return common_type(a, b);
  }
}

IntType result_type(UnaryOp op, IntType a) { return op == UnaryOp::LogNot ? IntType::Bool : promote(a); }

IntType conditional_type(IntType a, IntType b) { return a == b ? a : common_type(a, b); }

Outcome apply(BinaryOp op, Value a, Value b) {
  if (op == BinaryOp::LogAnd) return {Value{IntType::Bool, (a.bits != 0 && b.bits != 0) ? 1u : 0u}};
  if (op == BinaryOp::LogOr) return {Value{IntType::Bool, (a.bits != 0 || b.bits != 0) ? 1u : 0u}};
  if (op == BinaryOp::Shl || op == BinaryOp::Shr) {
    const IntType type = promote(a.type);
    const Value left = convert(a, type);
    const Value right = convert(b, promote(b.type));
    const Wide amount = math_value(right);
    if (amount < 0) return {{}, UB::ShiftNegative};
    if (amount >= bit_width(type)) return {{}, UB::ShiftTooLarge};
    const int shift = static_cast<int>(amount);
    if (op == BinaryOp::Shr) {
      if (is_signed(type)) return {Value::make(type, left.as_signed() >> shift)};
      return {Value::make_unsigned(type, left.bits >> shift)};
    }
    if (!is_signed(type)) return {Value::make_unsigned(type, left.bits << shift)};
    if (left.as_signed() < 0) return {{}, UB::ShiftOfNegative};
    // Stricter than C++17 (which allows a result representable in the unsigned type): both
    // readings agree on every value kept here.
    const Wide shifted = Wide(left.as_signed()) << shift;
    if (!fits(shifted, type)) return {{}, UB::ShiftOverflow};
    return {from_wide(type, shifted)};
  }
  const IntType type = common_type(a.type, b.type);
  const Value x = convert(a, type);
  const Value y = convert(b, type);
  const Wide xv = math_value(x);
  const Wide yv = math_value(y);
  auto boolean = [](bool v) { return Outcome{Value{IntType::Bool, v ? 1u : 0u}}; };
  auto arithmetic = [&](Wide exact) -> Outcome {
    if (is_signed(type) && !fits(exact, type)) return {{}, UB::SignedOverflow};
    return {from_wide(type, exact)};
  };
  switch (op) {
  case BinaryOp::Add: return arithmetic(xv + yv);
  case BinaryOp::Sub: return arithmetic(xv - yv);
  case BinaryOp::Mul:
    if (!is_signed(type)) return {Value::make_unsigned(type, x.bits * y.bits)};
    return arithmetic(xv * yv);
  case BinaryOp::Div:
  case BinaryOp::Rem:
    if (yv == 0) return {{}, UB::DivByZero};
    if (is_signed(type) && x == min_value(type) && yv == -1) return {{}, UB::DivOverflow};
    return {from_wide(type, op == BinaryOp::Div ? xv / yv : xv % yv)};
  case BinaryOp::BitAnd: return {Value::make_unsigned(type, x.bits & y.bits)};
  case BinaryOp::BitOr: return {Value::make_unsigned(type, x.bits | y.bits)};
  case BinaryOp::BitXor: return {Value::make_unsigned(type, x.bits ^ y.bits)};
  case BinaryOp::Lt: return boolean(xv < yv);
  case BinaryOp::Gt: return boolean(xv > yv);
  case BinaryOp::Le: return boolean(xv <= yv);
  case BinaryOp::Ge: return boolean(xv >= yv);
  case BinaryOp::Eq: return boolean(xv == yv);
  case BinaryOp::Ne: return boolean(xv != yv);
  default: break;
  }
  return {{}, UB::None};
}

Outcome apply(UnaryOp op, Value a) {
  if (op == UnaryOp::LogNot) return {Value{IntType::Bool, a.bits == 0 ? 1u : 0u}};
  const IntType type = promote(a.type);
  const Value x = convert(a, type);
  switch (op) {
  case UnaryOp::Neg:
    if (is_signed(type) && x == min_value(type)) return {{}, UB::SignedOverflow};
    return {Value::make_unsigned(type, ~x.bits + 1)};
  case UnaryOp::BitNot: return {Value::make_unsigned(type, ~x.bits)};
  default: return {x};
  }
}

std::string literal(Value value) {
  switch (value.type) {
  case IntType::Bool: return value.bits ? "true" : "false";
  case IntType::UInt: return std::to_string(value.bits) + "u";
  case IntType::ULLong: return std::to_string(value.bits) + "ull";
  case IntType::Int:
    if (value == min_value(IntType::Int)) return "(-2147483647 - 1)";
    return value.as_signed() < 0 ? "(" + std::to_string(value.as_signed()) + ")" : std::to_string(value.as_signed());
  case IntType::LLong:
    if (value == min_value(IntType::LLong)) return "(-9223372036854775807ll - 1)";
    return value.as_signed() < 0 ? "(" + std::to_string(value.as_signed()) + "ll)"
                                 : std::to_string(value.as_signed()) + "ll";
  default: break;
  }
  const std::string number = is_signed(value.type) ? std::to_string(value.as_signed()) : std::to_string(value.bits);
  return "((" + type_name(value.type) + ")" + (number[0] == '-' ? "(" + number + ")" : number) + ")";
}

} // namespace cudiff::generator
