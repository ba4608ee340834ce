// Generator value layer: C++ promotions, usual arithmetic conversions and operators checked
// against the real operators of this machine; every UB case flagged.
#include "generator/semantics/values.h"

#include "common/rng.h"

#include <gtest/gtest.h>

#include <climits>
#include <type_traits>

namespace {

using namespace cudiff::generator;

template <class T>
IntType type_of() {
  if constexpr (std::is_same_v<T, bool>) return IntType::Bool;
  else if constexpr (std::is_same_v<T, char>) return IntType::Char;
  else if constexpr (std::is_same_v<T, signed char>) return IntType::SChar;
  else if constexpr (std::is_same_v<T, unsigned char>) return IntType::UChar;
  else if constexpr (std::is_same_v<T, short>) return IntType::Short;
  else if constexpr (std::is_same_v<T, unsigned short>) return IntType::UShort;
  else if constexpr (std::is_same_v<T, int>) return IntType::Int;
  else if constexpr (std::is_same_v<T, unsigned int>) return IntType::UInt;
  else if constexpr (std::is_same_v<T, long long>) return IntType::LLong;
  else return IntType::ULLong;
}

template <class F>
void with_type(IntType type, F&& f) {
  switch (type) {
  case IntType::Bool: return f(bool{});
  case IntType::Char: return f(char{});
  case IntType::SChar: return f(static_cast<signed char>(0));
  case IntType::UChar: return f(static_cast<unsigned char>(0));
  case IntType::Short: return f(short{});
  case IntType::UShort: return f(static_cast<unsigned short>(0));
  case IntType::Int: return f(int{});
  case IntType::UInt: return f(0u);
  case IntType::LLong: return f(0ll);
  case IntType::ULLong: return f(0ull);
  }
}

template <class T>
T native(Value v) {
  if constexpr (std::is_same_v<T, bool>) return v.bits != 0;
  else if constexpr (std::is_signed_v<T>) return static_cast<T>(v.as_signed());
  else return static_cast<T>(v.bits);
}

template <class R>
Value to_value(R r) {
  if constexpr (std::is_signed_v<R>) return Value::make(type_of<R>(), static_cast<std::int64_t>(r));
  else return Value::make_unsigned(type_of<R>(), static_cast<std::uint64_t>(r));
}

// The operators are applied to every pair of types on purpose: mixed signedness is the point.
#pragma clang diagnostic ignored "-Wsign-compare"
#pragma clang diagnostic ignored "-Wbool-operation"
#pragma clang diagnostic ignored "-Wint-in-bool-context"

// The native result of a op b, computed only when the model says it is defined.
template <class A, class B>
Value native_binary(BinaryOp op, A a, B b) {
  switch (op) {
  case BinaryOp::Add: return to_value(a + b);
  case BinaryOp::Sub: return to_value(a - b);
  case BinaryOp::Mul: return to_value(a * b);
  case BinaryOp::Div: return to_value(a / b);
  case BinaryOp::Rem: return to_value(a % b);
  case BinaryOp::Shl: return to_value(a << b);
  case BinaryOp::Shr: return to_value(a >> b);
  case BinaryOp::BitAnd: return to_value(a & b);
  case BinaryOp::BitOr: return to_value(a | b);
  case BinaryOp::BitXor: return to_value(a ^ b);
  case BinaryOp::Lt: return to_value(a < b);
  case BinaryOp::Gt: return to_value(a > b);
  case BinaryOp::Le: return to_value(a <= b);
  case BinaryOp::Ge: return to_value(a >= b);
  case BinaryOp::Eq: return to_value(a == b);
  case BinaryOp::Ne: return to_value(a != b);
  case BinaryOp::LogAnd: return to_value(a && b);
  case BinaryOp::LogOr: return to_value(a || b);
  }
  return {};
}

Value interesting(cudiff::Rng& rng, IntType type) {
  switch (rng.below(5)) {
  case 0: return min_value(type);
  case 1: return max_value(type);
  case 2: return Value::make(type, rng.range(-3, 3));
  case 3: return Value::make(type, rng.range(-70, 70));
  default: return Value::make_unsigned(type, rng.next_u64());
  }
}

} // namespace

TEST(GeneratorValues, PromotionsAndConversionsMatchTheLanguage) {
  EXPECT_EQ(promote(IntType::UShort), IntType::Int);
  EXPECT_EQ(promote(IntType::Bool), IntType::Int);
  EXPECT_EQ(common_type(IntType::Int, IntType::UInt), IntType::UInt);
  EXPECT_EQ(common_type(IntType::UInt, IntType::LLong), IntType::LLong);
  EXPECT_EQ(common_type(IntType::LLong, IntType::ULLong), IntType::ULLong);
  EXPECT_EQ(common_type(IntType::UChar, IntType::UShort), IntType::Int);
  EXPECT_EQ(convert(Value::make(IntType::Int, -1), IntType::UChar).bits, 255u);
  EXPECT_EQ(convert(Value::make(IntType::Int, 300), IntType::SChar).as_signed(), 44);
  EXPECT_EQ(convert(Value::make(IntType::Int, 2), IntType::Bool).bits, 1u);
  EXPECT_EQ(conditional_type(IntType::Short, IntType::Short), IntType::Short);
  EXPECT_EQ(conditional_type(IntType::Short, IntType::UChar), IntType::Int);
}

