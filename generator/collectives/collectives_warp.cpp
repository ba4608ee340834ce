// collectives_warp: the interpreter's semantics of __match_any/all_sync, __reduce_*_sync,
// cooperative-groups tiles (shfl, shfl_xor, any, all, ballot, cg::reduce) and atomics in loops
// (shared and global words), over a whole launch. The older collectives: collectives.cpp.
#include "generator/collectives/collectives.h"

#include "common/common.h"

#include <algorithm>

namespace cudiff::generator {
namespace {

ReduceOp reduce_op_of(AtomicKind kind) {
  switch (kind) {
  case AtomicKind::Add: return ReduceOp::Add;
  case AtomicKind::And: return ReduceOp::And;
  case AtomicKind::Or: return ReduceOp::Or;
  case AtomicKind::Xor: return ReduceOp::Xor;
  case AtomicKind::Min: return ReduceOp::Min;
  case AtomicKind::Max: return ReduceOp::Max;
  }
  return ReduceOp::Add;
}

void set(Env& env, int var, Value value) {
  if (var < 0) return;
  if (env.vars.size() <= static_cast<std::size_t>(var)) env.vars.resize(var + 1);
  env.vars[var] = value;
}

/// Tile statements: each group of `width` consecutive thread ranks is one tile.
UB exec_tile(const Interpreter& interpreter, const Stmt& stmt, std::vector<Env>& envs,
             const std::vector<Value>& values) {
  const std::uint32_t n = stmt.width;
  std::vector<Value> result(envs.size());
  for (std::size_t base = 0; base < envs.size(); base += n) {
    std::uint32_t ballot = 0;
    std::vector<Value> tile(values.begin() + base, values.begin() + base + n);
    for (std::uint32_t r = 0; r < n; ++r)
      if (values[base + r].bits != 0) ballot |= 1u << r;
    for (std::uint32_t r = 0; r < n; ++r) {
      const std::size_t i = base + r;
      const std::uint32_t lane = envs[i].thread->linear_tid % kWarpLanes;
      switch (stmt.tile) {
      case TileOp::Shfl:
      case TileOp::ShflXor: {
        std::uint32_t b = stmt.param;
        if (stmt.lane) {
          Outcome source = interpreter.eval(*stmt.lane, envs[i]);
          if (!source.ok()) return source.ub;
          b = static_cast<std::uint32_t>(convert(source.value, IntType::Int).bits);
        }
        const ShuffleKind kind = stmt.tile == TileOp::Shfl ? ShuffleKind::Idx : ShuffleKind::Xor;
        result[i] = values[i - lane + shuffle_source_lane(kind, lane, b, n)];
        break;
      }
      case TileOp::Any: result[i] = Value{IntType::Bool, ballot != 0 ? 1u : 0u}; break;
      case TileOp::All: result[i] = Value{IntType::Bool, ballot == (n == 32 ? ~0u : (1u << n) - 1) ? 1u : 0u}; break;
      case TileOp::Ballot: result[i] = Value{IntType::UInt, ballot}; break;
      case TileOp::Reduce:
        // cg::plus on a signed type is C++ addition in some reduction order.
        if (stmt.reduce == ReduceOp::Add && !sum_never_overflows(tile)) return UB::SignedOverflow;
        result[i] = reduce_values(stmt.reduce, tile);
        break;
      }
    }
  }
  for (std::size_t i = 0; i < envs.size(); ++i) set(envs[i], stmt.var, convert(result[i], stmt.target_type));
  return UB::None;
}

/// The loop's updates of every thread, in any order: the word's final value (the updates
/// commute). `word` starts as the identity (shared) or the sink's word (global).
UB exec_atomic_loop(const Interpreter& interpreter, const Stmt& stmt, std::vector<Env>& envs, const Launch& launch,
                    OutputSink* sink) {
  const std::uint32_t per_block = launch.threads_per_block();
  const bool shared = stmt.array >= 0;
  std::uint64_t* global_word = !shared && sink ? &sink->words[std::size_t{launch.threads()} * sink->slots + stmt.slot]
                                               : nullptr;
  Value word = global_word ? Value::make_unsigned(stmt.target_type, *global_word)
                           : atomic_identity(stmt.atomic, stmt.target_type);
  for (std::size_t i = 0; i < envs.size(); ++i) {
    if (shared && i % per_block == 0) word = atomic_identity(stmt.atomic, stmt.target_type);
    for (std::int64_t k = 0; k < stmt.trips; ++k) {
      set(envs[i], stmt.loop_var, Value::make(IntType::Int, stmt.start + k * stmt.step));
      Outcome value = interpreter.eval(*stmt.expr, envs[i]);
      if (!value.ok()) return value.ub;
      word = atomic_update(stmt.atomic, word, convert(value.value, stmt.target_type));
    }
    if (shared && i % per_block == per_block - 1)
      for (std::size_t t = i + 1 - per_block; t <= i; ++t) set(envs[t], stmt.var, word);
  }
  if (global_word) *global_word = word.bits;
  return UB::None;
}

} // namespace

bool sum_never_overflows(const std::vector<Value>& values) {
  if (values.empty() || !is_signed(values[0].type)) return true;
  const std::uint64_t limit = static_cast<std::uint64_t>(max_value(values[0].type).as_signed());
  std::uint64_t magnitude = 0;
  for (const Value& v : values) {
    const std::int64_t s = v.as_signed();
    const std::uint64_t m = s < 0 ? 0 - static_cast<std::uint64_t>(s) : static_cast<std::uint64_t>(s);
    if (m > limit - magnitude) return false;
    magnitude += m;
  }
  return true;
}

Value atomic_update(AtomicKind kind, Value word, Value value) { return combine(reduce_op_of(kind), word, value); }

Value atomic_identity(AtomicKind kind, IntType type) {
  switch (kind) {
  case AtomicKind::And: return Value::make_unsigned(type, ~std::uint64_t{0});
  case AtomicKind::Min: return max_value(type);
  case AtomicKind::Max: return min_value(type);
  default: return Value::make(type, 0);
  }
}

UB exec_new_collective(const Interpreter& interpreter, const Stmt& stmt, std::vector<Env>& envs,
                       const std::vector<Value>& values, const Launch& launch, OutputSink* sink) {
  switch (stmt.kind) {
  case StmtKind::WarpMatch:
    for (std::size_t base = 0; base < envs.size(); base += kWarpLanes) {
      bool all_equal = true;
      for (std::uint32_t lane = 0; lane < kWarpLanes; ++lane) {
        std::uint32_t mask = 0;
        for (std::uint32_t other = 0; other < kWarpLanes; ++other)
          if (values[base + other].bits == values[base + lane].bits) mask |= 1u << other;
        all_equal = all_equal && mask == ~0u;
        if (stmt.match == MatchKind::Any)
          set(envs[base + lane], stmt.var, convert(Value{IntType::UInt, mask}, stmt.target_type));
      }
      if (stmt.match == MatchKind::All)
        for (std::uint32_t lane = 0; lane < kWarpLanes; ++lane) {
          set(envs[base + lane], stmt.var, convert(Value{IntType::UInt, all_equal ? ~0u : 0u}, stmt.target_type));
          set(envs[base + lane], stmt.pred_var, Value{IntType::Bool, all_equal ? 1u : 0u});
        }
    }
    return UB::None;
  case StmtKind::WarpReduce:
    for (std::size_t base = 0; base < envs.size(); base += kWarpLanes) {
      const std::vector<Value> warp(values.begin() + base, values.begin() + base + kWarpLanes);
      // The generator keeps a signed sum in range, as for cg::plus (stricter than redux.sync).
      if (stmt.reduce == ReduceOp::Add && !sum_never_overflows(warp)) return UB::SignedOverflow;
      const Value r = reduce_values(stmt.reduce, warp);
      for (std::uint32_t lane = 0; lane < kWarpLanes; ++lane)
        set(envs[base + lane], stmt.var, convert(r, stmt.target_type));
    }
    return UB::None;
  case StmtKind::Tile: return exec_tile(interpreter, stmt, envs, values);
  case StmtKind::AtomicLoop: return exec_atomic_loop(interpreter, stmt, envs, launch, sink);
  default: break;
  }
  throw Error(ErrorKind::internal, "exec_new_collective on a statement it does not run");
}

} // namespace cudiff::generator
