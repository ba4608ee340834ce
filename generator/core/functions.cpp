// functions: device functions made at their first call site. The callee's body is generated
// with one environment per calling thread (its argument values), so its expressions are
// checked on exactly the values they will see; each such function has one call site.
#include "generator/core/body_gen.h"

#include <algorithm>

namespace cudiff::generator {

Gen BodyGen::call(int depth) {
  const int param_count = ctx_.count("function.params");
  std::vector<Gen> args;
  std::vector<IntType> types;
  for (int p = 0; p < param_count; ++p) {
    args.push_back(expr(depth - 1));
    types.push_back(ctx_.chance("function.param_same_type") ? args.back().expr->type : random_type(ctx_));
  }
  const int index = static_cast<int>(ctx_.program.functions.size());
  ctx_.program.functions.emplace_back();
  ctx_.program.function_ns.push_back(ns_);

  std::vector<Env> callee_envs(active_.size());
  for (std::size_t i = 0; i < active_.size(); ++i) {
    callee_envs[i].thread = envs_[active_[i]].thread;
    for (int p = 0; p < param_count; ++p) callee_envs[i].vars.push_back(convert(args[p].values[i], types[p]));
  }
  BodyGen callee(ctx_, std::move(callee_envs), false, call_depth_ + 1, ns_);
  for (int p = 0; p < param_count; ++p) {
    const int id = callee.add_var(ctx_.fresh("a"), types[p]);
    callee.visible.push_back(VarState{id, true, true, false});
  }
  const Skeleton skeleton = make_skeleton(ctx_, ctx_.count("function.statements"),
                                          static_cast<int>(ctx_.knob("function.nesting.max")), false);
  Block body = callee.fill(skeleton, true);
  Gen result = callee.expr(ctx_.count("expr.depth"));
  const IntType result_type = ctx_.chance("function.result_same_type") ? result.expr->type : random_type(ctx_);

  Function& function = ctx_.program.functions[index];
  function.name = ctx_.fresh("fn");
  function.result = result_type;
  function.param_count = param_count;
  function.vars = std::move(callee.vars);
  function.body = std::move(body);
  function.result_expr = result.expr;
  if (ctx_.on("inline_qualifiers") && ctx_.chance("function.inline_qualifier")) {
    function.inlining = ctx_.rng.chance(0.5) ? Inlining::NoInline : Inlining::ForceInline;
    ctx_.use("inline_qualifiers");
  }
  if (ctx_.on("device_function_pointer") && ctx_.chance("function.via_pointer")) {
    function.via_pointer = true;
    ctx_.use("device_function_pointer");
  }
  ctx_.use("device_functions");
  std::vector<Value> values;
  for (const Value& v : result.values) values.push_back(convert(v, result_type));

  // A function template over one parameter's type (called with that type, so the
  // instantiation is the function the body was generated for).
  if (!function.via_pointer && param_count > 0 && ctx_.on("function_template") && ctx_.chance("function.template")) {
    const int p = static_cast<int>(ctx_.rng.below(static_cast<std::uint64_t>(param_count)));
    function.template_param = p;
    function.template_default_result = ctx_.chance("function.template.default_result");
    // Deduction needs the argument's type to be the parameter's.
    function.template_explicit = args[p].expr->type != types[p] || ctx_.chance("function.template.explicit");
    ctx_.use("function_template");
  }

  // Bounded recursion on a trailing depth argument, evaluated by the interpreter.
  Gen depth_arg;
  if (!function.via_pointer && function.template_param < 0 && function.inlining != Inlining::ForceInline &&
      ctx_.on("device_recursion") && ctx_.chance("function.recursive")) {
    function.recursive = true;
    function.recursion_xor = random_value(ctx_, result_type);
    const int max_depth = std::min(4, static_cast<int>(ctx_.knob("function.recursion.depth.max")));
    if (ctx_.chance("function.recursion.per_thread")) {
      // (int)(threadIdx.x & mask), mask + 1 a power of two not above max_depth + 1.
      int mask = 0;
      while (mask * 2 + 1 <= max_depth) mask = mask * 2 + 1;
      auto tid = std::make_shared<Expr>();
      tid->kind = ExprKind::Builtin;
      tid->type = IntType::UInt;
      tid->id = static_cast<int>(Builtin::ThreadIdxX);
      std::vector<Value> tid_values;
      for (int env : active_) tid_values.push_back(ctx_.interpreter.eval(*tid, envs_[env]).value);
      const Value m = Value::make(IntType::UInt, mask);
      auto mask_expr = std::make_shared<Expr>();
      mask_expr->kind = ExprKind::Const;
      mask_expr->type = IntType::UInt;
      mask_expr->constant = m;
      bool ok = false;
      depth_arg = cast(make_binary(BinaryOp::BitAnd, Gen{tid, tid_values},
                                   Gen{mask_expr, std::vector<Value>(tid_values.size(), m)}, ok),
                       IntType::Int);
    } else {
      const Value d = Value::make(IntType::Int,
                                  static_cast<std::int64_t>(ctx_.rng.below(static_cast<std::uint64_t>(max_depth) + 1)));
      auto c = std::make_shared<Expr>();
      c->kind = ExprKind::Const;
      c->type = IntType::Int;
      c->constant = d;
      depth_arg = Gen{c, std::vector<Value>(active_.size(), d)};
    }
    for (const Value& depth : depth_arg.values)
      function.recursion_depth_max = std::max(function.recursion_depth_max, static_cast<int>(depth.as_signed()));
    for (std::size_t i = 0; i < values.size(); ++i) {
      const std::int64_t times = depth_arg.values[i].as_signed();
      for (std::int64_t t = 0; t < times; ++t)
        values[i] = convert(apply(BinaryOp::BitXor, values[i], function.recursion_xor).value, result_type);
    }
    ctx_.use("device_recursion");
  }

  auto expr = std::make_shared<Expr>();
  expr->kind = ExprKind::Call;
  expr->type = result_type;
  expr->id = index;
  for (const Gen& arg : args) expr->kids.push_back(arg.expr);
  if (function.recursive) expr->kids.push_back(depth_arg.expr);
  return Gen{expr, std::move(values)};
}

} // namespace cudiff::generator
