// functions: device functions made at their first call site. The callee's body is generated
// with one environment per calling thread (its argument values), so its expressions are
// checked on exactly the values they will see; each such function has one call site.
#include "generator/body_gen.h"

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

  auto expr = std::make_shared<Expr>();
  expr->kind = ExprKind::Call;
  expr->type = result_type;
  expr->id = index;
  for (const Gen& arg : args) expr->kids.push_back(arg.expr);
  Gen out{expr, {}};
  for (const Value& v : result.values) out.values.push_back(convert(v, result_type));
  return out;
}

} // namespace cudiff::generator
