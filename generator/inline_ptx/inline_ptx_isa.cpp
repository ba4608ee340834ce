// inline_ptx: the semantics of each integer PTX instruction a block uses, written from the PTX
// ISA's pseudocode (PTX ISA 8.x, "Integer Arithmetic", "Logic and Shift", "Data Movement and
// Conversion", "Comparison and Selection", "SIMD Video" sections). docs/generator.md ("Inline
// PTX") says how each was checked.
#include "generator/inline_ptx/inline_ptx_parts.h"

#include <algorithm>
#include <bit>

namespace cudiff::generator::ptx::isa {

std::uint64_t mask(int bits) { return bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1; }

std::int64_t sign_extend(std::uint64_t value, int bits) {
  if (bits >= 64) return static_cast<std::int64_t>(value);
  const std::uint64_t sign = std::uint64_t{1} << (bits - 1);
  value &= mask(bits);
  return static_cast<std::int64_t>((value ^ sign) - sign);
}

std::uint32_t lop3(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t lut) {
  // immLut is F(0xF0, 0xCC, 0xAA): bit (a<<2 | b<<1 | c) of the table is the result bit.
  std::uint32_t result = 0;
  for (int i = 0; i < 32; ++i) {
    const unsigned index = (((a >> i) & 1u) << 2) | (((b >> i) & 1u) << 1) | ((c >> i) & 1u);
    result |= ((lut >> index) & 1u) << i;
  }
  return result;
}

std::uint64_t cnot(std::uint64_t a) { return a == 0 ? 1 : 0; }

std::uint64_t shl(int bits, std::uint64_t a, std::uint32_t amount) {
  // "Shift amounts greater than the register width N are clamped to N."
  if (amount >= static_cast<std::uint32_t>(bits)) return 0;
  return (a << amount) & mask(bits);
}

std::uint64_t shr(Type type, std::uint64_t a, std::uint32_t amount) {
  // Signed shifts fill with the sign bit, unsigned and untyped ones with 0; amounts clamp to N.
  const int bits = bits_of(type);
  const std::uint32_t n = std::min<std::uint32_t>(amount, static_cast<std::uint32_t>(bits));
  if (is_signed(type)) {
    const std::int64_t value = sign_extend(a, bits);
    return static_cast<std::uint64_t>(n >= 64 ? (value < 0 ? -1 : 0) : (value >> std::min<std::uint32_t>(n, 63))) &
           mask(bits);
  }
  return n >= static_cast<std::uint32_t>(bits) ? 0 : (a & mask(bits)) >> n;
}

std::uint32_t shf(bool left, bool clamp, std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  // n = clamp ? min(c, 32) : c & 0x1f over the 64-bit value {b, a}: shf.l keeps the upper 32
  // bits of the shifted value, shf.r the lower 32.
  const std::uint32_t n = clamp ? std::min<std::uint32_t>(c, 32) : (c & 0x1f);
  const std::uint64_t source = (std::uint64_t{b} << 32) | a;
  if (left) return static_cast<std::uint32_t>((source << n) >> 32);
  return static_cast<std::uint32_t>(source >> n);
}

std::uint32_t prmt(PrmtMode mode, std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  const std::uint64_t source = (std::uint64_t{b} << 32) | a;
  auto byte = [&](unsigned index) { return static_cast<std::uint32_t>((source >> (8 * index)) & 0xff); };
  std::uint32_t result = 0;
  if (mode == PrmtMode::generic) {
    // Four 4-bit selectors: 3 lsbs pick one of the 8 bytes, the msb replicates its sign bit.
    for (int i = 0; i < 4; ++i) {
      const unsigned selector = (c >> (4 * i)) & 0xf;
      std::uint32_t value = byte(selector & 7);
      if (selector & 8) value = (value & 0x80) ? 0xff : 0x00;
      result |= value << (8 * i);
    }
    return result;
  }
  // The ISA's table of the byte each result byte (d.b0..d.b3) takes, per mode and c[1:0].
  static const unsigned table[6][4][4] = {
      {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},  // f4e
      {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},  // b4e
      {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},  // rc8
      {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},  // ecl
      {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},  // ecr
      {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}},  // rc16
  };
  const auto& row = table[static_cast<int>(mode) - 1][c & 3];
  for (int i = 0; i < 4; ++i) result |= byte(row[i]) << (8 * i);
  return result;
}

