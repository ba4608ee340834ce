// dense_ops: the compute-dense family's operations — the table (from dense_ops.def), the
// variable types, and the exact value of every operation. This is the reference the
// interpreter predicts checksums with; tests/unit/generator/dense_ops_test.cpp checks it
// against the real operator on this host and tests/gpu against the GPU.
#include "generator/dense/dense.h"

#include "common/common.h"

#include <algorithm>
#include <bit>

namespace cudiff::generator::dense {
namespace {

using u32 = std::uint32_t;
using u64 = std::uint64_t;
using s32 = std::int32_t;
using s64 = std::int64_t;

u32 lane(u32 x, int width, int i) { return (x >> (width * i)) & ((1u << width) - 1u); }
s32 slane(u32 x, int width, int i) {
  const u32 v = lane(x, width, i);
  return static_cast<s32>(v << (32 - width)) >> (32 - width);
}

/// A per-lane SIMD operation over `lanes` lanes of 32 / lanes bits: f(lane, width) gives
/// each lane's value, truncated to the lane.
template <typename F>
u32 simd(int lanes, F f) {
  const int width = 32 / lanes;
  const u32 mask = (1u << width) - 1u;
  u32 result = 0;
  for (int i = 0; i < lanes; ++i) result |= (static_cast<u32>(f(i, width)) & mask) << (width * i);
  return result;
}

u32 compare_mask(bool yes, int width) { return yes ? (1u << width) - 1u : 0u; }

/// __byte_perm as the CUDA Math API documents it: each selector nibble's low 3 bits pick one
/// of the 8 bytes of {y, x}; bit 3 is ignored (unlike prmt.b32's sign replication; measured
/// on an H200 under nvcc and clang alike).
u32 byte_perm(u32 x, u32 y, u32 s) {
  const u64 bytes = (static_cast<u64>(y) << 32) | x;
  u32 result = 0;
  for (int n = 0; n < 4; ++n) {
    const u32 selector = (s >> (4 * n)) & 7u;
    result |= (static_cast<u32>(bytes >> (8 * selector)) & 0xffu) << (8 * n);
  }
  return result;
}

u32 funnel_left(u32 lo, u32 hi, u32 shift) {
  const u64 joined = (static_cast<u64>(hi) << 32) | lo;
  return static_cast<u32>((joined << shift) >> 32);
}
u32 funnel_right(u32 lo, u32 hi, u32 shift) {
  const u64 joined = (static_cast<u64>(hi) << 32) | lo;
  return static_cast<u32>(joined >> shift);
}

u32 brev32(u32 x) {
  u32 r = 0;
  for (int i = 0; i < 32; ++i) r |= ((x >> i) & 1u) << (31 - i);
  return r;
}
u64 brev64(u64 x) { return (static_cast<u64>(brev32(static_cast<u32>(x))) << 32) | brev32(static_cast<u32>(x >> 32)); }

u32 clz32(u32 x) { return x == 0 ? 32u : static_cast<u32>(std::countl_zero(x)); }
u32 ffs32(u32 x) { return x == 0 ? 0u : static_cast<u32>(std::countr_zero(x)) + 1u; }
u32 clz64(u64 x) { return x == 0 ? 64u : static_cast<u32>(std::countl_zero(x)); }
u32 ffs64(u64 x) { return x == 0 ? 0u : static_cast<u32>(std::countr_zero(x)) + 1u; }

/// Arithmetic right shift (what both compilers do for a negative signed operand).
s64 sar64(s64 x, unsigned n) { return x < 0 ? ~(~x >> n) : x >> n; }
s32 sar32(s32 x, unsigned n) { return x < 0 ? ~(~x >> n) : x >> n; }

u32 dp2a(u32 a, u32 b, u32 c, bool hi, bool is_signed) {
  u32 d = c;
  for (int i = 0; i < 2; ++i) {
    const int j = (hi ? 2 : 0) + i;
    const u32 va = is_signed ? static_cast<u32>(slane(a, 16, i)) : lane(a, 16, i);
    const u32 vb = is_signed ? static_cast<u32>(slane(b, 8, j)) : lane(b, 8, j);
    d += va * vb;
  }
  return d;
}

u32 dp4a(u32 a, u32 b, u32 c, bool is_signed) {
  u32 d = c;
  for (int i = 0; i < 4; ++i)
    d += is_signed ? static_cast<u32>(slane(a, 8, i)) * static_cast<u32>(slane(b, 8, i))
                   : lane(a, 8, i) * lane(b, 8, i);
  return d;
}

u32 abs_diff(u32 a, u32 b) { return a > b ? a - b : b - a; }

/// (int)x: the modular conversion both compilers implement.
s32 as_s32(u64 x) { return static_cast<s32>(static_cast<u32>(x)); }
s64 as_s64(u64 x) { return static_cast<s64>(x); }

const std::vector<OpInfo>& build_table() {
  static const std::vector<OpInfo> table = {
#define DENSE_OP(name, family, result64, args, text) {Op::name, #name, family, result64, args, text},
#include "generator/dense/dense_ops.def"
#undef DENSE_OP
  };
  return table;
}

} // namespace

const char* type_name(VarType type) {
  switch (type) {
  case VarType::u8: return "unsigned char";
  case VarType::s8: return "signed char";
  case VarType::u16: return "unsigned short";
  case VarType::s16: return "short";
  case VarType::u32: return "unsigned int";
  case VarType::s32: return "int";
  case VarType::u64: return "unsigned long long";
  case VarType::s64: return "long long";
  }
  return "?";
}

int bits_of(VarType type) {
  switch (type) {
  case VarType::u8:
  case VarType::s8: return 8;
  case VarType::u16:
  case VarType::s16: return 16;
  case VarType::u32:
  case VarType::s32: return 32;
  case VarType::u64:
  case VarType::s64: return 64;
  }
  return 32;
}

bool is_signed(VarType type) {
  return type == VarType::s8 || type == VarType::s16 || type == VarType::s32 || type == VarType::s64;
}

std::uint64_t narrow(VarType type, std::uint64_t value) {
  const int bits = bits_of(type);
  return bits == 64 ? value : value & ((1ull << bits) - 1ull);
}

std::uint64_t widen(VarType type, std::uint64_t bits, bool wide) {
  const int width = bits_of(type);
  std::uint64_t value = narrow(type, bits);
  if (is_signed(type) && width < 64 && ((value >> (width - 1)) & 1u)) value |= ~0ull << width;
  return wide ? value : value & 0xffffffffull;
}

const std::vector<OpInfo>& op_table() { return build_table(); }

const OpInfo& info(Op op) { return op_table()[static_cast<std::size_t>(op)]; }

std::uint32_t input_word(std::uint32_t salt, std::uint32_t index) {
  // cudiff_input(index, salt, 0) of the program's preamble, truncated to unsigned int.
  std::uint64_t x = (index + 1ull) * 0x9E3779B97F4A7C15ull ^ salt;
  x ^= x >> 29;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 32;
  return static_cast<std::uint32_t>(x);
}

std::uint64_t apply(Op op, const std::uint64_t* v) {
  const u32 a = static_cast<u32>(v[0]);
  auto arg32 = [v](int i) { return static_cast<u32>(v[i]); };
  switch (op) {
  case Op::Add: return u32(a + arg32(1));
  case Op::Sub: return u32(a - arg32(1));
  case Op::Mul: return u32(a * arg32(1));
  case Op::Xor: return a ^ arg32(1);
  case Op::And: return a & arg32(1);
  case Op::Or: return a | arg32(1);
  case Op::Not: return u32(~a);
  case Op::Neg: return u32(0u - a);
  case Op::Shl: return u32(a << (arg32(1) & 31u));
  case Op::Shr: return a >> (arg32(1) & 31u);
  case Op::Sar: return u32(sar32(as_s32(a), arg32(1) & 31u));
  case Op::Rotl: {
    const u32 n = arg32(1) & 31u;
    return u32((a << n) | (a >> ((32u - n) & 31u)));
  }
  case Op::UDiv: return a / (arg32(1) | 1u);
  case Op::URem: return a % (arg32(1) | 1u);
  case Op::SDiv: return u32(as_s32(a) / static_cast<s32>((arg32(1) & 0xffffu) | 1u));
  case Op::SRem: return u32(as_s32(a) % static_cast<s32>((arg32(1) & 0xffffu) | 1u));
  case Op::MulAdd: return u32(a * arg32(1) + arg32(2));
  case Op::ULt: return a < arg32(1);
  case Op::ULe: return a <= arg32(1);
  case Op::Eq: return a == arg32(1);
  case Op::Ne: return a != arg32(1);
  case Op::SLt: return as_s32(a) < as_s32(arg32(1));
  case Op::SGe: return as_s32(a) >= as_s32(arg32(1));
  case Op::Select: return a != 0 ? arg32(1) : arg32(2);
  case Op::SelectLt: return a < arg32(1) ? arg32(2) : arg32(3);
  case Op::SelectSLt: return as_s32(a) < as_s32(arg32(1)) ? arg32(2) : arg32(3);
  case Op::SelectChain: return a < arg32(1) ? arg32(2) : a < arg32(3) ? arg32(4) : arg32(1);
  case Op::UMin: return std::min(a, arg32(1));
  case Op::UMax: return std::max(a, arg32(1));
  case Op::SMin: return u32(std::min(as_s32(a), as_s32(arg32(1))));
  case Op::SMax: return u32(std::max(as_s32(a), as_s32(arg32(1))));
  case Op::MixLt: return static_cast<s64>(as_s32(a)) < static_cast<s64>(arg32(1));
  case Op::MixGt64: return static_cast<s64>(slane(a, 16, 0)) > static_cast<s64>(lane(arg32(1), 16, 0));
  case Op::MixULt: return static_cast<u32>(slane(a, 8, 0)) < arg32(1);
  case Op::SExt8: return u32(slane(a, 8, 0));
  case Op::SExt16: return u32(slane(a, 16, 0));
  case Op::ZExt8: return a & 0xffu;
  case Op::ZExt16: return a & 0xffffu;
  case Op::Add8: return (a + arg32(1)) & 0xffu;
  case Op::Mul8: return (lane(a, 8, 0) * lane(arg32(1), 8, 0)) & 0xffu;
  case Op::SMul8: return u32(slane(u32(slane(a, 8, 0) * slane(arg32(1), 8, 0)), 8, 0));
  case Op::Sub8: return u32(slane(u32(slane(a, 8, 0) - slane(arg32(1), 8, 0)), 8, 0));
  case Op::Shr8: return u32(sar32(slane(a, 8, 0), arg32(1) & 7u));
  case Op::Add16: return (a + arg32(1)) & 0xffffu;
  case Op::Mul16: return (lane(a, 16, 0) * lane(arg32(1), 16, 0)) & 0xffffu;
  case Op::SMul16: return u32(slane(u32(slane(a, 16, 0) * slane(arg32(1), 16, 0)), 16, 0));
  case Op::Sub16: return u32(slane(u32(slane(a, 16, 0) - slane(arg32(1), 16, 0)), 16, 0));
  case Op::Shr16: return u32(sar32(slane(a, 16, 0), arg32(1) & 15u));
  case Op::Xor16: return (lane(a, 16, 0) ^ (lane(arg32(1), 16, 0) >> 3)) & 0xffffu;
  case Op::BfExtract: return (a >> (arg32(1) & 31u)) & u32((1u << (arg32(2) & 31u)) - 1u);
  case Op::BfExtractS: return u32(sar32(as_s32(u32(a << (arg32(1) & 15u))), 16));
  case Op::BfInsert: {
    const u32 mask = u32((1u << (arg32(2) & 15u)) - 1u), at = arg32(3) & 15u;
    return u32((a & ~(mask << at)) | ((arg32(1) & mask) << at));
  }
  case Op::ByteSwap: return u32((a >> 24) | ((a >> 8) & 0xff00u) | ((a << 8) & 0xff0000u) | (a << 24));
  case Op::BytePerm: return byte_perm(a, arg32(1), arg32(2));
  case Op::FunnelL: return funnel_left(a, arg32(1), arg32(2) & 31u);
  case Op::FunnelR: return funnel_right(a, arg32(1), arg32(2) & 31u);
  case Op::FunnelLc: return funnel_left(a, arg32(1), std::min(arg32(2), 32u));
  case Op::FunnelRc: return funnel_right(a, arg32(1), std::min(arg32(2), 32u));
  case Op::Brev: return brev32(a);
  case Op::Popc: return static_cast<u32>(std::popcount(a));
  case Op::Clz: return clz32(a);
  case Op::Ffs: return ffs32(a);
  case Op::MulHi: return u32(static_cast<u64>(static_cast<s64>(as_s32(a)) * as_s32(arg32(1))) >> 32);
  case Op::UMulHi: return u32((static_cast<u64>(a) * arg32(1)) >> 32);
  case Op::Hadd: return u32(sar64(static_cast<s64>(as_s32(a)) + as_s32(arg32(1)), 1));
  case Op::RHadd: return u32(sar64(static_cast<s64>(as_s32(a)) + as_s32(arg32(1)) + 1, 1));
  case Op::UHadd: return u32((static_cast<u64>(a) + arg32(1)) >> 1);
  case Op::URHadd: return u32((static_cast<u64>(a) + arg32(1) + 1) >> 1);
  case Op::Sad: {
    const s64 d = static_cast<s64>(as_s32(a)) - as_s32(arg32(1));
    return u32(static_cast<u32>(d < 0 ? -d : d) + arg32(2));
  }
  case Op::USad: return u32(abs_diff(a, arg32(1)) + arg32(2));
  case Op::Dp4a: return dp4a(a, arg32(1), arg32(2), true);
  case Op::UDp4a: return dp4a(a, arg32(1), arg32(2), false);
  case Op::Dp2aLo: return dp2a(a, arg32(1), arg32(2), false, true);
  case Op::UDp2aHi: return dp2a(a, arg32(1), arg32(2), true, false);
  case Op::VAdd2:
  case Op::VAdd4:
  case Op::VSub2:
  case Op::VSub4:
  case Op::VAbsDiffU2:
  case Op::VAbsDiffU4:
  case Op::VAbsDiffS4:
  case Op::VCmpGeU2:
  case Op::VCmpGeU4:
  case Op::VCmpEq4:
  case Op::VCmpLtS2:
  case Op::VMaxU4:
  case Op::VMinU4:
  case Op::VMaxS2:
  case Op::VMinS4:
  case Op::VAvgU4:
  case Op::VHaddU4: {
    const u32 b = arg32(1);
    const bool two = op == Op::VAdd2 || op == Op::VSub2 || op == Op::VAbsDiffU2 || op == Op::VCmpGeU2 ||
                     op == Op::VCmpLtS2 || op == Op::VMaxS2;
    return simd(two ? 2 : 4, [&](int i, int w) -> u32 {
      const u32 x = lane(a, w, i), y = lane(b, w, i);
      const s32 sx = slane(a, w, i), sy = slane(b, w, i);
      switch (op) {
      case Op::VAdd2:
      case Op::VAdd4: return x + y;
      case Op::VSub2:
      case Op::VSub4: return x - y;
      case Op::VAbsDiffU2:
      case Op::VAbsDiffU4: return abs_diff(x, y);
      case Op::VAbsDiffS4: return static_cast<u32>(sx > sy ? sx - sy : sy - sx);
      case Op::VCmpGeU2:
      case Op::VCmpGeU4: return compare_mask(x >= y, w);
      case Op::VCmpEq4: return compare_mask(x == y, w);
      case Op::VCmpLtS2: return compare_mask(sx < sy, w);
      case Op::VMaxU4: return std::max(x, y);
      case Op::VMinU4: return std::min(x, y);
      case Op::VMaxS2: return static_cast<u32>(std::max(sx, sy));
      case Op::VMinS4: return static_cast<u32>(std::min(sx, sy));
      case Op::VAvgU4: return (x + y + 1) >> 1;
      case Op::VHaddU4: return (x + y) >> 1;
      default: throw Error(ErrorKind::internal, std::string("dense: no SIMD semantics for ") + info(op).name);
      }
    });
  }
  case Op::Add64: return v[0] + v[1];
  case Op::Sub64: return v[0] - v[1];
  case Op::Mul64: return v[0] * v[1];
  case Op::Xor64: return v[0] ^ v[1];
  case Op::And64: return v[0] & v[1];
  case Op::Or64: return v[0] | v[1];
  case Op::Shl64: return v[0] << (arg32(1) & 63u);
  case Op::Shr64: return v[0] >> (arg32(1) & 63u);
  case Op::Sar64: return static_cast<u64>(sar64(as_s64(v[0]), arg32(1) & 63u));
  case Op::MulAdd64: return v[0] * v[1] + v[2];
  case Op::UDiv64: return v[0] / (v[1] | 1ull);
  case Op::SMin64: return static_cast<u64>(std::min(as_s64(v[0]), as_s64(v[1])));
  case Op::UMax64: return std::max(v[0], v[1]);
  case Op::Make64: return (static_cast<u64>(a) << 32) | arg32(1);
  case Op::ZExt64: return a;
  case Op::SExt64: return static_cast<u64>(static_cast<s64>(as_s32(a)));
  case Op::Lo32: return static_cast<u32>(v[0]);
  case Op::Hi32: return static_cast<u32>(v[0] >> 32);
  case Op::CarryOut64: return v[0] + v[1] < v[0];
  case Op::AddCarry64: return v[0] + v[1] + (arg32(2) & 1u);
  case Op::Popcll: return static_cast<u32>(std::popcount(v[0]));
  case Op::Clzll: return clz64(v[0]);
  case Op::Ffsll: return ffs64(v[0]);
  case Op::Brevll: return brev64(v[0]);
  case Op::Mul64Hi: return static_cast<u64>(static_cast<__int128>(as_s64(v[0])) * as_s64(v[1]) >> 64);
  case Op::UMul64Hi: return static_cast<u64>((static_cast<unsigned __int128>(v[0]) * v[1]) >> 64);
  case Op::MulWide: return static_cast<u64>(a) * arg32(1);
  case Op::SMulWide: return static_cast<u64>(static_cast<s64>(as_s32(a)) * as_s32(arg32(1)));
  case Op::MulHi128: return static_cast<u64>((static_cast<unsigned __int128>(v[0]) * v[1]) >> 64);
  case Op::SMulHi128: return static_cast<u64>(static_cast<__int128>(as_s64(v[0])) * as_s64(v[1]) >> 64);
  case Op::Carry128: return static_cast<u64>((static_cast<unsigned __int128>(v[0]) + v[1] + (arg32(2) & 1u)) >> 64);
  case Op::MulAddLo128: return v[0] * v[1] + v[2];
  case Op::Shift128: {
    const unsigned __int128 joined = (static_cast<unsigned __int128>(v[0]) << 64) | v[1];
    return static_cast<u64>(joined >> (arg32(2) & 127u));
  }
  case Op::FDivPow2:
  case Op::FDivPow2S:
  case Op::FRcpPow2:
  case Op::DRcpPow2:
  case Op::FSqrtSquare:
  case Op::DSqrtSquare:
  case Op::FLt:
  case Op::FEqU:
  case Op::DGeF:
  case Op::FSel:
  case Op::DSel:
  case Op::FAbsDiff:
  case Op::FNeg:
  case Op::DAbs:
  case Op::FCopySign:
  case Op::FClassify:
  case Op::FFiniteSign:
  case Op::FToIntClamp:
  case Op::FToUIntClamp:
  case Op::FToU64Clamp:
  case Op::DToS64:
  case Op::DToFloat:
  case Op::HAdd:
  case Op::HMul:
  case Op::HFma:
  case Op::HLt:
  case Op::HToFloat:
  case Op::H2Add:
  case Op::BAdd:
  case Op::BMul:
  case Op::BGt:
  case Op::B2Mul: return apply_floating(op, v);
  case Op::Shl64Min: return v[0] << std::min(arg32(1) & 0xffu, 63u);
  case Op::Shr64Sub: return v[0] >> (63u - (arg32(1) & 63u));
  case Op::Sar64Rem: return static_cast<u64>(sar64(as_s64(v[0]), arg32(1) % 61u + 2u));
  case Op::MulWideSU: return static_cast<u64>(static_cast<s64>(as_s32(a)) * static_cast<s64>(arg32(1)));
  case Op::MulHiSU: return u32(static_cast<u64>(static_cast<s64>(as_s32(a)) * static_cast<s64>(arg32(1))) >> 32);
  case Op::MulWideS16U: return u32(static_cast<s32>(slane(a, 16, 0)) * static_cast<s32>(lane(arg32(1), 16, 0)));
  case Op::SDiv64: return static_cast<u64>(as_s64(v[0]) / static_cast<s64>((v[1] & 0xffffffffull) | 1ull));
  case Op::SRem64: return static_cast<u64>(as_s64(v[0]) % static_cast<s64>((v[1] >> 20) | 1ull));
  case Op::URem64: return v[0] % (v[1] | 1ull);
  case Op::UDiv64By32: return v[0] / static_cast<u64>(arg32(1) | 1u);
  case Op::FpMulAdd: return u32(static_cast<u64>(a & 0xffffu) * (arg32(1) & 0xffffu) + (arg32(2) & 0xfffffu));
  case Op::FpMulF: return (a & 0xfffu) * (arg32(1) & 0xfffu) + (arg32(2) & 0xffu);
  case Op::FpMax: return std::max(a & 0xffffu, arg32(1) & 0xffffu);
  case Op::FpSub: {
    // a - b/2 exactly, truncated toward zero: 2a - b is exact in 64 bits.
    const s64 twice = 2 * static_cast<s64>(as_s32(a)) - static_cast<s64>(arg32(1) & 0x7fffffffu);
    return u32(static_cast<u64>(twice / 2));
  }
  }
  throw Error(ErrorKind::internal, "dense: an operation without semantics");
}

} // namespace cudiff::generator::dense
