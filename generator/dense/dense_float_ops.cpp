// dense_float_ops: the exact value of the compute-dense family's floating-point operations
// (dense_fp_float and dense_half in dense_ops.def). Every one is exact by construction or
// rounds once to nearest even (a conversion, or a sum whose operands' product parts are exact),
// so the host's IEEE 754 float and double, with their default rounding, compute the same bits as
// the GPU under either compiler at any optimization level; half and bfloat16 values are
// computed in float, where every value these operations produce is exact.
#include "generator/dense/dense.h"

#include "common/common.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <string>

namespace cudiff::generator::dense {
namespace {

using u32 = std::uint32_t;
using u64 = std::uint64_t;
using s32 = std::int32_t;
using s64 = std::int64_t;

s32 as_s32(u64 x) { return static_cast<s32>(static_cast<u32>(x)); }
float int_float(u64 x) { return static_cast<float>(as_s32(x)); }  // (float)(int)x: rounded to nearest even
u32 u32_of_int(s64 x) { return static_cast<u32>(static_cast<u64>(x)); }

/// The binary16 encoding of a float that binary16 holds exactly (a whole number of at most
/// 11 significant bits, or a signed zero).
u32 half_bits(float value) {
  const u32 bits = std::bit_cast<u32>(value);
  const u32 sign = (bits >> 16) & 0x8000u;
  if ((bits & 0x7fffffffu) == 0) return sign;
  const int exponent = static_cast<int>((bits >> 23) & 0xffu) - 127;
  if (exponent < -14 || exponent > 15 || (bits & 0x1fffu) != 0)
    throw Error(ErrorKind::internal, "dense: a half value that is not exact");
  return sign | static_cast<u32>(exponent + 15) << 10 | ((bits >> 13) & 0x3ffu);
}

/// The bfloat16 encoding of a float that bfloat16 holds exactly: the float's upper half.
u32 bfloat16_bits(float value) {
  const u32 bits = std::bit_cast<u32>(value);
  if ((bits & 0xffffu) != 0) throw Error(ErrorKind::internal, "dense: a bfloat16 value that is not exact");
  return bits >> 16;
}

/// (int) of a half or bfloat16 result computed in float: exact whole numbers only.
u32 whole(float value) {
  if (value != std::trunc(value) || std::fabs(value) > 65504.0f)
    throw Error(ErrorKind::internal, "dense: a half-precision result that is not a whole number");
  return u32_of_int(static_cast<s64>(value));
}

float bits_float(u32 bits) { return std::bit_cast<float>(bits); }

} // namespace

std::uint64_t apply_floating(Op op, const std::uint64_t* v) {
  const u32 a = static_cast<u32>(v[0]);
  const u32 b = static_cast<u32>(v[1]);
  const u32 c = static_cast<u32>(v[2]);
  switch (op) {
  // (a & 0xffff) / 2^k and (short)a / 2^k are exact; the conversion truncates toward zero, as
  // integer division does.
  case Op::FDivPow2: return (a & 0xffffu) >> (b & 7u);
  case Op::FDivPow2S:
    return u32_of_int(static_cast<s32>(static_cast<std::int16_t>(a & 0xffffu)) / (s32{1} << (b & 7u)));
  case Op::FRcpPow2: return 1048576u >> (a & 15u);
  case Op::DRcpPow2: return u32_of_int(static_cast<s64>(as_s32(b)) / (s64{1} << (a & 31u)));
  case Op::FSqrtSquare: return a & 0xfffu;
  case Op::DSqrtSquare: return a & 0xffffffu;
  case Op::FLt: return int_float(a) < int_float(b) ? 1u : 0u;
  case Op::FEqU: return static_cast<float>(a) == static_cast<float>(b) ? 1u : 0u;
  case Op::DGeF: {
    const double half_b = static_cast<double>(as_s32(b)) * 0.5;
    return static_cast<double>(int_float(a)) >= half_b ? 1u : 0u;
  }
  case Op::FSel: {
    const float chosen = (c & 1u) != 0 ? int_float(a) * 0.5f : int_float(b) * 0.25f;
    return u32_of_int(static_cast<s32>(chosen));
  }
  case Op::DSel: {
    const double chosen = as_s32(c) < 0 ? static_cast<double>(as_s32(a)) * 0.25 : static_cast<double>(as_s32(b)) + 0.5;
    return u32_of_int(static_cast<s64>(chosen));
  }
  case Op::FAbsDiff: {
    const float halved = int_float(a) * 0.5f;
    const float difference = halved - static_cast<float>(b & 0xffffu);
    return u32_of_int(static_cast<s32>(std::fabs(difference)));
  }
  case Op::FNeg: {
    const float quotient = int_float(a) / static_cast<float>(2u << (b & 7u));
    return u32_of_int(static_cast<s32>(-quotient));
  }
  case Op::DAbs: return u32_of_int(static_cast<s64>(std::fabs(static_cast<double>(as_s32(a)) * 2.0)));
  case Op::FCopySign: {
    const s64 magnitude = a & 0xffffu;
    return u32_of_int(as_s32(b) < 0 ? -magnitude : magnitude);
  }
  case Op::FClassify: return (std::isnan(bits_float(a)) ? 1u : 0u) | (std::isinf(bits_float(b)) ? 2u : 0u);
  case Op::FFiniteSign: return (std::isfinite(bits_float(a)) ? 4u : 0u) | (std::signbit(bits_float(b)) ? 8u : 0u);
  case Op::FToIntClamp: return u32_of_int(static_cast<s32>(std::min(int_float(a), 2147483520.0f)));
  case Op::FToUIntClamp: return static_cast<u32>(std::min(static_cast<float>(a), 4294967040.0f));
  case Op::FToU64Clamp: {
    const float scaled = static_cast<float>(a) * 4294967296.0f;
    return static_cast<u64>(std::min(scaled, 18446742974197923840.0f));
  }
  case Op::DToS64: {
    const double twice = static_cast<double>(int_float(a)) * 2.0;
    return static_cast<u64>(static_cast<s64>(twice + static_cast<double>(as_s32(b))));
  }
  case Op::DToFloat: return u32_of_int(static_cast<s32>(static_cast<float>(static_cast<double>(as_s32(a)) * 0.5)));
  // Half and bfloat16: whole numbers small enough that every result is exact.
  case Op::HAdd:
    return whole(static_cast<float>(static_cast<s32>(a & 0x3ffu) - 512 + static_cast<s32>(b & 0x3ffu) - 512));
  case Op::HMul: return whole(static_cast<float>((static_cast<s32>(a & 31u) - 16) * (static_cast<s32>(b & 31u) - 16)));
  case Op::HFma:
    return whole(static_cast<float>(static_cast<s32>(a & 15u) * (static_cast<s32>(b & 31u) - 16) +
                                    static_cast<s32>(c & 0x3ffu)));
  case Op::HLt: return (a & 0x7ffu) < (b & 0x7ffu) ? 1u : 0u;
  case Op::HToFloat: return u32_of_int((static_cast<s32>(a & 0xfffu) - 2048) * 4);
  case Op::H2Add: {
    const u32 low = half_bits(static_cast<float>((a & 0x3ffu) + (b >> 22)));
    const u32 high = half_bits(static_cast<float>((b & 0x3ffu) + (a >> 22)));
    return low | high << 16;
  }
  case Op::BAdd: return whole(static_cast<float>(static_cast<s32>(a & 0x7fu) + static_cast<s32>(b & 0xffu) - 128));
  case Op::BMul: return whole(static_cast<float>(static_cast<s32>(a & 15u) * (static_cast<s32>(b & 31u) - 16)));
  case Op::BGt: return (a & 0xffu) > (b & 0xffu) ? 1u : 0u;
  case Op::B2Mul: {
    // Products in float keep the sign of a zero product (+0 times a negative is -0).
    const float low = static_cast<float>(a & 15u) * static_cast<float>(static_cast<s32>(b >> 28));
    const float high = static_cast<float>(static_cast<s32>(b & 15u) - 8) *
                       static_cast<float>(static_cast<s32>(a >> 28));
    return bfloat16_bits(low) | bfloat16_bits(high) << 16;
  }
  default: break;
  }
  throw Error(ErrorKind::internal, std::string("dense: no floating-point semantics for ") + info(op).name);
}

} // namespace cudiff::generator::dense
