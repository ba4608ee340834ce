// variants_rewrite: Hermes-style live-code rewrites that keep every value — identities whose
// key comes from the input or the launch (so no compiler folds them away), exact
// re-association and commutation, and the reordering of independent statements.
#include "generator/variants/variants.h"

namespace cudiff::generator {
namespace {

bool is_trivial(const Expr& e) { return e.kind == ExprKind::Const || e.kind == ExprKind::Var; }

/// One identity of x (type T) around key k (type T): (T)((x ^ k) ^ k), (T)(x + (k - k)),
/// (T)((x & k) | (x & ~k)), or (opaque ? x : x). Each is exact for every value: the xors and
/// masks are bitwise, k - k is 0 without overflow, and x + 0 cannot overflow.
ExprP identity_of(const ExprP& x, const Program& program, Owner owner, Rng& rng) {
  const IntType t = x->type;
  const ExprP key = opaque_key(program, owner, t, rng);
  switch (rng.below(owner.kernel >= 0 ? 4 : 3)) {
  case 0: return make_cast(t, make_binary(BinaryOp::BitXor, make_binary(BinaryOp::BitXor, x, key), key));
  case 1: return make_cast(t, make_binary(BinaryOp::Add, x, make_binary(BinaryOp::Sub, key, key)));
  case 2: {
    auto inverted = std::make_shared<Expr>();
    inverted->kind = ExprKind::Unary;
    inverted->unary = UnaryOp::BitNot;
    inverted->type = result_type(UnaryOp::BitNot, t);
    inverted->kids = {key};
    return make_cast(t, make_binary(BinaryOp::BitOr, make_binary(BinaryOp::BitAnd, x, key),
                                    make_binary(BinaryOp::BitAnd, x, inverted)));
  }
  default: return make_cond(opaque_any(program, program.kernels[owner.kernel], rng), x, x);
  }
}

/// A plain `a op b` whose re-association is exact: wrapping unsigned +, or a bitwise operator,
/// with both operands of the node's own type and no promotion (4- or 8-byte types).
bool associative(const Expr& e) {
  if (e.kind != ExprKind::Binary || e.spell != Expr::Spell::Plain || bit_width(e.type) < 32) return false;
  const bool op = e.binary == BinaryOp::BitXor || e.binary == BinaryOp::BitAnd || e.binary == BinaryOp::BitOr ||
                  (e.binary == BinaryOp::Add && !is_signed(e.type));
  return op && e.kids[0]->type == e.type && e.kids[1]->type == e.type;
}

bool commutative(const Expr& e) {
  if (e.kind != ExprKind::Binary || e.spell != Expr::Spell::Plain) return false;
  switch (e.binary) {
  case BinaryOp::Add:
  case BinaryOp::Mul:
  case BinaryOp::BitAnd:
  case BinaryOp::BitOr:
  case BinaryOp::BitXor:
  case BinaryOp::Eq:
  case BinaryOp::Ne: return true;
  default: return false;
  }
}

/// (a op b) op c -> a op (b op c), or back, where both nodes are the same exact operator.
bool regroupable(const Expr& e) {
  if (!associative(e)) return false;
  for (const ExprP& kid : e.kids)
    if (associative(*kid) && kid->binary == e.binary && kid->type == e.type) return true;
  return false;
}

ExprP regroup(const ExprP& e) {
  const ExprP& left = e->kids[0];
  const ExprP& right = e->kids[1];
  if (associative(*left) && left->binary == e->binary && left->type == e->type)
    return make_binary(e->binary, left->kids[0], make_binary(e->binary, left->kids[1], right));
  return make_binary(e->binary, make_binary(e->binary, left, right->kids[0]), right->kids[1]);
}

ExprP commute(const ExprP& e) {
  auto copy = std::make_shared<Expr>(*e);
  copy->kids = {e->kids[1], e->kids[0]};
  return copy;
}

/// Picks an expression slot with an eligible node and rewrites one node there.
bool rewrite_somewhere(Program& program, Rng& rng, const std::function<bool(const Expr&)>& eligible,
                       const std::function<ExprP(const ExprP&, Owner)>& rewrite) {
  std::vector<ExprSlot> slots;
  std::vector<int> counts;
  for (const ExprSlot& slot : expr_slots(program))
    if (const int count = count_nodes(**slot.expr, eligible); count > 0) {
      slots.push_back(slot);
      counts.push_back(count);
    }
  if (slots.empty()) return false;
  const std::size_t chosen = rng.below(slots.size());
  const ExprSlot slot = slots[chosen];
  const int index = static_cast<int>(rng.below(static_cast<std::uint64_t>(counts[chosen])));
  *slot.expr = rewrite_node(*slot.expr, index, eligible, [&](const ExprP& node) { return rewrite(node, slot.owner); });
  return true;
}

struct Effects {
  std::set<int> reads, writes;
  int slot = -1;  ///< the output slot a WriteOut writes
};

Effects effects(const Stmt& stmt) {
  Effects effects;
  if (stmt.expr) vars_read(*stmt.expr, effects.reads);
  if (stmt.kind == StmtKind::Assign && stmt.assign.compound) effects.reads.insert(stmt.var);
  if (stmt.kind == StmtKind::Decl || stmt.kind == StmtKind::Assign) effects.writes.insert(stmt.var);
  if (stmt.kind == StmtKind::WriteOut) effects.slot = stmt.slot;
  return effects;
}

bool disjoint(const std::set<int>& a, const std::set<int>& b) {
  for (int x : a)
    if (b.count(x)) return false;
  return true;
}

/// Two straight-line statements that can run in either order: neither reads or writes what the
/// other writes, and they do not write the same output word.
bool independent(const Stmt& a, const Stmt& b) {
  auto simple = [](const Stmt& s) {
    return s.kind == StmtKind::Decl || s.kind == StmtKind::Assign || s.kind == StmtKind::WriteOut;
  };
  if (!simple(a) || !simple(b)) return false;
  const Effects x = effects(a), y = effects(b);
  if (x.slot >= 0 && x.slot == y.slot) return false;
  return disjoint(x.writes, y.reads) && disjoint(y.writes, x.reads) && disjoint(x.writes, y.writes);
}

} // namespace

bool identity_rewrite(Program& program, Rng& rng) {
  // Any node but a bare literal (the rewrite of a literal is as good as one of its parent).
  auto eligible = [](const Expr& e) { return e.kind != ExprKind::Const; };
  return rewrite_somewhere(program, rng, eligible,
                           [&](const ExprP& node, Owner owner) { return identity_of(node, program, owner, rng); });
}

bool reassociate(Program& program, Rng& rng) {
  if (rewrite_somewhere(program, rng, regroupable, [](const ExprP& node, Owner) { return regroup(node); })) return true;
  auto swappable = [](const Expr& e) { return commutative(e) && !(is_trivial(*e.kids[0]) && is_trivial(*e.kids[1])); };
  return rewrite_somewhere(program, rng, swappable, [](const ExprP& node, Owner) { return commute(node); });
}

bool reorder_statements(Program& program, Rng& rng) {
  std::vector<std::pair<Block*, std::size_t>> pairs;
  for (const BlockSlot& slot : block_slots(program))
    for (std::size_t i = 0; i + 1 < slot.block->size(); ++i)
      if (independent((*slot.block)[i], (*slot.block)[i + 1])) pairs.emplace_back(slot.block, i);
  if (pairs.empty()) return false;
  const auto [block, i] = pairs[rng.below(pairs.size())];
  std::swap((*block)[i], (*block)[i + 1]);
  return true;
}

} // namespace cudiff::generator
