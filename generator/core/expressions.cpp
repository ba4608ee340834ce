// expressions: phase two's expression builder. Every node is evaluated on every active thread
// as it is built; a node that would hit UB on any of them is rebuilt (another operator, the
// operands swapped, a masked shift amount) or replaced by one of its operands, so the emitted
// code uses plain C++ operators (YARPGen's BinaryExpr::rebuild).
#include "generator/core/body_gen.h"

#include <algorithm>

namespace cudiff::generator {
namespace {

const std::vector<std::string>& op_knob_names() {
  static const std::vector<std::string> names = {"add", "sub", "mul", "div", "rem", "shl", "shr", "and",  "or",
                                                 "xor", "lt",  "gt",  "le",  "ge",  "eq",  "ne",  "land", "lor"};
  return names;
}

std::shared_ptr<Expr> node(ExprKind kind, IntType type) {
  auto expr = std::make_shared<Expr>();
  expr->kind = kind;
  expr->type = type;
  return expr;
}

ExprP constant_expr(Value value) {
  auto expr = std::make_shared<Expr>();
  expr->kind = ExprKind::Const;
  expr->type = value.type;
  expr->constant = value;
  return expr;
}

} // namespace

BodyGen::BodyGen(GenContext& ctx, std::vector<Env> envs, bool in_kernel, int call_depth, std::string ns)
    : ctx_(ctx), envs_(std::move(envs)), in_kernel_(in_kernel), call_depth_(call_depth), ns_(std::move(ns)) {
  for (std::size_t i = 0; i < envs_.size(); ++i) active_.push_back(static_cast<int>(i));
}

int BodyGen::add_var(const std::string& name, IntType type) {
  vars.push_back(Var{name, type});
  return static_cast<int>(vars.size()) - 1;
}

void BodyGen::set_var(int env, int id, Value value) {
  auto& slots = envs_[env].vars;
  if (slots.size() <= static_cast<std::size_t>(id)) slots.resize(id + 1);
  slots[id] = value;
}

std::vector<int> BodyGen::readable_vars() const {
  std::vector<int> ids;
  for (const VarState& state : visible)
    if (state.readable) ids.push_back(state.id);
  return ids;
}

Gen BodyGen::constant(IntType type) {
  Value value = random_value(ctx_, type);
  return Gen{constant_expr(value), std::vector<Value>(active_.size(), value)};
}

Gen BodyGen::cast(Gen value, IntType type) {
  if (value.expr->type == type) return value;
  auto expr = node(ExprKind::Cast, type);
  expr->kids = {value.expr};
  for (Value& v : value.values) v = convert(v, type);
  value.expr = expr;
  return value;
}

Gen BodyGen::fold_vars(const std::vector<int>& ids) {
  Gen folded = Gen{constant_expr(Value{IntType::ULLong, 0}),
                   std::vector<Value>(active_.size(), Value{IntType::ULLong, 0})};
  bool first = true;
  for (int id : ids) {
    auto var = node(ExprKind::Var, vars[id].type);
    var->id = id;
    std::vector<Value> values;
    for (int env : active_) values.push_back(*envs_[env].vars[id]);
    Gen item = cast(Gen{var, values}, IntType::ULLong);
    if (first) {
      folded = item;
      first = false;
      continue;
    }
    bool ok = false;
    folded = make_binary(BinaryOp::BitXor, folded, item, ok);
  }
  return folded;
}

Gen BodyGen::leaf() {
  enum { Variable, Constant, BuiltinVar, NamedConst };
  for (int attempt = 0; attempt < 4; ++attempt) {
    switch (ctx_.weighted("expr.leaf.", {"var", "const", "builtin", "named"})) {
    case Variable: {
      std::vector<int> ids = readable_vars();
      if (ids.empty()) break;
      const int id = ids[ctx_.rng.below(ids.size())];
      std::vector<Value> values;
      bool defined = true;
      for (int env : active_) {
        const auto& slots = envs_[env].vars;
        if (slots.size() <= static_cast<std::size_t>(id) || !slots[id]) {
          defined = false;
          break;
        }
        values.push_back(*slots[id]);
      }
      if (!defined) break;  // never read what some thread has not initialized
      auto expr = node(ExprKind::Var, vars[id].type);
      expr->id = id;
      return Gen{expr, values};
    }
    case Constant: return constant(random_type(ctx_));
    case BuiltinVar: {
      if (!ctx_.on("builtin_variables")) break;
      ctx_.use("builtin_variables");
      const auto builtin = static_cast<Builtin>(ctx_.rng.below(12));
      auto expr = node(ExprKind::Builtin, IntType::UInt);
      expr->id = static_cast<int>(builtin);
      std::vector<Value> values;
      for (int env : active_) values.push_back(ctx_.interpreter.eval(*expr, envs_[env]).value);
      return Gen{expr, values};
    }
    case NamedConst: {
      if (!ctx_.on("constexpr_host_variable")) break;
      ctx_.use("constexpr_host_variable");
      auto& constants = ctx_.program.constants;
      std::vector<std::size_t> mine;
      for (std::size_t i = 0; i < constants.size(); ++i)
        if (constants[i].ns == ns_) mine.push_back(i);
      if (mine.empty() || ctx_.chance("expr.named.fresh")) {
        IntType type = random_type(ctx_);
        if (type == IntType::Bool) type = IntType::Int;
        constants.push_back(NamedConstant{ctx_.fresh("kConst"), ns_, random_value(ctx_, type)});
        mine.push_back(constants.size() - 1);
      }
      const NamedConstant& chosen = constants[mine[ctx_.rng.below(mine.size())]];
      auto expr = node(ExprKind::Named, chosen.value.type);
      expr->constant = chosen.value;
      expr->text = chosen.name;
      return Gen{expr, std::vector<Value>(active_.size(), chosen.value)};
    }
    }
  }
  return constant(random_type(ctx_));
}

Gen BodyGen::make_binary(BinaryOp op, const Gen& a, const Gen& b, bool& ok) {
  Gen out;
  out.values.reserve(a.values.size());
  for (std::size_t i = 0; i < a.values.size(); ++i) {
    Outcome result = apply(op, a.values[i], b.values[i]);
    if (!result.ok()) {
      ok = false;
      return out;
    }
    out.values.push_back(result.value);
  }
  auto expr = node(ExprKind::Binary, result_type(op, a.expr->type, b.expr->type));
  expr->binary = op;
  expr->kids = {a.expr, b.expr};
  out.expr = expr;
  ok = true;
  return out;
}

Gen BodyGen::binary(int depth) {
  Gen a = expr(depth - 1);
  Gen b = expr(depth - 1);
  const auto& ops = all_binary_ops();
  BinaryOp op = ops[ctx_.weighted("expr.op.", op_knob_names())];
  bool ok = false;
  Gen built = make_binary(op, a, b, ok);
  if (ok) return built;
  // A shift whose amount is out of range on some thread: mask the amount into [0, width).
  if (op == BinaryOp::Shl || op == BinaryOp::Shr) {
    const int width = bit_width(promote(a.expr->type));
    bool mask_ok = false;
    Gen masked = make_binary(BinaryOp::BitAnd, b,
                             Gen{constant_expr(Value::make(IntType::Int, width - 1)),
                                 std::vector<Value>(b.values.size(), Value::make(IntType::Int, width - 1))},
                             mask_ok);
    if (mask_ok) {
      built = make_binary(op, a, masked, ok);
      if (ok) return built;
    }
  }
  built = make_binary(op, b, a, ok);
  if (ok) return built;
  const int tries = static_cast<int>(ctx_.knob("expr.rebuild.tries"));
  for (int t = 0; t < tries; ++t) {
    built = make_binary(ops[ctx_.weighted("expr.op.", op_knob_names())], a, b, ok);
    if (ok) return built;
  }
  return ctx_.rng.chance(0.5) ? a : b;
}

Gen BodyGen::unary(int depth) {
  Gen a = expr(depth - 1);
  static const UnaryOp ops[] = {UnaryOp::Neg, UnaryOp::BitNot, UnaryOp::LogNot, UnaryOp::Plus};
  const UnaryOp op = ops[ctx_.weighted("expr.unary.", {"neg", "bitnot", "lognot", "plus"})];
  Gen out;
  for (const Value& v : a.values) {
    Outcome result = apply(op, v);
    if (!result.ok()) return a;  // -INT_MIN on some thread: keep the operand
    out.values.push_back(result.value);
  }
  auto expr = node(ExprKind::Unary, result_type(op, a.expr->type));
  expr->unary = op;
  expr->kids = {a.expr};
  out.expr = expr;
  return out;
}

Gen BodyGen::conditional(int depth) {
  Gen c = expr(depth - 1);
  Gen a = expr(depth - 1);
  Gen b = expr(depth - 1);
  const IntType type = conditional_type(a.expr->type, b.expr->type);
  auto expr = node(ExprKind::Cond, type);
  expr->kids = {c.expr, a.expr, b.expr};
  Gen out{expr, {}};
  for (std::size_t i = 0; i < c.values.size(); ++i)
    out.values.push_back(convert(c.values[i].bits != 0 ? a.values[i] : b.values[i], type));
  return out;
}

Gen BodyGen::load(int depth) {
  std::vector<int> candidates;
  const auto& arrays = ctx_.program.arrays;
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    const Array& array = arrays[i];
    if (ctx_.program.array_ns[i] != ns_) continue;
    if ((array.kind == ArrayKind::Input && in_kernel_) || array.kind == ArrayKind::Constant ||
        array.kind == ArrayKind::DeviceGlobal || array.kind == ArrayKind::StaticLocal)
      candidates.push_back(static_cast<int>(i));
  }
  if (candidates.empty()) return leaf();
  const int id = candidates[ctx_.rng.below(candidates.size())];
  const Array& array = arrays[id];
  Gen index = expr(depth - 1);
  const bool in_range = std::all_of(index.values.begin(), index.values.end(), [&](const Value& v) {
    return !v.is_negative() && v.bits < static_cast<std::uint64_t>(array.length);
  });
  if (!in_range) {
    // Lengths are powers of two: `& (length - 1)` is in bounds for every value (two's complement).
    const Value mask = Value::make(IntType::Int, array.length - 1);
    bool ok = false;
    index = make_binary(BinaryOp::BitAnd, index,
                        Gen{constant_expr(mask), std::vector<Value>(index.values.size(), mask)}, ok);
  }
  auto expr = node(ExprKind::Load, array.elem);
  expr->id = id;
  expr->kids = {index.expr};
  Gen out{expr, {}};
  for (const Value& i : index.values) out.values.push_back(array.values[i.bits]);
  if (array.kind == ArrayKind::Constant) ctx_.use("constant_memory");
  if (array.kind == ArrayKind::DeviceGlobal) ctx_.use("device_global_array");
  if (array.kind == ArrayKind::StaticLocal) ctx_.use("static_local");
  return out;
}