std::uint64_t bfe(Type type, std::uint64_t a, std::uint32_t b, std::uint32_t c) {
  const int msb = bits_of(type) - 1;
  const std::uint32_t pos = b & 0xff, len = c & 0xff;
  auto bit = [&](std::uint32_t i) { return (a >> i) & 1; };
  const std::uint64_t sbit = (!is_signed(type) || len == 0) ? 0 : bit(std::min<std::uint32_t>(pos + len - 1, msb));
  std::uint64_t d = 0;
  for (std::uint32_t i = 0; i <= static_cast<std::uint32_t>(msb); ++i)
    d |= ((i < len && pos + i <= static_cast<std::uint32_t>(msb)) ? bit(pos + i) : sbit) << i;
  return d;
}

std::uint64_t bfi(int bits, std::uint64_t a, std::uint64_t b, std::uint32_t c, std::uint32_t d) {
  const std::uint32_t msb = static_cast<std::uint32_t>(bits - 1);
  const std::uint32_t pos = c & 0xff, len = d & 0xff;
  std::uint64_t f = b & mask(bits);
  for (std::uint32_t i = 0; i < len && pos + i <= msb; ++i) {
    const std::uint64_t bit = std::uint64_t{1} << (pos + i);
    f = ((a >> i) & 1) ? (f | bit) : (f & ~bit);
  }
  return f;
}

std::uint32_t bfind(Type type, bool shiftamt, std::uint64_t a) {
  const int msb = bits_of(type) - 1;
  a &= mask(msb + 1);
  if (is_signed(type) && ((a >> msb) & 1)) a = ~a & mask(msb + 1);
  std::uint32_t d = 0xffffffff;
  for (int i = msb; i >= 0; --i)
    if ((a >> i) & 1) {
      d = static_cast<std::uint32_t>(i);
      break;
    }
  if (shiftamt && d != 0xffffffff) d = static_cast<std::uint32_t>(msb) - d;
  return d;
}

std::uint64_t brev(int bits, std::uint64_t a) {
  std::uint64_t d = 0;
  for (int i = 0; i < bits; ++i) d |= ((a >> i) & 1) << (bits - 1 - i);
  return d;
}

std::uint32_t popc(std::uint64_t a) { return static_cast<std::uint32_t>(std::popcount(a)); }

std::uint32_t clz(int bits, std::uint64_t a) {
  a &= mask(bits);
  return static_cast<std::uint32_t>(std::countl_zero(a) - (64 - bits));
}

namespace {

// The double-width product of two values of the type, as a 128-bit pattern.
unsigned __int128 product(Type type, std::uint64_t a, std::uint64_t b) {
  const int bits = bits_of(type);
  if (is_signed(type))
    return static_cast<unsigned __int128>(static_cast<__int128>(sign_extend(a, bits)) *
                                          static_cast<__int128>(sign_extend(b, bits)));
  return static_cast<unsigned __int128>(a & mask(bits)) * static_cast<unsigned __int128>(b & mask(bits));
}

} // namespace

std::uint64_t mul_lo(Type type, std::uint64_t a, std::uint64_t b) {
  return static_cast<std::uint64_t>(product(type, a, b)) & mask(bits_of(type));
}

std::uint64_t mul_hi(Type type, std::uint64_t a, std::uint64_t b) {
  const int bits = bits_of(type);
  return static_cast<std::uint64_t>(product(type, a, b) >> bits) & mask(bits);
}

std::uint64_t mul_wide(Type type, std::uint64_t a, std::uint64_t b) {
  return static_cast<std::uint64_t>(product(type, a, b));
}

std::uint64_t min(Type type, std::uint64_t a, std::uint64_t b) {
  const int bits = bits_of(type);
  if (is_signed(type)) return sign_extend(a, bits) < sign_extend(b, bits) ? a & mask(bits) : b & mask(bits);
  return std::min(a & mask(bits), b & mask(bits));
}

std::uint64_t max(Type type, std::uint64_t a, std::uint64_t b) {
  const int bits = bits_of(type);
  if (is_signed(type)) return sign_extend(a, bits) > sign_extend(b, bits) ? a & mask(bits) : b & mask(bits);
  return std::max(a & mask(bits), b & mask(bits));
}

