// statements: phase one (the skeleton of statement kinds) and phase two's statement filling
// with value tracking: per-thread masks for branches, loops evaluated for every iteration.
#include "generator/core/body_gen.h"

#include <algorithm>

namespace cudiff::generator {
namespace {

struct KindChoice {
  StmtKind kind;
  const char* knob;
  const char* construct;  ///< nullptr: always available
};

const std::vector<KindChoice>& nested_kinds() {
  static const std::vector<KindChoice> kinds = {{StmtKind::Decl, "decl", nullptr},
                                                {StmtKind::Assign, "assign", nullptr},
                                                {StmtKind::If, "if", "if_else"},
                                                {StmtKind::For, "for", "for_loop"},
                                                {StmtKind::Switch, "switch", "switch_statement"}};
  return kinds;
}

const std::vector<KindChoice>& top_kinds() {
  static const std::vector<KindChoice> kinds = [] {
    std::vector<KindChoice> all = nested_kinds();
    all.push_back({StmtKind::Return, "return", "early_return"});
    all.push_back({StmtKind::Exchange, "exchange", "shared_exchange"});
    all.push_back({StmtKind::Shuffle, "shuffle", "warp_shuffle"});
    all.push_back({StmtKind::Vote, "vote", "warp_vote"});
    all.push_back({StmtKind::SyncCount, "sync_count", "syncthreads_count"});
    all.push_back({StmtKind::Atomic, "atomic", "atomic_reduction"});
    all.push_back({StmtKind::WarpMatch, "match", "warp_match"});
    all.push_back({StmtKind::WarpReduce, "warp_reduce", "warp_reduce"});
    all.push_back({StmtKind::Tile, "tile", "cg_tile"});
    all.push_back({StmtKind::AtomicLoop, "atomic_loop", "atomic_loop"});
    return all;
  }();
  return kinds;
}

} // namespace

Skeleton make_skeleton(GenContext& ctx, int count, int depth, bool kernel_top) {
  const auto& kinds = kernel_top ? top_kinds() : nested_kinds();
  std::vector<double> weights;
  for (const KindChoice& choice : kinds) {
    const bool nests = choice.kind == StmtKind::If || choice.kind == StmtKind::For || choice.kind == StmtKind::Switch;
    // Exchanges come in three flavours; any one of them enables the statement.
    const bool exchange = choice.kind == StmtKind::Exchange &&
                          (ctx.on("shared_exchange") || ctx.on("dynamic_shared") || ctx.on("syncwarp"));
    // An atomic sum may also be the last-block-done pattern.
    const bool atomic = choice.kind == StmtKind::Atomic && ctx.on("last_block_done");
    const bool added = new_collective_enabled(ctx, choice.kind);
    const bool allowed = (!choice.construct || ctx.on(choice.construct) || exchange || atomic || added) &&
                         (!nests || depth > 0);
    weights.push_back(allowed ? ctx.knob(std::string("stmt.") + choice.knob) : 0.0);
  }
  Skeleton skeleton;
  for (int i = 0; i < count; ++i) {
    SkelNode node;
    node.kind = kinds[ctx.rng.weighted(weights)].kind;
    auto inner = [&] { return make_skeleton(ctx, ctx.count("block.statements"), depth - 1, false); };
    switch (node.kind) {
    case StmtKind::If:
      node.body = inner();
      if (ctx.chance("if.else")) node.else_body = inner();
      break;
    case StmtKind::For:
      node.trips = ctx.count("loop.trips");
      node.body = inner();
      break;
    case StmtKind::Switch: {
      const int cases = ctx.count("switch.cases");
      for (int c = 0; c < cases; ++c) node.cases.push_back(inner());
      node.body = inner();
      break;
    }
    default: break;
    }
    skeleton.push_back(std::move(node));
  }
  return skeleton;
}

Block BodyGen::fill(const Skeleton& skeleton, bool keep_scope) {
  Block out;
  const std::size_t scope = visible.size();
  for (const SkelNode& node : skeleton) {
    if (active_.empty()) break;  // no thread runs the rest: nothing to generate
    fill_one(node, out);
  }
  if (!keep_scope) visible.resize(scope);
  return out;
}

Block BodyGen::nested(const Skeleton& skeleton, const std::vector<int>& active) {
  if (active.empty()) return {};
  std::vector<int> saved = active_;
  active_ = active;
  Block block = fill(skeleton);
  active_ = std::move(saved);
  return block;
}

void BodyGen::fill_one(const SkelNode& node, Block& out) {
  switch (node.kind) {
  case StmtKind::Decl: return decl(out);
  case StmtKind::Assign: return assign(out);
  case StmtKind::If: return if_stmt(node, out);
  case StmtKind::For: return for_stmt(node, out);
  case StmtKind::Switch: return switch_stmt(node, out);
  case StmtKind::Return: return early_return(out);
  default: break;
  }
  if (returned_any_ || !in_kernel_) return decl(out);  // no barrier or warp operation after a divergent return
  if (node.kind == StmtKind::WarpMatch || node.kind == StmtKind::WarpReduce || node.kind == StmtKind::Tile ||
      node.kind == StmtKind::AtomicLoop)
    return new_collective(node, out);
  collective(node, out);
}

void BodyGen::decl(Block& out) {
  const IntType type = random_type(ctx_);
  Gen init = expr(ctx_.count("expr.depth"));
  const int id = add_var(ctx_.fresh("v"), type);
  Stmt stmt;
  stmt.kind = StmtKind::Decl;
  stmt.var = id;
  stmt.target_type = type;
  stmt.expr = init.expr;
  for (std::size_t i = 0; i < active_.size(); ++i) set_var(active_[i], id, convert(init.values[i], type));
  visible.push_back(VarState{id, true, true, false});
  out.push_back(std::move(stmt));
}

void BodyGen::assign(Block& out) {
  std::vector<const VarState*> targets;
  for (const VarState& state : visible)
    if (state.assignable || state.accumulate_only) targets.push_back(&state);
  if (targets.empty()) return decl(out);
  const VarState target = *targets[ctx_.rng.below(targets.size())];
  const IntType type = vars[target.id].type;
  Gen value = expr(ctx_.count("expr.depth"));
  Stmt stmt;
  stmt.kind = StmtKind::Assign;
  stmt.var = target.id;
  stmt.target_type = type;
  stmt.expr = value.expr;
  if (target.accumulate_only) {
    // Loop-carried: combined with an operation that is defined for every value, and never read
    // inside the loop, so the per-iteration evaluation stays exact (see for_stmt).
    static const BinaryOp safe[] = {BinaryOp::BitXor, BinaryOp::BitOr, BinaryOp::BitAnd};
    stmt.assign = AssignOp{true, safe[ctx_.rng.below(3)]};
    out.push_back(std::move(stmt));
    return;
  }
  std::vector<Value> results = value.values;
  if (type != IntType::Bool && ctx_.chance("assign.compound")) {
    static const BinaryOp ops[] = {BinaryOp::Add,    BinaryOp::Sub, BinaryOp::Mul, BinaryOp::BitXor, BinaryOp::BitOr,
                                   BinaryOp::BitAnd, BinaryOp::Shl, BinaryOp::Shr, BinaryOp::Div,    BinaryOp::Rem};
    for (int attempt = 0; attempt < 3; ++attempt) {
      const BinaryOp op = ops[ctx_.rng.below(std::size(ops))];
      std::vector<Value> combined;
      for (std::size_t i = 0; i < active_.size(); ++i) {
        Outcome r = apply(op, *envs_[active_[i]].vars[target.id], value.values[i]);
        if (!r.ok()) break;
        combined.push_back(r.value);
      }
      if (combined.size() == active_.size()) {
        stmt.assign = AssignOp{true, op};
        results = std::move(combined);
        break;
      }
    }
  }
  for (std::size_t i = 0; i < active_.size(); ++i) set_var(active_[i], target.id, convert(results[i], type));
  out.push_back(std::move(stmt));
}

void BodyGen::if_stmt(const SkelNode& node, Block& out) {
  Gen cond = expr(ctx_.count("expr.depth"));
  std::vector<int> then_active, else_active;
  for (std::size_t i = 0; i < active_.size(); ++i)
    (cond.values[i].bits ? then_active : else_active).push_back(active_[i]);
  Stmt stmt;
  stmt.kind = StmtKind::If;
  stmt.expr = cond.expr;
  stmt.body = nested(node.body, then_active);
  stmt.else_body = nested(node.else_body, else_active);
  ctx_.use("if_else");
  out.push_back(std::move(stmt));
}

void BodyGen::for_stmt(const SkelNode& node, Block& out) {
  std::int64_t trips = std::max<std::int64_t>(1, node.trips);
  const auto max_lanes = static_cast<std::int64_t>(ctx_.knob(to_string(ctx_.size) + ".loop.max_lanes"));
  while (trips > 1 && static_cast<std::int64_t>(active_.size()) * trips > max_lanes) --trips;
  Stmt stmt;
  stmt.kind = StmtKind::For;
  stmt.trips = trips;
  stmt.start = ctx_.rng.range(-4, 8);
  stmt.step = ctx_.rng.range(1, 3);
  stmt.var = add_var(ctx_.fresh("i"), IntType::Int);
  stmt.target_type = IntType::Int;

  // Inside the body, variables from outside are read-only, except a few accumulators that are
  // write-only: then every iteration of every thread is independent, and the body's
  // expressions can be evaluated on all (thread, iteration) pairs at once.
  const std::vector<VarState> saved_visible = visible;
  for (VarState& state : visible) {
    const bool may_accumulate = (state.assignable || state.accumulate_only) && vars[state.id].type != IntType::Bool;
    state.assignable = false;
    if (may_accumulate && ctx_.chance("loop.accumulator")) {
      state.accumulate_only = true;
      state.readable = false;
    }
  }
  visible.push_back(VarState{stmt.var, true, false, false});
  std::vector<Env> expanded;
  for (int env : active_)
    for (std::int64_t k = 0; k < trips; ++k) {
      Env copy = envs_[env];
      if (copy.vars.size() <= static_cast<std::size_t>(stmt.var)) copy.vars.resize(stmt.var + 1);
      copy.vars[stmt.var] = Value::make(IntType::Int, stmt.start + k * stmt.step);
      expanded.push_back(std::move(copy));
    }
  std::vector<Env> saved_envs = std::exchange(envs_, std::move(expanded));
  std::vector<int> saved_active = std::move(active_);
  active_.clear();
  for (std::size_t i = 0; i < envs_.size(); ++i) active_.push_back(static_cast<int>(i));
  ++loop_depth_;
  stmt.body = fill(node.body);
  --loop_depth_;
  envs_ = std::move(saved_envs);
  active_ = std::move(saved_active);
  visible = saved_visible;

  // The real state after the loop: run it, iteration after iteration, on every thread.
  std::vector<Env> after;
  for (int env : active_) {
    Env copy = envs_[env];
    if (ctx_.interpreter.exec(stmt, copy, nullptr) != UB::None) return;  // cannot happen; drop the loop
    after.push_back(std::move(copy));
  }
  for (std::size_t i = 0; i < active_.size(); ++i) envs_[active_[i]] = std::move(after[i]);
  ctx_.use("for_loop");
  out.push_back(std::move(stmt));
}

void BodyGen::switch_stmt(const SkelNode& node, Block& out) {
  Gen subject = expr(ctx_.count("expr.depth"));
  const IntType promoted = promote(subject.expr->type);
  Stmt stmt;
  stmt.kind = StmtKind::Switch;
  stmt.expr = subject.expr;
  std::vector<Value> labels;
  for (std::size_t c = 0; c < node.cases.size(); ++c) {
    Value label = ctx_.chance("switch.label_seen") && !subject.values.empty()
                      ? convert(subject.values[ctx_.rng.below(subject.values.size())], promoted)
                      : convert(random_value(ctx_, promoted), promoted);
    if (std::find(labels.begin(), labels.end(), label) == labels.end()) labels.push_back(label);
  }
  std::vector<int> rest;
  std::vector<std::vector<int>> taken(labels.size());
  for (std::size_t i = 0; i < active_.size(); ++i) {
    const Value v = convert(subject.values[i], promoted);
    const auto found = std::find(labels.begin(), labels.end(), v);
    if (found == labels.end()) rest.push_back(active_[i]);
    else taken[found - labels.begin()].push_back(active_[i]);
  }
  for (std::size_t c = 0; c < labels.size(); ++c)
    stmt.cases.push_back(SwitchCase{labels[c], nested(node.cases[c], taken[c])});
  stmt.body = nested(node.body, rest);
  ctx_.use("switch_statement");
  out.push_back(std::move(stmt));
}

Block BodyGen::write_outputs(int slot_count) {
  std::vector<int> ids;
  for (const VarState& state : visible)
    if (state.readable) ids.push_back(state.id);
  Block block;
  for (int slot = 0; slot < slot_count; ++slot) {
    std::vector<int> mine;
    for (std::size_t i = slot; i < ids.size(); i += slot_count) mine.push_back(ids[i]);
    Stmt stmt;
    stmt.kind = StmtKind::WriteOut;
    stmt.slot = slot;
    stmt.expr = fold_vars(mine).expr;
    block.push_back(std::move(stmt));
  }
  return block;
}

void BodyGen::early_return(Block& out) {
  if (!in_kernel_ || loop_depth_ > 0) return decl(out);
  // A return that no thread (or every thread) takes tests little: try a few conditions.
  Gen cond;
  std::vector<int> leaving, staying;
  for (int attempt = 0; attempt < 4 && (leaving.empty() || staying.empty()); ++attempt) {
    cond = expr(ctx_.count("expr.depth"));
    leaving.clear();
    staying.clear();
    for (std::size_t i = 0; i < active_.size(); ++i) (cond.values[i].bits ? leaving : staying).push_back(active_[i]);
  }
  if (leaving.empty() || staying.empty()) return decl(out);
  Stmt stmt;
  stmt.kind = StmtKind::If;
  stmt.expr = cond.expr;
  std::vector<int> saved = std::exchange(active_, leaving);
  stmt.body = write_outputs(slots);
  active_ = std::move(saved);
  Stmt ret;
  ret.kind = StmtKind::Return;
  stmt.body.push_back(std::move(ret));
  for (int env : leaving) envs_[env].returned = true;
  active_ = std::move(staying);
  returned_any_ = true;
  ctx_.use("early_return");
  out.push_back(std::move(stmt));
}

void BodyGen::collective(const SkelNode& node, Block& out) {
  Stmt stmt;
  stmt.kind = node.kind;
  Gen value = expr(ctx_.count("expr.depth"));
  stmt.expr = value.expr;
  IntType result = IntType::Int;
  switch (node.kind) {
  case StmtKind::Exchange: {
    result = random_type(ctx_);
    const bool block_flavours = ctx_.on("shared_exchange") || ctx_.on("dynamic_shared") || ctx_.on("cg_block");
    stmt.warp_scope = ctx_.on("syncwarp") && (!block_flavours || ctx_.chance("exchange.warp"));
    stmt.cg_block = cg_exchange(stmt.warp_scope);
    stmt.rotate = ctx_.chance("exchange.rotate");
    const std::uint32_t span = stmt.warp_scope ? 32 : launch.threads_per_block();
    stmt.param = static_cast<std::uint32_t>(ctx_.rng.range(1, span - 1));
    Array array;
    array.name = ctx_.fresh("sh");
    array.elem = result;
    array.length = static_cast<int>(launch.threads_per_block());
    const bool dynamic = ctx_.on("dynamic_shared") && (!ctx_.on("shared_exchange") || ctx_.chance("exchange.dynamic"));
    array.kind = dynamic ? ArrayKind::SharedDynamic : ArrayKind::SharedStatic;
    if (array.kind == ArrayKind::SharedDynamic) {
      const std::uint32_t align = std::max(1, bit_width(result) / 8);
      dynamic_shared_bytes = (dynamic_shared_bytes + align - 1) / align * align;
      array.dynamic_offset = dynamic_shared_bytes;
      dynamic_shared_bytes += align * static_cast<std::uint32_t>(array.length);
      ctx_.use("dynamic_shared");
    } else if (!stmt.warp_scope && !stmt.cg_block) {
      ctx_.use("shared_exchange");
    }
    if (stmt.warp_scope) ctx_.use("syncwarp");
    ctx_.program.arrays.push_back(std::move(array));
    ctx_.program.array_ns.push_back(ns_);
    stmt.array = static_cast<int>(ctx_.program.arrays.size()) - 1;
    shared_arrays.push_back(stmt.array);
    break;
  }
  case StmtKind::Shuffle: {
    static const IntType types[] = {IntType::Int, IntType::UInt, IntType::LLong, IntType::ULLong};
    result = types[ctx_.rng.below(4)];
    stmt.shuffle = static_cast<ShuffleKind>(ctx_.rng.below(4));
    stmt.param = stmt.shuffle == ShuffleKind::Idx   ? static_cast<std::uint32_t>(ctx_.rng.below(32))
                 : stmt.shuffle == ShuffleKind::Xor ? static_cast<std::uint32_t>(ctx_.rng.range(1, 31))
                                                    : static_cast<std::uint32_t>(ctx_.rng.range(1, 16));
    shuffle_width(stmt);
    break;
  }
  case StmtKind::Vote:
    stmt.vote = static_cast<VoteKind>(ctx_.rng.below(3));
    result = stmt.vote == VoteKind::Ballot ? IntType::UInt : IntType::Bool;
    ctx_.use("warp_vote");
    break;
  case StmtKind::SyncCount:
    stmt.sync_count = static_cast<SyncCountKind>(ctx_.rng.below(3));
    result = stmt.sync_count == SyncCountKind::Count ? IntType::Int : IntType::Bool;
    ctx_.use("syncthreads_count");
    break;
  case StmtKind::Atomic:
    stmt.last_block = ctx_.on("last_block_done") && (!ctx_.on("atomic_reduction") || ctx_.chance("atomic.last_block"));
    stmt.atomic = stmt.last_block ? AtomicKind::Add : static_cast<AtomicKind>(ctx_.rng.below(6));
    stmt.slot = static_cast<int>(reductions.size());
    reductions.push_back(stmt.atomic);
    ctx_.use(stmt.last_block ? "last_block_done" : "atomic_reduction");
    out.push_back(std::move(stmt));
    return;
  default: return decl(out);
  }
  stmt.var = add_var(ctx_.fresh("c"), result);
  stmt.target_type = result;
  if (ctx_.interpreter.exec_collective(stmt, envs_, launch, nullptr) != UB::None) return;
  visible.push_back(VarState{stmt.var, true, true, false});
  out.push_back(std::move(stmt));
}

} // namespace cudiff::generator
