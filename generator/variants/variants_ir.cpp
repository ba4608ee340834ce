// variants_ir: what the variant transforms share — building IR nodes, renaming and cloning
// with fresh variables, finding the program's expressions and blocks, and the opaque values
// and conditions (known to the generator, unknown to the compilers).
#include "common/common.h"
#include "generator/variants/variants.h"

namespace cudiff::generator {

ExprP make_const(Value value) {
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::Const;
  e->type = value.type;
  e->constant = value;
  return e;
}

ExprP make_var(int id, IntType type) {
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::Var;
  e->type = type;
  e->id = id;
  return e;
}

ExprP make_builtin(Builtin builtin) {
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::Builtin;
  e->type = IntType::UInt;
  e->id = static_cast<int>(builtin);
  return e;
}

ExprP make_binary(BinaryOp op, ExprP a, ExprP b) {
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::Binary;
  e->binary = op;
  e->type = result_type(op, a->type, b->type);
  e->kids = {std::move(a), std::move(b)};
  return e;
}

ExprP make_cast(IntType type, ExprP operand) {
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::Cast;
  e->type = type;
  e->kids = {std::move(operand)};
  return e;
}

ExprP make_load(const Program& program, int array, std::uint32_t index) {
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::Load;
  e->type = program.arrays[array].elem;
  e->id = array;
  e->kids = {make_const(Value::make_unsigned(IntType::UInt, index))};
  return e;
}

ExprP make_cond(ExprP condition, ExprP a, ExprP b) {
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::Cond;
  e->type = conditional_type(a->type, b->type);
  e->kids = {std::move(condition), std::move(a), std::move(b)};
  return e;
}

int add_variant_var(std::vector<Var>& vars, IntType type) {
  vars.push_back(Var{"emi_" + std::to_string(vars.size()), type});
  return static_cast<int>(vars.size()) - 1;
}

void vars_read(const Expr& expr, std::set<int>& into) {
  if (expr.kind == ExprKind::Var) into.insert(expr.id);
  for (const ExprP& kid : expr.kids) vars_read(*kid, into);
}

bool any_node(const Expr& expr, const std::function<bool(const Expr&)>& test) {
  if (test(expr)) return true;
  for (const ExprP& kid : expr.kids)
    if (any_node(*kid, test)) return true;
  return false;
}

ExprP remap_vars(const ExprP& expr, const std::map<int, int>& remap) {
  if (expr->kind == ExprKind::Var) {
    const auto found = remap.find(expr->id);
    if (found == remap.end()) return expr;
    auto copy = std::make_shared<Expr>(*expr);
    copy->id = found->second;
    return copy;
  }
  bool changed = false;
  std::vector<ExprP> kids;
  for (const ExprP& kid : expr->kids) {
    kids.push_back(remap_vars(kid, remap));
    changed = changed || kids.back() != kid;
  }
  if (!changed) return expr;
  auto copy = std::make_shared<Expr>(*expr);
  copy->kids = std::move(kids);
  return copy;
}

namespace {

bool declares(StmtKind kind) {
  return kind == StmtKind::Decl || kind == StmtKind::For || kind == StmtKind::Exchange || kind == StmtKind::Shuffle ||
         kind == StmtKind::Vote || kind == StmtKind::SyncCount;
}

Stmt clone_stmt(const Stmt& stmt, const std::vector<Var>& from, std::vector<Var>& to, std::map<int, int>& remap) {
  Stmt copy = stmt;
  if (copy.expr) copy.expr = remap_vars(copy.expr, remap);
  if (stmt.kind == StmtKind::Assign) {
    const auto found = remap.find(stmt.var);
    if (found != remap.end()) copy.var = found->second;
  }
  if (declares(stmt.kind)) {
    // The initializer never reads the variable it declares, so renaming after it is right.
    const IntType type = from[stmt.var].type;
    copy.var = add_variant_var(to, type);
    remap[stmt.var] = copy.var;
  }
  // Nested blocks see the outer names; what they declare stays inside them.
  for (auto [source, target] : {std::pair{&stmt.body, &copy.body}, std::pair{&stmt.else_body, &copy.else_body}}) {
    std::map<int, int> inner = remap;
    *target = clone_fresh(*source, from, to, inner);
  }
  for (std::size_t c = 0; c < stmt.cases.size(); ++c) {
    std::map<int, int> inner = remap;
    copy.cases[c].body = clone_fresh(stmt.cases[c].body, from, to, inner);
  }
  return copy;
}

void expr_slots_of(Block& block, Owner owner, std::vector<ExprSlot>& slots) {
  for (Stmt& stmt : block) {
    if (stmt.expr) slots.push_back(ExprSlot{&stmt.expr, owner});
    expr_slots_of(stmt.body, owner, slots);
    expr_slots_of(stmt.else_body, owner, slots);
    for (SwitchCase& c : stmt.cases) expr_slots_of(c.body, owner, slots);
  }
}

void block_slots_of(Block& block, Owner owner, bool top, std::vector<BlockSlot>& slots) {
  slots.push_back(BlockSlot{&block, owner, top});
  for (Stmt& stmt : block) {
    if (stmt.kind == StmtKind::If) {
      block_slots_of(stmt.body, owner, false, slots);
      block_slots_of(stmt.else_body, owner, false, slots);
    } else if (stmt.kind == StmtKind::For) {
      block_slots_of(stmt.body, owner, false, slots);
    } else if (stmt.kind == StmtKind::Switch) {
      for (SwitchCase& c : stmt.cases) block_slots_of(c.body, owner, false, slots);
      block_slots_of(stmt.body, owner, false, slots);
    }
  }
}

} // namespace

Block clone_fresh(const Block& block, const std::vector<Var>& from, std::vector<Var>& to, std::map<int, int>& remap) {
  Block copy;
  for (const Stmt& stmt : block) copy.push_back(clone_stmt(stmt, from, to, remap));
  return copy;
}

Block clone_fresh(const Block& block, std::vector<Var>& vars) {
  std::map<int, int> remap;
  return clone_fresh(block, vars, vars, remap);
}

bool contains_return(const Stmt& stmt) {
  if (stmt.kind == StmtKind::Return) return true;
  for (const Block* block : {&stmt.body, &stmt.else_body})
    for (const Stmt& inner : *block)
      if (contains_return(inner)) return true;
  for (const SwitchCase& c : stmt.cases)
    for (const Stmt& inner : c.body)
      if (contains_return(inner)) return true;
  return false;
}

void vars_written(const Stmt& stmt, std::set<int>& into) {
  if (stmt.var >= 0 && (stmt.kind == StmtKind::Assign || declares(stmt.kind))) into.insert(stmt.var);
  for (const Block* block : {&stmt.body, &stmt.else_body})
    for (const Stmt& inner : *block) vars_written(inner, into);
  for (const SwitchCase& c : stmt.cases)
    for (const Stmt& inner : c.body) vars_written(inner, into);
}

std::vector<ExprSlot> expr_slots(Program& program) {
  std::vector<ExprSlot> slots;
  for (std::size_t k = 0; k < program.kernels.size(); ++k)
    expr_slots_of(program.kernels[k].body, Owner{static_cast<int>(k), -1}, slots);
  for (std::size_t f = 0; f < program.functions.size(); ++f) {
    const Owner owner{-1, static_cast<int>(f)};
    expr_slots_of(program.functions[f].body, owner, slots);
    slots.push_back(ExprSlot{&program.functions[f].result_expr, owner});
  }
  return slots;
}

std::vector<BlockSlot> block_slots(Program& program) {
  std::vector<BlockSlot> slots;
  for (std::size_t k = 0; k < program.kernels.size(); ++k)
    block_slots_of(program.kernels[k].body, Owner{static_cast<int>(k), -1}, true, slots);
  for (std::size_t f = 0; f < program.functions.size(); ++f)
    block_slots_of(program.functions[f].body, Owner{-1, static_cast<int>(f)}, false, slots);
  return slots;
}

std::vector<Var>& owner_vars(Program& program, Owner owner) {
  return owner.kernel >= 0 ? program.kernels[owner.kernel].vars : program.functions[owner.function].vars;
}

namespace {

/// Pre-order walk shared by count_nodes and rewrite_node; `index` counts down to the target.
ExprP walk(const ExprP& expr, int& index, const std::function<bool(const Expr&)>& eligible,
           const std::function<ExprP(const ExprP&)>* rewrite) {
  if (eligible(*expr)) {
    if (index == 0 && rewrite) {
      index = -1;
      return (*rewrite)(expr);
    }
    --index;
  }
  if (expr->spell != Expr::Spell::Plain) return expr;
  bool changed = false;
  std::vector<ExprP> kids;
  for (const ExprP& kid : expr->kids) {
    kids.push_back(index < 0 && rewrite ? kid : walk(kid, index, eligible, rewrite));
    changed = changed || kids.back() != kid;
  }
  if (!changed) return expr;
  auto copy = std::make_shared<Expr>(*expr);
  copy->kids = std::move(kids);
  return copy;
}

} // namespace

int count_nodes(const Expr& expr, const std::function<bool(const Expr&)>& eligible) {
  int index = 0;
  // A never-reached target: walk counts every eligible node down from zero.
  walk(std::shared_ptr<const Expr>(std::shared_ptr<const Expr>{}, &expr), index, eligible, nullptr);
  return -index;
}

ExprP rewrite_node(const ExprP& expr, int index, const std::function<bool(const Expr&)>& eligible,
                   const std::function<ExprP(const ExprP&)>& rewrite) {
  return walk(expr, index, eligible, &rewrite);
}

ExprP opaque_key(const Program& program, Owner owner, IntType type, Rng& rng) {
  if (owner.kernel >= 0) {
    const Kernel& kernel = program.kernels[owner.kernel];
    if (kernel.input_array >= 0 && rng.chance(0.75)) {
      const Array& input = program.arrays[kernel.input_array];
      return make_cast(type,
                       make_load(program, kernel.input_array,
                                 static_cast<std::uint32_t>(rng.below(static_cast<std::uint64_t>(input.length)))));
    }
  }
  // Launch dimensions are run-time values in device functions too.
  return make_cast(type, make_builtin(rng.chance(0.5) ? Builtin::GridDimX : Builtin::BlockDimX));
}

ExprP opaque_false(const Program& program, const Kernel& kernel, Rng& rng) {
  if (!kernel.params.empty() && rng.chance(0.3)) {
    const ScalarParam& param = kernel.params[rng.below(kernel.params.size())];
    const Value other = convert(Value{IntType::ULLong, param.value.bits ^ (1 + rng.below(255))}, param.value.type);
    if (!(other == param.value))
      return make_binary(BinaryOp::Eq, make_var(param.var, param.value.type), make_const(other));
  }
  if (kernel.input_array < 0) throw Error(ErrorKind::internal, "a kernel without an input array");
  const Array& input = program.arrays[kernel.input_array];
  const auto index = static_cast<std::uint32_t>(rng.below(static_cast<std::uint64_t>(input.length)));
  const Value value = input.values[index];
  // Another value of the element type: bool has one other, every wider type many.
  const Value other = convert(Value{IntType::ULLong, value.bits ^ (1 + rng.below(255))}, value.type);
  const Value differing = other == value ? convert(Value{IntType::ULLong, value.bits ^ 1}, value.type) : other;
  return make_binary(BinaryOp::Eq, make_load(program, kernel.input_array, index), make_const(differing));
}

ExprP opaque_any(const Program& program, const Kernel& kernel, Rng& rng) {
  // (in[gtid & (n - 1)] & m) != 0: n is a power of two, so the index is in bounds.
  const Array& input = program.arrays[kernel.input_array];
  auto load = std::make_shared<Expr>();
  load->kind = ExprKind::Load;
  load->type = input.elem;
  load->id = kernel.input_array;
  load->kids = {
      make_binary(BinaryOp::BitAnd, make_var(1, IntType::UInt),
                  make_const(Value::make_unsigned(IntType::UInt, static_cast<std::uint64_t>(input.length - 1))))};
  const Value mask = Value::make(IntType::Int, std::int64_t{1} << rng.below(4));
  return make_binary(BinaryOp::Ne, make_binary(BinaryOp::BitAnd, load, make_const(mask)),
                     make_const(Value::make(IntType::Int, 0)));
}

} // namespace cudiff::generator