// A variadic fold template's call, e.g. cudiff_fold_right_add(x1, x2, x3) = (xs + ...): in the
// IR a chain of Binary nodes nested the same way, so it is checked and evaluated as usual.
Gen BodyGen::fold(int depth) {
  static const BinaryOp ops[] = {BinaryOp::Add,    BinaryOp::Sub,   BinaryOp::Mul,
                                 BinaryOp::BitAnd, BinaryOp::BitOr, BinaryOp::BitXor};
  static const char* const names[] = {"add", "sub", "mul", "and", "or", "xor"};
  const std::size_t which = ctx_.rng.below(6);
  const bool right = ctx_.chance("expr.fold.right");
  const int count = 2 + static_cast<int>(ctx_.rng.below(static_cast<std::uint64_t>(
                            std::max(0, static_cast<int>(ctx_.knob("expr.fold.operands.max")) - 1))));
  std::vector<Gen> operands;
  for (int i = 0; i < count; ++i) operands.push_back(expr(depth - 1));
  // Right fold: x1 op (x2 op (... xn)), built from the end; left fold: ((x1 op x2) op ...) op xn.
  Gen acc = right ? operands.back() : operands.front();
  int used_count = 1;
  for (int i = 1; i < count; ++i) {
    const Gen& next = right ? operands[count - 1 - i] : operands[i];
    bool ok = false;
    Gen built = right ? make_binary(ops[which], next, acc, ok) : make_binary(ops[which], acc, next, ok);
    if (!ok) break;  // UB on some thread: fold the operands so far
    acc = built;
    ++used_count;
  }
  if (used_count < 2) return acc;
  auto head = std::make_shared<Expr>(*acc.expr);
  head->spell = right ? Expr::Spell::FoldRight : Expr::Spell::FoldLeft;
  head->fold_count = used_count;
  acc.expr = head;
  ctx_.program.helpers.insert(std::string(right ? "fold_right_" : "fold_left_") + names[which]);
  ctx_.use("variadic_fold");
  return acc;
}

