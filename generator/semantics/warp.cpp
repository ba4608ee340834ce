// warp: shuffle lanes and warp reductions (generator/semantics/warp.h).
#include "generator/semantics/warp.h"

namespace cudiff::generator {

std::uint32_t shuffle_source_lane(ShuffleKind kind, std::uint32_t lane, std::uint32_t b, std::uint32_t width) {
  const std::uint32_t segment_mask = (kWarpLanes - width) & 31;
  const std::uint32_t clamp = kind == ShuffleKind::Up ? 0 : 31;
  const std::uint32_t bval = b & 31;
  const std::int64_t min_lane = lane & segment_mask;
  const std::int64_t max_lane = min_lane | (clamp & ~segment_mask & 31);
  std::int64_t j = lane;
  bool valid = true;
  switch (kind) {
  case ShuffleKind::Up:
    j = static_cast<std::int64_t>(lane) - bval;
    valid = j >= max_lane;
    break;
  case ShuffleKind::Down:
    j = static_cast<std::int64_t>(lane) + bval;
    valid = j <= max_lane;
    break;
  case ShuffleKind::Xor:
    j = lane ^ bval;
    valid = j <= max_lane;
    break;
  case ShuffleKind::Idx:
    j = min_lane | (bval & ~segment_mask & 31);
    valid = j <= max_lane;
    break;
  }
  return valid ? static_cast<std::uint32_t>(j) : lane;
}

Value combine(ReduceOp op, Value a, Value b) {
  const IntType type = a.type;
  switch (op) {
  case ReduceOp::Add: return Value::make_unsigned(type, a.bits + b.bits);
  case ReduceOp::And: return Value::make_unsigned(type, a.bits & b.bits);
  case ReduceOp::Or: return Value::make_unsigned(type, a.bits | b.bits);
  case ReduceOp::Xor: return Value::make_unsigned(type, a.bits ^ b.bits);
  case ReduceOp::Min:
    if (is_signed(type)) return b.as_signed() < a.as_signed() ? b : a;
    return b.bits < a.bits ? b : a;
  case ReduceOp::Max:
    if (is_signed(type)) return b.as_signed() > a.as_signed() ? b : a;
    return b.bits > a.bits ? b : a;
  }
  return a;
}

Value reduce_values(ReduceOp op, const std::vector<Value>& values) {
  Value acc = values.at(0);
  for (std::size_t i = 1; i < values.size(); ++i) acc = combine(op, acc, values[i]);
  return acc;
}

} // namespace cudiff::generator
