// variants_calls: outlining an expression into a __noinline__ device function (its free
// variables become parameters), and inlining a device function's body into the kernel that
// calls it (parameters and locals become kernel variables, the result one more).
#include "common/common.h"
#include "generator/variants/variants.h"

namespace cudiff::generator {
namespace {

/// What a device function at namespace scope can compute by itself: no kernel-local names (the
/// input pointer, shared arrays, the lambdas, the ABI family's parameters behind a Named leaf)
/// and no calls (a new function is defined before the others: it may call none of them).
bool outlinable_leaf(const Program& program, const Expr& e) {
  if (e.kind == ExprKind::Call || e.kind == ExprKind::Named || e.spell == Expr::Spell::Lambda) return false;
  if (e.kind != ExprKind::Load) return true;
  const ArrayKind kind = program.arrays[e.id].kind;
  return kind == ArrayKind::Constant || kind == ArrayKind::DeviceGlobal || kind == ArrayKind::StaticLocal;
}

bool outlinable(const Program& program, const Expr& e) {
  if (e.kind == ExprKind::Const || e.kind == ExprKind::Var || e.kind == ExprKind::Builtin) return false;
  return !any_node(e, [&](const Expr& node) { return !outlinable_leaf(program, node); });
}

std::string function_ns(const Program& program, Owner owner) {
  return owner.kernel >= 0 ? program.kernels[owner.kernel].ns : program.function_ns[owner.function];
}

/// A call of `callee` this pass may replace by its body: not recursive, not a template (its
/// parameter type is deduced at the call), in the kernel's own namespace.
bool inlinable_call(const Program& program, const Kernel& kernel, const Expr& e) {
  if (e.kind != ExprKind::Call || e.spell != Expr::Spell::Plain) return false;
  const Function& callee = program.functions[e.id];
  if (callee.recursive || callee.template_param >= 0 || program.function_ns[e.id] != kernel.ns) return false;
  for (const Stmt& stmt : callee.body)
    if (contains_return(stmt)) return false;
  return true;
}

/// The callee's body as kernel statements, its variables renamed into `vars` (`remap` holds the
/// parameters' and ends holding every top-level local's new id).
void hoisted_body(const Function& callee, std::map<int, int>& remap, std::vector<Var>& vars, Block& into) {
  Block body = clone_fresh(callee.body, callee.vars, vars, remap);
  into.insert(into.end(), body.begin(), body.end());
}

} // namespace

bool outline_expression(Program& program, Rng& rng) {
  auto eligible = [&](const Expr& e) { return outlinable(program, e); };
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
  const std::vector<Var>& caller_vars = owner_vars(program, slot.owner);
  const int function_index = static_cast<int>(program.functions.size());
  Function outlined;
  outlined.name = "emi_outlined_" + std::to_string(function_index);
  outlined.inlining = Inlining::NoInline;
  ExprP call;
  *slot.expr = rewrite_node(*slot.expr, index, eligible, [&](const ExprP& node) {
    std::set<int> free;
    vars_read(*node, free);
    std::map<int, int> remap;
    auto made = std::make_shared<Expr>();
    made->kind = ExprKind::Call;
    made->type = node->type;
    made->id = function_index;
    for (int var : free) {
      remap[var] = static_cast<int>(outlined.vars.size());
      outlined.vars.push_back(Var{"p" + std::to_string(outlined.vars.size()), caller_vars[var].type});
      made->kids.push_back(make_var(var, caller_vars[var].type));
    }
    outlined.param_count = static_cast<int>(outlined.vars.size());
    outlined.result = node->type;
    outlined.result_expr = remap_vars(node, remap);
    return ExprP(made);
  });
  // Appended last: emitted first among its namespace's functions, called by an earlier one or
  // a kernel, both allowed ("a callee always comes after its callers").
  program.function_ns.push_back(function_ns(program, slot.owner));
  program.functions.push_back(std::move(outlined));
  return true;
}

bool inline_call(Program& program, Rng& rng) {
  struct Site {
    int kernel;
    Block* block;
    std::size_t index;
    int calls;
  };
  std::vector<Site> sites;
  for (const BlockSlot& slot : block_slots(program)) {
    if (slot.owner.kernel < 0) continue;
    const Kernel& kernel = program.kernels[slot.owner.kernel];
    auto eligible = [&](const Expr& e) { return inlinable_call(program, kernel, e); };
    for (std::size_t i = 0; i < slot.block->size(); ++i)
      if (const ExprP& expr = (*slot.block)[i].expr; expr)
        if (const int calls = count_nodes(*expr, eligible); calls > 0)
          sites.push_back(Site{slot.owner.kernel, slot.block, i, calls});
  }
  if (sites.empty()) return false;
  const Site site = sites[rng.below(sites.size())];
  Kernel& kernel = program.kernels[site.kernel];
  auto eligible = [&](const Expr& e) { return inlinable_call(program, kernel, e); };
  Stmt& stmt = (*site.block)[site.index];
  Block hoisted;
  // Every operand of a generated expression is defined on every lane (docs/generator.md), so the
  // call may be computed before the statement that contains it.
  stmt.expr = rewrite_node(stmt.expr, static_cast<int>(rng.below(static_cast<std::uint64_t>(site.calls))), eligible,
                           [&](const ExprP& call) {
                             const Function& callee = program.functions[call->id];
                             std::map<int, int> remap;
                             for (int p = 0; p < callee.param_count; ++p) {
                               Stmt param;
                               param.kind = StmtKind::Decl;
                               param.target_type = callee.vars[p].type;
                               param.var = add_variant_var(kernel.vars, param.target_type);
                               param.expr = make_cast(param.target_type, call->kids[p]);
                               remap[p] = param.var;
                               hoisted.push_back(std::move(param));
                             }
                             // The callee's locals become the kernel's; its result reads them.
                             hoisted_body(callee, remap, kernel.vars, hoisted);
                             Stmt result;
                             result.kind = StmtKind::Decl;
                             result.target_type = callee.result;
                             result.expr = make_cast(callee.result, remap_vars(callee.result_expr, remap));
                             result.var = add_variant_var(kernel.vars, callee.result);
                             hoisted.push_back(result);
                             return make_var(result.var, callee.result);
                           });
  site.block->insert(site.block->begin() + static_cast<std::ptrdiff_t>(site.index), hoisted.begin(), hoisted.end());
  return true;
}

}  // namespace cudiff::generator