TEST(GeneratorValues, UndefinedOperationsAreFlagged) {
  const Value int_max = max_value(IntType::Int);
  EXPECT_EQ(apply(BinaryOp::Add, int_max, Value::make(IntType::Int, 1)).ub, UB::SignedOverflow);
  EXPECT_EQ(apply(BinaryOp::Sub, min_value(IntType::Int), Value::make(IntType::Int, 1)).ub, UB::SignedOverflow);
  // The classic trap: unsigned short * unsigned short is int * int and overflows.
  const Value big = Value::make(IntType::UShort, 65535);
  EXPECT_EQ(apply(BinaryOp::Mul, big, big).ub, UB::SignedOverflow);
  EXPECT_TRUE(apply(BinaryOp::Mul, Value::make(IntType::UInt, 65535), big).ok());  // unsigned wraps
  EXPECT_EQ(apply(BinaryOp::Shl, Value::make(IntType::Int, 1), Value::make(IntType::Int, 32)).ub, UB::ShiftTooLarge);
  EXPECT_EQ(apply(BinaryOp::Shl, Value::make(IntType::Char, 1), Value::make(IntType::Int, 31)).ub, UB::ShiftOverflow);
  EXPECT_TRUE(apply(BinaryOp::Shl, Value::make(IntType::Char, 1), Value::make(IntType::Int, 30)).ok());
  EXPECT_EQ(apply(BinaryOp::Shr, Value::make(IntType::Int, 1), Value::make(IntType::Int, -1)).ub, UB::ShiftNegative);
  EXPECT_EQ(apply(BinaryOp::Shl, Value::make(IntType::Int, -1), Value::make(IntType::Int, 1)).ub, UB::ShiftOfNegative);
  EXPECT_EQ(apply(BinaryOp::Shr, Value::make(IntType::LLong, 1), Value::make(IntType::ULLong, 64)).ub,
            UB::ShiftTooLarge);
  EXPECT_EQ(apply(BinaryOp::Div, int_max, Value::make(IntType::Int, 0)).ub, UB::DivByZero);
  EXPECT_EQ(apply(BinaryOp::Rem, Value::make(IntType::UInt, 5), Value::make(IntType::Bool, 0)).ub, UB::DivByZero);
  EXPECT_EQ(apply(BinaryOp::Div, min_value(IntType::Int), Value::make(IntType::Int, -1)).ub, UB::DivOverflow);
  EXPECT_EQ(apply(BinaryOp::Rem, min_value(IntType::LLong), Value::make(IntType::LLong, -1)).ub, UB::DivOverflow);
  // INT_MIN / -1 in unsigned arithmetic is fine.
  EXPECT_TRUE(apply(BinaryOp::Div, min_value(IntType::Int), Value::make(IntType::UInt, 0xffffffffu)).ok());
  EXPECT_EQ(apply(UnaryOp::Neg, min_value(IntType::Int)).ub, UB::SignedOverflow);
  EXPECT_TRUE(apply(UnaryOp::Neg, min_value(IntType::Short)).ok());  // promoted to int first
}

TEST(GeneratorValues, EveryDefinedOperationMatchesTheNativeOperator) {
  cudiff::SeededRng rng(7);
  int checked = 0;
  for (int trial = 0; trial < 60000; ++trial) {
    const IntType ta = all_int_types()[rng.below(10)];
    const IntType tb = all_int_types()[rng.below(10)];
    const Value a = interesting(rng, ta);
    const Value b = interesting(rng, tb);
    const BinaryOp op = all_binary_ops()[rng.below(all_binary_ops().size())];
    const Outcome model = apply(op, a, b);
    if (!model.ok()) continue;
    ++checked;
    with_type(ta, [&](auto x) {
      with_type(tb, [&](auto y) {
        using A = decltype(x);
        using B = decltype(y);
        const Value real = native_binary(op, native<A>(a), native<B>(b));
        ASSERT_EQ(model.value.type, real.type) << type_name(ta) << " " << op_text(op) << " " << type_name(tb);
        ASSERT_EQ(model.value.bits, real.bits)
            << type_name(ta) << " " << a.bits << " " << op_text(op) << " " << type_name(tb) << " " << b.bits;
        ASSERT_EQ(result_type(op, ta, tb), real.type);
      });
    });
  }
  EXPECT_GT(checked, 30000);
}

TEST(GeneratorValues, UnaryOperatorsAndLiteralsMatchTheLanguage) {
  EXPECT_EQ(apply(UnaryOp::BitNot, Value::make(IntType::UChar, 0)).value, Value::make(IntType::Int, -1));
  EXPECT_EQ(apply(UnaryOp::Neg, Value::make(IntType::UInt, 1)).value.bits, 0xffffffffu);
  EXPECT_EQ(apply(UnaryOp::LogNot, Value::make(IntType::LLong, 5)).value, Value::make(IntType::Bool, 0));
  EXPECT_EQ(literal(min_value(IntType::Int)), "(-2147483647 - 1)");
  EXPECT_EQ(literal(Value::make(IntType::UInt, 7)), "7u");
  EXPECT_EQ(literal(Value::make(IntType::Short, -5)), "((short)(-5))");
  EXPECT_EQ(literal(Value::make(IntType::ULLong, -1)), "18446744073709551615ull");
}