bool compare(CmpOp op, Type type, std::uint64_t a, std::uint64_t b) {
  const int bits = bits_of(type);
  a &= mask(bits);
  b &= mask(bits);
  const std::int64_t sa = sign_extend(a, bits), sb = sign_extend(b, bits);
  const bool sign = is_signed(type);
  switch (op) {
  case CmpOp::eq: return a == b;
  case CmpOp::ne: return a != b;
  case CmpOp::lt: return sign ? sa < sb : a < b;
  case CmpOp::le: return sign ? sa <= sb : a <= b;
  case CmpOp::gt: return sign ? sa > sb : a > b;
  case CmpOp::ge: return sign ? sa >= sb : a >= b;
  case CmpOp::lo: return a < b;
  case CmpOp::ls: return a <= b;
  case CmpOp::hi: return a > b;
  case CmpOp::hs: return a >= b;
  }
  return false;
}

std::uint64_t cvt(Type dtype, Type atype, std::uint64_t a, int register_bits) {
  const int source_bits = bits_of(atype), dest_bits = bits_of(dtype);
  // The source chopped to atype and extended by atype's signedness...
  const std::uint64_t wide = is_signed(atype) ? static_cast<std::uint64_t>(sign_extend(a, source_bits))
                                              : (a & mask(source_bits));
  // ...truncated to dtype, then extended to the register by dtype's signedness.
  const std::uint64_t value = wide & mask(dest_bits);
  const std::uint64_t extended = is_signed(dtype) ? static_cast<std::uint64_t>(sign_extend(value, dest_bits)) : value;
  return extended & mask(register_bits);
}

std::uint32_t video(VideoOp op, int lanes, Type dtype, Type atype, Type btype, bool sat, bool accumulate,
                    std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  // Default selectors: lane i of a against lane i of b; default mask: every lane.
  const int lane_bits = 32 / lanes;
  std::uint32_t merged = 0;
  std::int64_t sum = 0;
  for (int i = 0; i < lanes; ++i) {
    const std::uint64_t raw_a = (a >> (lane_bits * i)) & mask(lane_bits);
    const std::uint64_t raw_b = (b >> (lane_bits * i)) & mask(lane_bits);
    const std::int64_t va = is_signed(atype) ? sign_extend(raw_a, lane_bits) : static_cast<std::int64_t>(raw_a);
    const std::int64_t vb = is_signed(btype) ? sign_extend(raw_b, lane_bits) : static_cast<std::int64_t>(raw_b);
    std::int64_t t = 0;
    switch (op) {
    case VideoOp::add: t = va + vb; break;
    case VideoOp::sub: t = va - vb; break;
    case VideoOp::absdiff: t = va > vb ? va - vb : vb - va; break;
    case VideoOp::min: t = std::min(va, vb); break;
    case VideoOp::max: t = std::max(va, vb); break;
    }
    if (sat) {
      const std::int64_t low = is_signed(dtype) ? -(std::int64_t{1} << (lane_bits - 1)) : 0;
      const std::int64_t high = is_signed(dtype) ? (std::int64_t{1} << (lane_bits - 1)) - 1
                                                 : static_cast<std::int64_t>(mask(lane_bits));
      t = std::clamp(t, low, high);
    }
    sum += t;
    merged |= static_cast<std::uint32_t>(static_cast<std::uint64_t>(t) & mask(lane_bits)) << (lane_bits * i);
  }
  if (accumulate) return static_cast<std::uint32_t>(static_cast<std::uint64_t>(c) + static_cast<std::uint64_t>(sum));
  return merged;
}

Carried add_carry(int bits, std::uint64_t a, std::uint64_t b, bool carry_in) {
  const unsigned __int128 sum = static_cast<unsigned __int128>(a & mask(bits)) + (b & mask(bits)) + (carry_in ? 1 : 0);
  return Carried{static_cast<std::uint64_t>(sum) & mask(bits), static_cast<bool>((sum >> bits) & 1)};
}

Carried sub_borrow(int bits, std::uint64_t a, std::uint64_t b, bool borrow_in) {
  const unsigned __int128 subtrahend = static_cast<unsigned __int128>(b & mask(bits)) + (borrow_in ? 1 : 0);
  const unsigned __int128 minuend = a & mask(bits);
  return Carried{static_cast<std::uint64_t>(minuend - subtrahend) & mask(bits), minuend < subtrahend};
}

} // namespace cudiff::generator::ptx::isa
