// warp: the semantics of the warp collectives that more than one interpreter runs — which lane a
// shuffle reads and what a warp reduction yields — written once, so the core interpreter
// (generator/collectives/) and the compute-dense family's (generator/dense/) cannot drift.
#pragma once

#include "generator/semantics/values.h"

#include <cstdint>
#include <vector>

namespace cudiff::generator {

/// The lanes of a warp.
inline constexpr std::uint32_t kWarpLanes = 32;

/// __shfl_sync (Idx), __shfl_xor_sync, __shfl_up_sync, __shfl_down_sync.
enum class ShuffleKind : std::uint8_t { Idx, Xor, Up, Down };
/// The operation of __reduce_<op>_sync and of cg::reduce (plus, less, greater, bit_and...).
enum class ReduceOp : std::uint8_t { Add, Min, Max, And, Or, Xor };

/// The lane a shuffle reads, as PTX `shfl.sync` computes it with the `c` operand CUDA's
/// __shfl*_sync(mask, v, b, width) pass (segment mask 32 - width; clamp 31, or 0 for up): `b`
/// is the source lane (Idx), lane mask (Xor) or delta (Up, Down); a lane whose source falls
/// outside what PTX allows reads its own value. Idx reads lane `b mod width` of its own segment;
/// Xor reads `lane ^ b` unless that is in a later segment; Up and Down keep their own value when
/// the source leaves the segment.
std::uint32_t shuffle_source_lane(ShuffleKind kind, std::uint32_t lane, std::uint32_t b, std::uint32_t width);

/// One step of a reduction: wrapping addition, signed or unsigned minimum and maximum by the
/// type, bitwise and/or/xor (both values of one type).
Value combine(ReduceOp op, Value a, Value b);

/// The result of __reduce_<op>_sync or cg::reduce over `values` (all of one type, at least one).
Value reduce_values(ReduceOp op, const std::vector<Value>& values);

} // namespace cudiff::generator
