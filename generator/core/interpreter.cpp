// interpreter: expression evaluation and per-thread statement execution over the IR.
#include "generator/core/interpreter.h"

#include "common/common.h"

namespace cudiff::generator {

std::string builtin_text(Builtin builtin) {
  static const char* const texts[] = {"threadIdx.x", "threadIdx.y", "threadIdx.z", "blockIdx.x",
                                      "blockIdx.y",  "blockIdx.z",  "blockDim.x",  "blockDim.y",
                                      "blockDim.z",  "gridDim.x",   "gridDim.y",   "gridDim.z"};
  return texts[static_cast<int>(builtin)];
}

std::uint64_t reduction_identity(AtomicKind kind) {
  return kind == AtomicKind::And || kind == AtomicKind::Min ? ~std::uint64_t{0} : 0;
}

std::uint64_t input_word(std::uint32_t index, std::uint32_t salt, std::uint32_t mode) {
  std::uint64_t x = (index + 1ull) * 0x9E3779B97F4A7C15ull ^ salt;
  x ^= x >> 29;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 32;
  if (mode == 1) return (x & 63) - 32;  // small values around zero
  if (mode == 2) return x & 0xffff;
  return x;
}

// Not common's fnv1a64: this mirrors cudiff_fold, the device-side text every program carries
// (emit_helpers.cpp), word by word and with that text's offset basis, so that the predicted
// checksum is the one the binary prints.
std::uint64_t fold_checksum(const std::vector<std::uint64_t>& words) {
  std::uint64_t hash = 1469598103934665603ull;
  for (std::uint64_t word : words) {
    hash ^= word;
    hash *= 1099511628211ull;
  }
  return hash;
}

bool is_collective(StmtKind kind) {
  return kind == StmtKind::Exchange || kind == StmtKind::Shuffle || kind == StmtKind::Vote ||
         kind == StmtKind::SyncCount || kind == StmtKind::Atomic || kind == StmtKind::WarpMatch ||
         kind == StmtKind::WarpReduce || kind == StmtKind::Tile || kind == StmtKind::AtomicLoop;
}

std::vector<ThreadCtx> make_threads(const Launch& launch) {
  std::vector<ThreadCtx> threads;
  const std::uint32_t per_block = launch.threads_per_block();
  for (std::uint32_t b = 0; b < launch.blocks(); ++b)
    for (std::uint32_t t = 0; t < per_block; ++t) {
      ThreadCtx ctx;
      for (int d = 0; d < 3; ++d) {
        ctx.block_dim[d] = launch.block[d];
        ctx.grid_dim[d] = launch.grid[d];
      }
      ctx.thread[0] = t % launch.block[0];
      ctx.thread[1] = (t / launch.block[0]) % launch.block[1];
      ctx.thread[2] = t / (launch.block[0] * launch.block[1]);
      ctx.block[0] = b % launch.grid[0];
      ctx.block[1] = (b / launch.grid[0]) % launch.grid[1];
      ctx.block[2] = b / (launch.grid[0] * launch.grid[1]);
      ctx.linear_tid = t;
      ctx.global_id = b * per_block + t;
      threads.push_back(ctx);
    }
  return threads;
}

std::vector<Env> kernel_envs(const Kernel& kernel, const std::vector<ThreadCtx>& threads) {
  std::vector<Env> envs(threads.size());
  for (std::size_t i = 0; i < threads.size(); ++i) {
    envs[i].thread = &threads[i];
    envs[i].vars.resize(kernel.vars.size());
    envs[i].vars[0] = Value{IntType::UInt, threads[i].linear_tid};
    envs[i].vars[1] = Value{IntType::UInt, threads[i].global_id};
    for (const ScalarParam& param : kernel.params) envs[i].vars[param.var] = param.value;
  }
  return envs;
}

Outcome Interpreter::eval(const Expr& expr, const Env& env) const {
  switch (expr.kind) {
  case ExprKind::Const:
  case ExprKind::Named: return {expr.constant};
  case ExprKind::Var: {
    if (expr.id < 0 || static_cast<std::size_t>(expr.id) >= env.vars.size() || !env.vars[expr.id])
      return {{}, UB::Uninitialized};
    return {*env.vars[expr.id]};
  }
  case ExprKind::Builtin: {
    const int index = static_cast<int>(expr.id);
    const ThreadCtx& t = *env.thread;
    const std::uint32_t* source = index < 3 ? t.thread : index < 6 ? t.block : index < 9 ? t.block_dim : t.grid_dim;
    return {Value{IntType::UInt, source[index % 3]}};
  }
  case ExprKind::Unary: {
    Outcome a = eval(*expr.kids[0], env);
    return a.ok() ? apply(expr.unary, a.value) : a;
  }
  case ExprKind::Binary: {
    Outcome a = eval(*expr.kids[0], env);
    if (!a.ok()) return a;
    Outcome b = eval(*expr.kids[1], env);
    if (!b.ok()) return b;
    return apply(expr.binary, a.value, b.value);
  }
  case ExprKind::Cond: {
    Outcome c = eval(*expr.kids[0], env);
    if (!c.ok()) return c;
    // Both arms must be defined (the generator's rule); the result is the chosen one.
    Outcome a = eval(*expr.kids[1], env);
    if (!a.ok()) return a;
    Outcome b = eval(*expr.kids[2], env);
    if (!b.ok()) return b;
    return {convert(c.value.bits != 0 ? a.value : b.value, expr.type)};
  }
  case ExprKind::Cast: {
    Outcome a = eval(*expr.kids[0], env);
    return a.ok() ? Outcome{convert(a.value, expr.type)} : a;
  }
  case ExprKind::Load: {
    Outcome index = eval(*expr.kids[0], env);
    if (!index.ok()) return index;
    const Array& array = program_.arrays[expr.id];
    const Value i = index.value;
    if (i.is_negative() || i.bits >= static_cast<std::uint64_t>(array.length) ||
        array.values.size() != static_cast<std::size_t>(array.length))
      return {{}, UB::OutOfBounds};
    return {array.values[i.bits]};
  }
  case ExprKind::Call: {
    std::vector<Value> args;
    for (const ExprP& kid : expr.kids) {
      Outcome arg = eval(*kid, env);
      if (!arg.ok()) return arg;
      args.push_back(arg.value);
    }
    return call(expr.id, args, *env.thread);
  }
  }
  return {{}, UB::Uninitialized};
}

Outcome Interpreter::call(int function, const std::vector<Value>& args, const ThreadCtx& thread) const {
  const Function& callee = program_.functions[function];
  Env frame;
  frame.thread = &thread;
  frame.vars.resize(callee.vars.size());
  for (int p = 0; p < callee.param_count; ++p) frame.vars[p] = convert(args[p], callee.vars[p].type);
  UB ub = exec(callee.body, frame, nullptr);
  if (ub != UB::None) return {{}, ub};
  Outcome result = eval(*callee.result_expr, frame);
  if (!result.ok()) return result;
  Value value = convert(result.value, callee.result);
  if (callee.recursive) {
    // f(args, d) = (R)(f(args, d - 1) ^ k) for d > 0; the body runs only at depth 0 and reads
    // nothing but its arguments, read-only arrays and built-ins, so it is the same value.
    const std::int64_t depth = args.size() > static_cast<std::size_t>(callee.param_count)
                                   ? args[callee.param_count].as_signed()
                                   : 0;
    if (depth > 4) return {{}, UB::OutOfBounds};
    for (std::int64_t d = 0; d < depth; ++d) {
      Outcome x = apply(BinaryOp::BitXor, value, callee.recursion_xor);
      if (!x.ok()) return x;
      value = convert(x.value, callee.result);
    }
  }
  return {value};
}

UB Interpreter::exec(const Block& block, Env& env, OutputSink* sink) const {
  for (const Stmt& stmt : block) {
    if (env.returned) return UB::None;
    UB ub = exec(stmt, env, sink);
    if (ub != UB::None) return ub;
  }
  return UB::None;
}

UB Interpreter::exec(const Stmt& stmt, Env& env, OutputSink* sink) const {
  switch (stmt.kind) {
  case StmtKind::Decl:
  case StmtKind::Assign: {
    if (env.vars.size() <= static_cast<std::size_t>(stmt.var)) env.vars.resize(stmt.var + 1);
    Outcome value = eval(*stmt.expr, env);
    if (!value.ok()) return value.ub;
    Value result = value.value;
    if (stmt.kind == StmtKind::Assign && stmt.assign.compound) {
      if (!env.vars[stmt.var]) return UB::Uninitialized;
      Outcome combined = apply(stmt.assign.op, *env.vars[stmt.var], value.value);
      if (!combined.ok()) return combined.ub;
      result = combined.value;
    }
    env.vars[stmt.var] = convert(result, stmt.target_type);
    return UB::None;
  }
  case StmtKind::If: {
    Outcome cond = eval(*stmt.expr, env);
    if (!cond.ok()) return cond.ub;
    return exec(cond.value.bits != 0 ? stmt.body : stmt.else_body, env, sink);
  }
  case StmtKind::For: {
    if (env.vars.size() <= static_cast<std::size_t>(stmt.var)) env.vars.resize(stmt.var + 1);
    for (std::int64_t i = 0; i < stmt.trips; ++i) {
      env.vars[stmt.var] = Value::make(IntType::Int, stmt.start + i * stmt.step);
      UB ub = exec(stmt.body, env, sink);
      if (ub != UB::None || env.returned) return ub;
    }
    return UB::None;
  }
  case StmtKind::Switch: {
    Outcome subject = eval(*stmt.expr, env);
    if (!subject.ok()) return subject.ub;
    const Value promoted = convert(subject.value, promote(subject.value.type));
    for (const SwitchCase& c : stmt.cases)
      if (convert(c.label, promoted.type) == promoted) return exec(c.body, env, sink);
    return exec(stmt.body, env, sink);
  }
  case StmtKind::WriteOut: {
    Outcome value = eval(*stmt.expr, env);
    if (!value.ok()) return value.ub;
    if (sink) {
      const std::size_t word = std::size_t{env.thread->global_id} * sink->slots + stmt.slot;
      if (sink->writer[word] >= 0 && sink->writer[word] != static_cast<int>(env.thread->global_id) &&
          sink->race.empty())
        sink->race = "output word " + std::to_string(word) + " written by two threads";
      sink->writer[word] = static_cast<int>(env.thread->global_id);
      sink->words[word] = convert(value.value, IntType::ULLong).bits;
    }
    return UB::None;
  }
  case StmtKind::Return: env.returned = true; return UB::None;
  default: break;
  }
  throw Error(ErrorKind::internal, "a collective statement outside the kernel's top level");
}

} // namespace cudiff::generator
