// collectives: the interpreter's semantics of barriers with shared-memory exchange, warp
// shuffles and votes, __syncthreads_count/_and/_or and atomic reductions, over a whole launch.
#include "generator/collectives/collectives.h"

#include "common/common.h"

#include <algorithm>

namespace cudiff::generator {
namespace {

std::uint32_t exchange_partner(const Stmt& stmt, std::uint32_t t, std::uint32_t per_block) {
  if (stmt.warp_scope) {
    const std::uint32_t base = t & ~(kWarpLanes - 1);
    const std::uint32_t lane = stmt.rotate ? (t + stmt.param) & (kWarpLanes - 1) : (t ^ stmt.param) & (kWarpLanes - 1);
    return base | lane;
  }
  return stmt.rotate ? (t + stmt.param) & (per_block - 1) : (t ^ stmt.param) & (per_block - 1);
}

std::uint64_t atomic_combine(AtomicKind kind, std::uint64_t a, std::uint64_t b) {
  switch (kind) {
  case AtomicKind::Add: return a + b;
  case AtomicKind::And: return a & b;
  case AtomicKind::Or: return a | b;
  case AtomicKind::Xor: return a ^ b;
  case AtomicKind::Min: return std::min(a, b);
  case AtomicKind::Max: return std::max(a, b);
  }
  return a;
}

} // namespace

UB Interpreter::exec_collective(const Stmt& stmt, std::vector<Env>& envs, const Launch& launch,
                                OutputSink* sink) const {
  for (const Env& env : envs)
    if (env.returned) throw Error(ErrorKind::internal, "a collective after a thread returned");
  std::vector<Value> values(envs.size());
  // An atomic loop's operand reads the loop variable: it is evaluated per iteration.
  if (stmt.kind == StmtKind::AtomicLoop) return exec_new_collective(*this, stmt, envs, {}, launch, sink);
  for (std::size_t i = 0; i < envs.size(); ++i) {
    if (stmt.var >= 0 && envs[i].vars.size() <= static_cast<std::size_t>(stmt.var)) envs[i].vars.resize(stmt.var + 1);
    Outcome value = eval(*stmt.expr, envs[i]);
    if (!value.ok()) return value.ub;
    values[i] = value.value;
  }
  const std::uint32_t per_block = launch.threads_per_block();
  switch (stmt.kind) {
  case StmtKind::Exchange:
    for (std::size_t i = 0; i < envs.size(); ++i) {
      const std::uint32_t t = envs[i].thread->linear_tid;
      const std::size_t partner = i - t + exchange_partner(stmt, t, per_block);
      envs[i].vars[stmt.var] = convert(values[partner], stmt.target_type);
    }
    return UB::None;
  case StmtKind::Shuffle: {
    std::vector<Value> results(envs.size());
    for (std::size_t i = 0; i < envs.size(); ++i) {
      const std::uint32_t lane = envs[i].thread->linear_tid % kWarpLanes;
      std::uint32_t b = stmt.param;
      if (stmt.lane) {  // a computed source lane: __shfl_sync takes it as an int
        Outcome source = eval(*stmt.lane, envs[i]);
        if (!source.ok()) return source.ub;
        b = static_cast<std::uint32_t>(convert(source.value, IntType::Int).bits);
      }
      results[i] = values[i - lane + shuffle_source_lane(stmt.shuffle, lane, b, stmt.width)];
    }
    // Assigned after every lane has read: a lane expression may read the result's variable.
    for (std::size_t i = 0; i < envs.size(); ++i) envs[i].vars[stmt.var] = convert(results[i], stmt.target_type);
    return UB::None;
  }
  case StmtKind::Vote:
    for (std::size_t base = 0; base < envs.size(); base += kWarpLanes) {
      std::uint32_t ballot = 0;
      for (std::uint32_t lane = 0; lane < kWarpLanes; ++lane)
        if (values[base + lane].bits != 0) ballot |= 1u << lane;
      Value result = stmt.vote == VoteKind::Ballot ? Value{IntType::UInt, ballot}
                     : stmt.vote == VoteKind::All  ? Value{IntType::Bool, ballot == 0xffffffffu ? 1u : 0u}
                                                   : Value{IntType::Bool, ballot != 0 ? 1u : 0u};
      for (std::uint32_t lane = 0; lane < kWarpLanes; ++lane)
        envs[base + lane].vars[stmt.var] = convert(result, stmt.target_type);
    }
    return UB::None;
  case StmtKind::SyncCount:
    for (std::size_t base = 0; base < envs.size(); base += per_block) {
      std::uint32_t count = 0;
      for (std::uint32_t t = 0; t < per_block; ++t) count += values[base + t].bits != 0 ? 1 : 0;
      Value result = stmt.sync_count == SyncCountKind::Count ? Value{IntType::Int, count}
                     : stmt.sync_count == SyncCountKind::And ? Value{IntType::Bool, count == per_block ? 1u : 0u}
                                                             : Value{IntType::Bool, count != 0 ? 1u : 0u};
      for (std::uint32_t t = 0; t < per_block; ++t) envs[base + t].vars[stmt.var] = convert(result, stmt.target_type);
    }
    return UB::None;
  case StmtKind::Atomic:
    if (sink) {
      std::uint64_t& word = sink->words[std::size_t{launch.threads()} * sink->slots + stmt.slot];
      for (const Value& value : values) word = atomic_combine(stmt.atomic, word, convert(value, IntType::ULLong).bits);
    }
    return UB::None;
  case StmtKind::WarpMatch:
  case StmtKind::WarpReduce:
  case StmtKind::Tile: return exec_new_collective(*this, stmt, envs, values, launch, sink);
  default: break;
  }
  throw Error(ErrorKind::internal, "exec_collective on a statement that is not collective");
}

Interpreter::KernelRun Interpreter::run(const Kernel& kernel) const {
  KernelRun run;
  const std::vector<ThreadCtx> threads = make_threads(kernel.launch);
  std::vector<Env> envs = kernel_envs(kernel, threads);
  OutputSink sink;
  sink.slots = static_cast<std::uint32_t>(kernel.slots);
  sink.words.assign(kernel.output_words(), 0);
  sink.writer.assign(kernel.output_words(), -1);
  for (std::size_t r = 0; r < kernel.reductions.size(); ++r)
    sink.words[std::size_t{kernel.launch.threads()} * kernel.slots + r] = reduction_identity(kernel.reductions[r]);
  for (std::size_t s = 0; s < kernel.body.size() && run.ub == UB::None; ++s) {
    const Stmt& stmt = kernel.body[s];
    if (is_collective(stmt.kind)) {
      run.ub = exec_collective(stmt, envs, kernel.launch, &sink);
      if (run.ub != UB::None)
        run.problem = kernel.name + ": " + to_string(run.ub) + " in top-level statement " + std::to_string(s);
      continue;
    }
    for (Env& env : envs) {
      if (env.returned) continue;
      run.ub = exec(stmt, env, &sink);
      if (run.ub != UB::None) {
        run.problem = kernel.name + ": " + to_string(run.ub) + " in top-level statement " + std::to_string(s) +
                      " on thread " + std::to_string(env.thread->global_id);
        break;
      }
    }
  }
  if (run.problem.empty() && !sink.race.empty()) run.problem = kernel.name + ": " + sink.race;
  run.words = std::move(sink.words);
  run.checksum = fold_checksum(run.words);
  return run;
}

} // namespace cudiff::generator
