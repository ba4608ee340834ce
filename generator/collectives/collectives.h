// collectives: the interpreter's semantics of the warp, tile and loop-atomic collectives
// (generator/collectives/collectives_warp.cpp), shared by the interpreter and its unit tests. Internal.
#pragma once

#include "generator/core/interpreter.h"
#include "generator/semantics/warp.h"

#include <vector>

namespace cudiff::generator {

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
