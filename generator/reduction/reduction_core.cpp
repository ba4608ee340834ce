// reduction_core: the IR reduction's edits inside a program's core (value-tracked) kernels and
// their device functions. Every edit is found on one program and names its target by position
// (a kernel; a block in block_slots' order and a statement in it; an expression in expr_slots'
// order and a node in count_nodes' pre-order), so it applies to a copy of that program. An edit
// may leave a program that is not valid (a variable used after its declaration went, a
// division by a zero it put there): the caller runs the interpreter and the validator on each
// candidate and drops those, so every candidate kept is valid by construction.
#include "generator/reduction/reduction.h"
#include "generator/variants/variants.h"

#include <algorithm>

namespace cudiff::generator {
namespace {

const char* statement_name(StmtKind kind) {
  switch (kind) {
  case StmtKind::Decl: return "declaration";
  case StmtKind::Assign: return "assignment";
  case StmtKind::If: return "if";
  case StmtKind::For: return "for";
  case StmtKind::Switch: return "switch";
  case StmtKind::WriteOut: return "output write";
  case StmtKind::Return: return "return";
  case StmtKind::Exchange: return "shared exchange";
  case StmtKind::Shuffle: return "shuffle";
  case StmtKind::Vote: return "vote";
  case StmtKind::SyncCount: return "__syncthreads_count";
  case StmtKind::Atomic: return "atomic";
  case StmtKind::WarpMatch: return "match";
  case StmtKind::WarpReduce: return "warp reduce";
  case StmtKind::Tile: return "tile";
  case StmtKind::AtomicLoop: return "atomic loop";
  }
  return "statement";
}

/// `into[index]` replaced by the statements of `body`.
void splice(Block& into, std::size_t index, Block body) {
  into.erase(into.begin() + static_cast<std::ptrdiff_t>(index));
  into.insert(into.begin() + static_cast<std::ptrdiff_t>(index), std::make_move_iterator(body.begin()),
              std::make_move_iterator(body.end()));
}

Stmt declaration(int var, IntType type, ExprP value) {
  Stmt decl;
  decl.kind = StmtKind::Decl;
  decl.var = var;
  decl.target_type = type;
  decl.expr = std::move(value);
  return decl;
}

/// Whether a statement makes a variable the statements after it may read: such a collective
/// is replaced by declarations of its results rather than deleted.
bool collective_with_result(const Stmt& s) {
  switch (s.kind) {
  case StmtKind::Exchange:
  case StmtKind::Shuffle:
  case StmtKind::Vote:
  case StmtKind::SyncCount:
  case StmtKind::WarpReduce:
  case StmtKind::Tile:
  case StmtKind::WarpMatch: return true;
  case StmtKind::AtomicLoop: return s.array >= 0;
  default: return false;
  }
}

/// Calls change(program, block, index) on statement `at` of block `slot` of a copy's
/// block_slots; false when the program has no such statement.
template <class Change>
ProgramEdit statement_edit(std::string what, std::string kind, std::size_t slot, std::size_t at, Change change) {
  return {std::move(what), std::move(kind), [slot, at, change](Program& p) {
            std::vector<BlockSlot> slots = block_slots(p);
            if (slot >= slots.size() || at >= slots[slot].block->size()) return false;
            return change(p, slots[slot], at);
          }};
}

void launch_edits(const Program& program, std::vector<ProgramEdit>& edits) {
  for (std::size_t k = 0; k < program.kernels.size(); ++k) {
    const Kernel& kernel = program.kernels[k];
    if (kernel.launch.blocks() > 1)
      edits.push_back({kernel.name + ": one block", "core: one block", [k](Program& p) {
                         if (k >= p.kernels.size() || p.kernels[k].launch.blocks() == 1) return false;
                         std::ranges::fill(p.kernels[k].launch.grid, 1u);
                         return true;
                       }});
    if (kernel.launch.threads_per_block() > 32)
      edits.push_back({kernel.name + ": one warp", "core: one warp", [k](Program& p) {
                         if (k >= p.kernels.size() || p.kernels[k].launch.threads_per_block() <= 32) return false;
                         Launch& launch = p.kernels[k].launch;
                         launch.block[0] = 32;
                         launch.block[1] = launch.block[2] = 1;
                         return true;
                       }});
  }
}

void statement_edits(const Program& program, std::vector<ProgramEdit>& edits) {
  // block_slots takes a program it may hand out pointers into; the copy is only read here.
  Program copy = program;
  const std::vector<BlockSlot> slots = block_slots(copy);
  for (std::size_t b = 0; b < slots.size(); ++b) {
    const Block& block = *slots[b].block;
    const std::string owner = slots[b].owner.kernel >= 0 ? program.kernels[slots[b].owner.kernel].name
                                                         : program.functions[slots[b].owner.function].name;
    for (std::size_t i = 0; i < block.size(); ++i) {
      const Stmt& s = block[i];
      const std::string name = owner + ": block " + std::to_string(b) + " statement " + std::to_string(i) + " (" +
                               statement_name(s.kind) + ")";
      auto add = [&](const std::string& what, const std::string& kind, auto change) {
        edits.push_back(statement_edit(what + " " + name, "core: " + kind, b, i, change));
      };
      add("delete", "delete a statement", [](Program&, const BlockSlot& at, std::size_t j) {
        at.block->erase(at.block->begin() + static_cast<std::ptrdiff_t>(j));
        return true;
      });
      switch (s.kind) {
      case StmtKind::If:
        add("keep the then branch of", "keep the then branch of an if",
            [](Program&, const BlockSlot& at, std::size_t j) {
              splice(*at.block, j, (*at.block)[j].body);
              return true;
            });
        if (!s.else_body.empty()) {
          add("keep the else branch of", "keep the else branch of an if",
              [](Program&, const BlockSlot& at, std::size_t j) {
                splice(*at.block, j, (*at.block)[j].else_body);
                return true;
              });
          add("drop the else branch of", "drop the else branch of an if",
              [](Program&, const BlockSlot& at, std::size_t j) {
                (*at.block)[j].else_body.clear();
                return true;
              });
        }
        break;
      case StmtKind::For:
        // The first trip: the index declared with its first value, then the body once.
        add("keep the first trip of", "keep the first trip of a loop",
            [](Program&, const BlockSlot& at, std::size_t j) {
              const Stmt& loop = (*at.block)[j];
              Block trip = {declaration(loop.var, IntType::Int, make_const(Value::make(IntType::Int, loop.start)))};
              trip.insert(trip.end(), loop.body.begin(), loop.body.end());
              splice(*at.block, j, std::move(trip));
              return true;
            });
        if (s.trips > 1)
          add("one trip of", "one trip of a loop", [](Program&, const BlockSlot& at, std::size_t j) {
            (*at.block)[j].trips = 1;
            return true;
          });
        break;
      case StmtKind::Switch:
        for (std::size_t c = 0; c < s.cases.size(); ++c)
          add("keep only case " + std::to_string(c) + " of", "keep one case of a switch",
              [c](Program&, const BlockSlot& at, std::size_t j) {
                if (c >= (*at.block)[j].cases.size()) return false;
                splice(*at.block, j, (*at.block)[j].cases[c].body);
                return true;
              });
        add("keep only the default of", "keep the default of a switch",
            [](Program&, const BlockSlot& at, std::size_t j) {
              splice(*at.block, j, (*at.block)[j].body);
              return true;
            });
        break;
      default: break;
      }
      if (collective_with_result(s))
        add("0 for the results of", "a collective's results as 0", [](Program& p, const BlockSlot& at, std::size_t j) {
          const Stmt collective = (*at.block)[j];
          const std::vector<Var>& vars = owner_vars(p, at.owner);
          Block decls = {declaration(collective.var, vars.at(collective.var).type,
                                     make_const(Value::make(vars.at(collective.var).type, 0)))};
          if (collective.kind == StmtKind::WarpMatch && collective.pred_var >= 0)
            decls.push_back(declaration(collective.pred_var, vars.at(collective.pred_var).type,
                                        make_const(Value::make(vars.at(collective.pred_var).type, 0))));
          splice(*at.block, j, std::move(decls));
          return true;
        });
    }
  }
}

/// The nodes of `root` in count_nodes' pre-order (never below a spelled node, whose text is
/// made from its plain shape).
void nodes_of(const Expr& e, std::vector<const Expr*>& nodes) {
  nodes.push_back(&e);
  if (e.spell != Expr::Spell::Plain) return;
  for (const ExprP& kid : e.kids) nodes_of(*kid, nodes);
}

bool any_node_eligible(const Expr&) { return true; }

/// Node `node` of expression slot `slot` of a copy replaced by `rewrite(node)`.
ProgramEdit expression_edit(std::string what, std::string kind, std::size_t slot, int node,
                            std::function<ExprP(const ExprP&)> rewrite) {
  return {std::move(what), std::move(kind), [slot, node, rewrite = std::move(rewrite)](Program& p) {
            std::vector<ExprSlot> slots = expr_slots(p);
            if (slot >= slots.size() || node >= count_nodes(**slots[slot].expr, any_node_eligible)) return false;
            *slots[slot].expr = rewrite_node(*slots[slot].expr, node, any_node_eligible, rewrite);
            return true;
          }};
}

/// `kid` as a value of `type`.
ExprP as_type(const ExprP& kid, IntType type) { return kid->type == type ? kid : make_cast(type, kid); }

void expression_edits(const Program& program, std::vector<ProgramEdit>& edits) {
  Program copy = program;
  const std::vector<ExprSlot> slots = expr_slots(copy);
  for (std::size_t e = 0; e < slots.size(); ++e) {
    std::vector<const Expr*> nodes;
    nodes_of(**slots[e].expr, nodes);
    const std::string owner = slots[e].owner.kernel >= 0 ? program.kernels[slots[e].owner.kernel].name
                                                         : program.functions[slots[e].owner.function].name;
    for (std::size_t n = 0; n < nodes.size(); ++n) {
      const Expr& node = *nodes[n];
      const std::string name = owner + ": expression " + std::to_string(e) + " node " + std::to_string(n);
      // Its operands: what an operator, a conversion, a select or a call computes from.
      std::vector<std::size_t> operands;
      if (node.kind == ExprKind::Unary || node.kind == ExprKind::Cast || node.kind == ExprKind::Binary ||
          node.kind == ExprKind::Call)
        for (std::size_t k = 0; k < node.kids.size(); ++k) operands.push_back(k);
      if (node.kind == ExprKind::Cond) operands = {1, 2};
      for (std::size_t k : operands)
        edits.push_back(
            expression_edit(name + " -> its operand " + std::to_string(k), "core: an expression as its operand", e,
                            static_cast<int>(n),
                            [k](const ExprP& x) { return k < x->kids.size() ? as_type(x->kids[k], x->type) : x; }));
      if (node.kind != ExprKind::Const || node.constant.bits != 0)
        edits.push_back(expression_edit(name + " -> 0", "core: an expression as 0", e, static_cast<int>(n),
                                        [](const ExprP& x) { return make_const(Value::make(x->type, 0)); }));
    }
  }
}

/// Every node of the program's expressions (statements, lanes, function results) through `map`,
/// children first.
ExprP map_expr(const ExprP& e, const std::function<ExprP(const ExprP&)>& map) {
  bool changed = false;
  std::vector<ExprP> kids;
  for (const ExprP& kid : e->kids) {
    kids.push_back(map_expr(kid, map));
    changed = changed || kids.back() != kid;
  }
  if (!changed) return map(e);
  auto copy = std::make_shared<Expr>(*e);
  copy->kids = std::move(kids);
  return map(copy);
}

void map_block(Block& block, const std::function<ExprP(const ExprP&)>& map) {
  for (Stmt& s : block) {
    if (s.expr) s.expr = map_expr(s.expr, map);
    if (s.lane) s.lane = map_expr(s.lane, map);
    map_block(s.body, map);
    map_block(s.else_body, map);
    for (SwitchCase& c : s.cases) map_block(c.body, map);
  }
}

void map_program(Program& program, const std::function<ExprP(const ExprP&)>& map) {
  for (Kernel& k : program.kernels) map_block(k.body, map);
  for (Function& f : program.functions) {
    map_block(f.body, map);
    f.result_expr = map_expr(f.result_expr, map);
  }
}

bool called(const Program& program, int function) {
  bool found = false;
  Program copy = program;
  map_program(copy, [&](const ExprP& e) {
    found = found || (e->kind == ExprKind::Call && e->id == function);
    return e;
  });
  return found;
}

/// A device function nothing calls goes; the calls of the later ones are renumbered.
void function_edits(const Program& program, std::vector<ProgramEdit>& edits) {
  for (std::size_t f = 0; f < program.functions.size(); ++f)
    edits.push_back({"delete device function " + program.functions[f].name, "core: delete an uncalled function",
                     [f, name = program.functions[f].name](Program& p) {
                       const int gone = static_cast<int>(f);
                       if (f >= p.functions.size() || p.functions[f].name != name || called(p, gone)) return false;
                       map_program(p, [gone](const ExprP& e) {
                         if (e->kind != ExprKind::Call || e->id < gone) return e;
                         auto renumbered = std::make_shared<Expr>(*e);
                         --renumbered->id;
                         return ExprP(renumbered);
                       });
                       p.functions.erase(p.functions.begin() + gone);
                       p.function_ns.erase(p.function_ns.begin() + gone);
                       return true;
                     }});
}

} // namespace

std::vector<ProgramEdit> core_edits(const Program& program) {
  std::vector<ProgramEdit> edits;
  launch_edits(program, edits);
  statement_edits(program, edits);
  expression_edits(program, edits);
  function_edits(program, edits);
  return edits;
}

} // namespace cudiff::generator
