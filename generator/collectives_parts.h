// collectives_parts: the interpreter's semantics of the warp, tile and loop-atomic collectives
// (generator/collectives_warp.cpp), shared by the interpreter and its unit tests. Internal.
#pragma once

#include "generator/interpreter.h"

#include <vector>

namespace cudiff::generator {

/// The lane a shuffle reads, as PTX `shfl.sync` computes it with the `c` operand CUDA's
/// __shfl*_sync(mask, v, b, width) pass (segment mask 32 - width; clamp 31, or 0 for up): `b`
/// is the source lane (Idx), lane mask (Xor) or delta (Up, Down); a lane whose source falls
/// outside what PTX allows reads its own value. Idx reads lane `b mod width` of its own segment;
/// Xor reads `lane ^ b` unless that is in a later segment; Up and Down keep their own value when
/// the source leaves the segment.
std::uint32_t shuffle_source_lane(ShuffleKind kind, std::uint32_t lane, std::uint32_t b, std::uint32_t width);

/// The result of __reduce_<op>_sync or cg::reduce over `values` (all of one type): wrapping
/// addition, signed or unsigned minimum and maximum by the type, bitwise and/or/xor.
Value reduce_values(ReduceOp op, const std::vector<Value>& values);

/// Whether adding `values` in any order and grouping stays in range (a signed sum through
/// cg::plus is C++ addition: it must never overflow): the sum of their magnitudes fits.
bool sum_never_overflows(const std::vector<Value>& values);

/// One atomic update of a word of `word.type` by `value` (same type): wrapping add, bitwise
/// and/or/xor, signed or unsigned min/max. Every kind is commutative and associative, so the
/// final word does not depend on the order of the updates.
Value atomic_update(AtomicKind kind, Value word, Value value);
/// The word an AtomicLoop's shared word starts from: the identity of the update.
Value atomic_identity(AtomicKind kind, IntType type);

/// Runs WarpMatch, WarpReduce, Tile and AtomicLoop over the whole launch (envs in global-id
/// order); `values`: each thread's operand (empty for AtomicLoop, whose operand is evaluated
/// per iteration).
UB exec_new_collective(const Interpreter& interpreter, const Stmt& stmt, std::vector<Env>& envs,
                       const std::vector<Value>& values, const Launch& launch, OutputSink* sink);

} // namespace cudiff::generator