// cudiff_select(x): `if constexpr (sizeof(T) >= 4) return x ^ kScale<T>; else return x;`
// over a variable template and an alias template; in the IR `x ^ T(3)` or a same-type cast.
Gen BodyGen::select(int depth) {
  Gen x = expr(depth - 1);
  const IntType type = x.expr->type;
  auto head = std::make_shared<Expr>();
  head->type = type;
  head->spell = Expr::Spell::Select;
  if (bit_width(type) >= 32) {
    const Value k = Value::make(type, 3);
    head->kind = ExprKind::Binary;
    head->binary = BinaryOp::BitXor;
    head->kids = {x.expr, constant_expr(k)};
    for (Value& v : x.values) v = apply(BinaryOp::BitXor, v, k).value;
  } else {
    head->kind = ExprKind::Cast;
    head->kids = {x.expr};
  }
  x.expr = head;
  ctx_.program.helpers.insert("select");
  ctx_.use("template_select");
  return x;
}

Gen BodyGen::expr(int depth) {
  if (depth <= 0 || ctx_.chance("expr.leaf")) return leaf();
  if (ctx_.on("variadic_fold") && ctx_.chance("expr.fold")) return fold(depth);
  if (ctx_.on("template_select") && ctx_.chance("expr.select")) return select(depth);
  if (ctx_.chance("expr.spelled")) return spelled(depth);
  enum { Binary, Unary, Cond, Cast, Load, Call };
  switch (ctx_.weighted("expr.node.", {"binary", "unary", "cond", "cast", "load", "call"})) {
  case Binary: return binary(depth);
  case Unary: return unary(depth);
  case Cond:
    if (!ctx_.on("conditional_operator")) return binary(depth);
    ctx_.use("conditional_operator");
    return conditional(depth);
  case Cast: return cast(expr(depth - 1), random_type(ctx_));
  case Load: return load(depth);
  case Call:
    if (!ctx_.on("device_functions") || call_depth_ >= static_cast<int>(ctx_.knob("function.call_depth.max")) ||
        static_cast<int>(ctx_.program.functions.size()) >= ctx_.count("functions"))
      return binary(depth);
    return call(depth);
  }
  return leaf();
}

} // namespace cudiff::generator
