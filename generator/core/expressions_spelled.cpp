// expressions_spelled: binary nodes that stay plain in the IR (so value tracking, the
// interpreter and validation treat them as usual) but are spelled through C++ machinery the
// compilers must get right: a class template's partial specializations, overloads chosen by
// SFINAE, built-in vector types, and the kernel's extended lambdas and functors.
#include "generator/core/body_gen.h"

namespace cudiff::generator {
namespace {

ExprP constant_node(Value value) {
  auto expr = std::make_shared<Expr>();
  expr->kind = ExprKind::Const;
  expr->type = value.type;
  expr->constant = value;
  return expr;
}

Gen constant_gen(Value value, std::size_t lanes) { return Gen{constant_node(value), std::vector<Value>(lanes, value)}; }

/// The operators whose result type is the operands' common type, so `T(a) op T(b)` (what a
/// helper taking T parameters computes) equals `a op b`.
const BinaryOp kClosedOps[] = {BinaryOp::Add,    BinaryOp::Sub,   BinaryOp::Mul,
                               BinaryOp::BitAnd, BinaryOp::BitOr, BinaryOp::BitXor};

bool wide(IntType type) { return bit_width(type) >= 32; }

Gen respelled(Gen built, Expr::Spell spell, int index) {
  auto head = std::make_shared<Expr>(*built.expr);
  head->spell = spell;
  head->spell_index = index;
  built.expr = head;
  return built;
}

} // namespace

Gen BodyGen::class_template(int depth) {
  Gen a = expr(depth - 1);
  Gen b = expr(depth - 1);
  const BinaryOp op = kClosedOps[ctx_.rng.below(6)];
  bool ok = false;
  Gen built = make_binary(op, a, b, ok);
  if (!ok) built = make_binary(BinaryOp::BitXor, a, b, ok);  // ^ is never undefined
  ctx_.program.helpers.insert("binop");
  ctx_.use("class_template");
  return respelled(built, Expr::Spell::ClassTemplate, 0);
}

Gen BodyGen::sfinae(int depth) {
  Gen x = expr(depth - 1);
  if (!wide(x.expr->type)) x = cast(x, ctx_.rng.chance(0.5) ? IntType::Int : IntType::UInt);
  const IntType type = x.expr->type;
  bool ok = false;
  Gen built = make_binary(BinaryOp::BitXor, x,
                          constant_gen(Value::make(type, is_signed(type) ? 5 : 10), x.values.size()), ok);
  ctx_.program.helpers.insert("sfinae");
  ctx_.use("sfinae");
  return respelled(built, Expr::Spell::Sfinae, 0);
}

Gen BodyGen::vector_value(int depth) {
  static const BinaryOp ops[] = {BinaryOp::Add, BinaryOp::BitOr, BinaryOp::BitXor};
  static const char* const names[] = {"add", "or", "xor"};
  Gen a = expr(depth - 1);
  Gen b = expr(depth - 1);
  const std::size_t which = ctx_.rng.below(3);
  bool ok = false;
  // Operands promote to at least int, so the type is always 4 or 8 bytes; `+` may overflow on
  // some thread, and `^` never does.
  Gen built = make_binary(ops[which], a, b, ok);
  if (!ok) built = make_binary(BinaryOp::BitXor, a, b, ok);
  const BinaryOp op = built.expr->binary;
  const std::size_t name = op == BinaryOp::Add ? 0 : op == BinaryOp::BitOr ? 1 : 2;
  // int4/uint4 exist for 4-byte types; the 64-bit 4-vectors are deprecated in CUDA 13.
  const int components = 2 + static_cast<int>(ctx_.rng.below(bit_width(built.expr->type) == 32 ? 3 : 2));
  ctx_.program.helpers.insert(std::string("v") + names[name] + std::to_string(components));
  ctx_.use("vector_values");
  return respelled(built, Expr::Spell::Vector, components);
}

Gen BodyGen::lambda_call(int depth) {
  Gen x = expr(depth - 1);
  x = cast(x, promote(x.expr->type));
  const IntType type = x.expr->type;
  std::vector<int> fitting;
  for (std::size_t i = 0; i < lambdas->size(); ++i)
    if ((*lambdas)[i].constant.type == type) fitting.push_back(static_cast<int>(i));
  int index = -1;
  if (!fitting.empty() && (static_cast<int>(lambdas->size()) >= static_cast<int>(ctx_.knob("kernel.lambdas.max")) ||
                           ctx_.chance("lambda.reuse")))
    index = fitting[ctx_.rng.below(fitting.size())];
  if (index < 0) {
    if (static_cast<int>(lambdas->size()) >= static_cast<int>(ctx_.knob("kernel.lambdas.max"))) return x;
    LambdaFn fn;
    fn.op = kClosedOps[ctx_.rng.below(6)];
    fn.constant = random_value(ctx_, type);
    const bool lambdas_on = ctx_.on("extended_lambda"), functors_on = ctx_.on("functor_argument");
    const std::size_t style = ctx_.weighted("lambda.capture.", {"by_value", "init", "this", "functor"});
    fn.capture = !lambdas_on                  ? Capture::Functor
                 : style == 3 && !functors_on ? Capture::ByValue
                                              : static_cast<Capture>(style);
    fn.host_device = fn.capture == Capture::ByValue && ctx_.chance("lambda.host_device");
    // A lambda's operator is fixed; an operand it would overflow on some thread gets `^`.
    bool ok = false;
    make_binary(fn.op, x, constant_gen(fn.constant, x.values.size()), ok);
    if (!ok) fn.op = BinaryOp::BitXor;
    lambdas->push_back(fn);
    index = static_cast<int>(lambdas->size()) - 1;
  }
  const LambdaFn& fn = (*lambdas)[index];
  bool ok = false;
  Gen built = make_binary(fn.op, x, constant_gen(fn.constant, x.values.size()), ok);
  if (!ok) return x;  // a reused lambda that would overflow here: keep the operand
  ctx_.use(fn.capture == Capture::Functor ? "functor_argument" : "extended_lambda");
  return respelled(built, Expr::Spell::Lambda, index);
}

Gen BodyGen::spelled(int depth) {
  std::vector<std::string> kinds;
  if (ctx_.on("class_template")) kinds.push_back("class_template");
  if (ctx_.on("sfinae")) kinds.push_back("sfinae");
  if (ctx_.on("vector_values")) kinds.push_back("vector");
  if (lambdas && (ctx_.on("extended_lambda") || ctx_.on("functor_argument"))) kinds.push_back("lambda");
  if (kinds.empty()) return binary(depth);
  const std::string kind = kinds[ctx_.weighted("expr.spelled.", kinds)];
  if (kind == "class_template") return class_template(depth);
  if (kind == "sfinae") return sfinae(depth);
  if (kind == "vector") return vector_value(depth);
  return lambda_call(depth);
}

} // namespace cudiff::generator
