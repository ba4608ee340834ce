// collectives_gen: phase two of the collectives added for the optimizers and ptxas — shuffles
// with a width and a computed source lane, cooperative-groups exchanges, __match_any/all_sync,
// __reduce_*_sync, cooperative-groups tiles (shfl, shfl_xor, any, all, ballot, cg::reduce) and
// atomics in loops (built-in, atomicCAS loops, cuda::atomic_ref). Each is placed only at a
// kernel's top level, before any divergent return, so every lane of every warp takes part.
#include "generator/collectives/collectives.h"
#include "generator/core/body_gen.h"

#include <algorithm>

namespace cudiff::generator {
namespace {

const IntType kWordTypes[] = {IntType::Int, IntType::UInt, IntType::LLong, IntType::ULLong};

std::uint32_t random_width(GenContext& ctx) { return 2u << ctx.rng.below(5); }  // 2, 4, 8, 16, 32

/// `e & mask` with the mask's type e's: a few distinct values, so lanes match each other.
Gen masked(Gen value, std::uint64_t mask) {
  auto constant = std::make_shared<Expr>();
  constant->kind = ExprKind::Const;
  constant->type = value.expr->type;
  constant->constant = Value::make_unsigned(value.expr->type, mask);
  auto expr = std::make_shared<Expr>();
  expr->kind = ExprKind::Binary;
  expr->binary = BinaryOp::BitAnd;
  expr->type = result_type(BinaryOp::BitAnd, value.expr->type, value.expr->type);
  expr->kids = {value.expr, constant};
  for (Value& v : value.values) v = apply(BinaryOp::BitAnd, v, constant->constant).value;
  value.expr = expr;
  return value;
}

/// Whether a signed sum over each group of `group` consecutive values could overflow.
bool group_sum_overflows(const std::vector<Value>& values, std::size_t group) {
  for (std::size_t base = 0; base + group <= values.size(); base += group)
    if (!sum_never_overflows(std::vector<Value>(values.begin() + base, values.begin() + base + group))) return true;
  return false;
}

} // namespace

bool new_collective_enabled(const GenContext& ctx, StmtKind kind) {
  switch (kind) {
  case StmtKind::Shuffle: return ctx.on("shuffle_width");
  case StmtKind::Exchange: return ctx.on("cg_block");
  case StmtKind::Tile: return ctx.on("cg_reduce");
  case StmtKind::AtomicLoop: return ctx.on("atomic_cas_loop") || ctx.on("atomic_ref");
  default: return false;
  }
}

void BodyGen::shuffle_width(Stmt& stmt) {
  const bool width = ctx_.on("shuffle_width") && (!ctx_.on("warp_shuffle") || ctx_.chance("shuffle.width"));
  if (!width) {
    ctx_.use("warp_shuffle");
    return;
  }
  stmt.width = random_width(ctx_);
  switch (stmt.shuffle) {
  case ShuffleKind::Idx:
    // Any tracked value: the hardware takes it modulo the width.
    if (ctx_.chance("shuffle.computed_lane")) stmt.lane = expr(ctx_.count("expr.depth")).expr;
    else stmt.param = static_cast<std::uint32_t>(ctx_.rng.below(32));
    break;
  default:
    // Xor: a lane mask below the width keeps the partner in the segment (a larger one reads an
    // earlier segment, or the lane's own value for a later one). Up, Down: a delta that may
    // leave the segment, where the lane keeps its own value.
    stmt.param = stmt.width == 2 ? 1 : static_cast<std::uint32_t>(ctx_.rng.range(1, stmt.width - 1));
    break;
  }
  ctx_.use("shuffle_width");
}

bool BodyGen::cg_exchange(bool warp_scope) {
  if (warp_scope || !ctx_.on("cg_block")) return false;
  const bool others = ctx_.on("shared_exchange") || ctx_.on("dynamic_shared");
  if (others && !ctx_.chance("exchange.cg_block")) return false;
  ctx_.use("cg_block");
  return true;
}

Gen BodyGen::operand(IntType type) { return cast(expr(ctx_.count("expr.depth")), type); }

void BodyGen::new_collective(const SkelNode& node, Block& out) {
  Stmt stmt;
  stmt.kind = node.kind;
  switch (node.kind) {
  case StmtKind::WarpMatch: warp_match(stmt); break;
  case StmtKind::WarpReduce: warp_reduce(stmt); break;
  case StmtKind::Tile: tile(stmt); break;
  case StmtKind::AtomicLoop: return atomic_loop(stmt, out);
  default: return decl(out);
  }
  if (ctx_.interpreter.exec_collective(stmt, envs_, launch, nullptr) != UB::None) return;
  visible.push_back(VarState{stmt.var, true, true, false});
  if (stmt.pred_var >= 0) visible.push_back(VarState{stmt.pred_var, true, true, false});
  out.push_back(std::move(stmt));
}

void BodyGen::warp_match(Stmt& stmt) {
  const IntType type = kWordTypes[ctx_.rng.below(4)];
  Gen value = operand(type);
  if (ctx_.chance("match.narrow")) value = masked(value, ctx_.rng.range(1, 7));
  stmt.expr = value.expr;
  stmt.match = ctx_.rng.chance(0.5) ? MatchKind::Any : MatchKind::All;
  stmt.var = add_var(ctx_.fresh("c"), IntType::UInt);
  stmt.target_type = IntType::UInt;
  if (stmt.match == MatchKind::All) stmt.pred_var = add_var(ctx_.fresh("c"), IntType::Bool);
  ctx_.use("warp_match");
}

void BodyGen::warp_reduce(Stmt& stmt) {
  stmt.reduce = static_cast<ReduceOp>(ctx_.rng.below(6));
  const bool arithmetic = stmt.reduce == ReduceOp::Add || stmt.reduce == ReduceOp::Min || stmt.reduce == ReduceOp::Max;
  // __reduce_add/min/max_sync take int or unsigned; and/or/xor unsigned only.
  IntType type = arithmetic && ctx_.rng.chance(0.5) ? IntType::Int : IntType::UInt;
  Gen value = operand(type);
  if (stmt.reduce == ReduceOp::Add && type == IntType::Int && group_sum_overflows(value.values, kWarpLanes)) {
    type = IntType::UInt;
    value = cast(value, type);
  }
  stmt.expr = value.expr;
  stmt.var = add_var(ctx_.fresh("c"), type);
  stmt.target_type = type;
  ctx_.use("warp_reduce");
}

void BodyGen::tile(Stmt& stmt) {
  stmt.width = random_width(ctx_);
  const bool reduce = ctx_.on("cg_reduce") && (!ctx_.on("cg_tile") || ctx_.chance("tile.reduce"));
  stmt.tile = reduce ? TileOp::Reduce : static_cast<TileOp>(ctx_.rng.below(5));
  IntType type = kWordTypes[ctx_.rng.below(4)];
  Gen value;
  switch (stmt.tile) {
  case TileOp::Shfl:
    value = operand(type);
    if (ctx_.chance("shuffle.computed_lane")) stmt.lane = expr(ctx_.count("expr.depth")).expr;
    else stmt.param = static_cast<std::uint32_t>(ctx_.rng.below(stmt.width));
    break;
  case TileOp::ShflXor:
    value = operand(type);
    stmt.param = stmt.width == 2 ? 1 : static_cast<std::uint32_t>(ctx_.rng.range(1, stmt.width - 1));
    break;
  case TileOp::Any:
  case TileOp::All:
  case TileOp::Ballot:
    value = expr(ctx_.count("expr.depth"));
    type = stmt.tile == TileOp::Ballot ? IntType::UInt : IntType::Bool;
    break;
  case TileOp::Reduce:
    stmt.reduce = static_cast<ReduceOp>(ctx_.rng.below(6));
    value = operand(type);
    // cg::plus<T> adds in C++: a signed sum must not overflow in any order.
    if (stmt.reduce == ReduceOp::Add && is_signed(type) && group_sum_overflows(value.values, stmt.width)) {
      type = make_unsigned(type);
      value = cast(value, type);
    }
    break;
  }
  stmt.expr = value.expr;
  stmt.var = add_var(ctx_.fresh("c"), type);
  stmt.target_type = type;
  ctx_.use(reduce ? "cg_reduce" : "cg_tile");
}

void BodyGen::atomic_loop(Stmt& stmt, Block& out) {
  std::vector<AtomicSpelling> spellings;
  if (ctx_.on("atomic_loop")) spellings.push_back(AtomicSpelling::Builtin);
  if (ctx_.on("atomic_cas_loop")) spellings.push_back(AtomicSpelling::CasLoop);
  if (ctx_.on("atomic_ref")) spellings.push_back(AtomicSpelling::AtomicRef);
  if (spellings.empty()) return decl(out);
  stmt.spelling = spellings[ctx_.rng.below(spellings.size())];
  stmt.atomic = static_cast<AtomicKind>(ctx_.rng.below(6));
  const bool shared = ctx_.chance("atomic_loop.shared");
  const bool min_max = stmt.atomic == AtomicKind::Min || stmt.atomic == AtomicKind::Max;
  // Global words are the kernel's unsigned long long reduction words. Shared words: add and
  // the bitwise updates on unsigned types (atomicAnd... have no long long form; a signed sum
  // would be C++ addition in the atomicCAS loop); min and max on any, but atomicCAS has no
  // long long form.
  IntType type = IntType::ULLong;
  if (shared) {
    std::vector<IntType> types = {IntType::UInt, IntType::ULLong};
    if (min_max)
      types = stmt.spelling == AtomicSpelling::CasLoop
                  ? std::vector<IntType>{IntType::Int, IntType::UInt, IntType::ULLong}
                  : std::vector<IntType>{IntType::Int, IntType::UInt, IntType::LLong, IntType::ULLong};
    type = types[ctx_.rng.below(types.size())];
  }
  stmt.target_type = type;
  if (stmt.spelling == AtomicSpelling::AtomicRef)
    stmt.order = static_cast<MemoryOrder>(ctx_.weighted("atomic_loop.order.", {"relaxed", "acq_rel", "seq_cst"}));

  // The loop: the operand is evaluated on every (thread, iteration) pair, as a for loop's body.
  std::int64_t trips = std::max(1, ctx_.count("loop.trips"));
  const auto max_lanes = static_cast<std::int64_t>(ctx_.knob(to_string(ctx_.size) + ".loop.max_lanes"));
  while (trips > 1 && static_cast<std::int64_t>(active_.size()) * trips > max_lanes) --trips;
  stmt.trips = trips;
  stmt.start = ctx_.rng.range(-4, 8);
  stmt.step = ctx_.rng.range(1, 3);
  stmt.loop_var = add_var(ctx_.fresh("i"), IntType::Int);
  std::vector<Env> expanded;
  for (int env : active_)
    for (std::int64_t k = 0; k < trips; ++k) {
      Env copy = envs_[env];
      if (copy.vars.size() <= static_cast<std::size_t>(stmt.loop_var)) copy.vars.resize(stmt.loop_var + 1);
      copy.vars[stmt.loop_var] = Value::make(IntType::Int, stmt.start + k * stmt.step);
      expanded.push_back(std::move(copy));
    }
  std::vector<Env> saved_envs = std::exchange(envs_, std::move(expanded));
  std::vector<int> saved_active = std::move(active_);
  active_.clear();
  for (std::size_t i = 0; i < envs_.size(); ++i) active_.push_back(static_cast<int>(i));
  const std::size_t scope = visible.size();
  std::vector<VarState> saved_visible = visible;
  for (VarState& state : visible) state.assignable = false;
  visible.push_back(VarState{stmt.loop_var, true, false, false});
  stmt.expr = operand(type).expr;
  visible = std::move(saved_visible);
  visible.resize(scope);
  envs_ = std::move(saved_envs);
  active_ = std::move(saved_active);

  if (shared) {
    Array word;
    word.name = ctx_.fresh("acc");
    word.elem = type;
    word.length = 1;
    word.kind = ArrayKind::SharedStatic;
    ctx_.program.arrays.push_back(std::move(word));
    ctx_.program.array_ns.push_back(ns_);
    stmt.array = static_cast<int>(ctx_.program.arrays.size()) - 1;
    shared_arrays.push_back(stmt.array);
    stmt.var = add_var(ctx_.fresh("c"), type);
  } else {
    stmt.slot = static_cast<int>(reductions.size());
    reductions.push_back(stmt.atomic);
  }
  if (ctx_.interpreter.exec_collective(stmt, envs_, launch, nullptr) != UB::None) return;
  if (shared) visible.push_back(VarState{stmt.var, true, true, false});
  static const char* const constructs[] = {"atomic_loop", "atomic_cas_loop", "atomic_ref"};
  ctx_.use(constructs[static_cast<int>(stmt.spelling)]);
  out.push_back(std::move(stmt));
}

} // namespace cudiff::generator
