// reduction_abi: the IR reduction's edits of the ABI family (generator/abi/): a function goes
// with its call, a parameter goes from a function and its call. An ABI function's call is a
// Named expression node (its text is the call, its constant the value the call folds to),
// xor-ed into one output word of its kernel: removing the function without it would leave a
// kernel calling an undeclared `cudiff_abi_N`.
#include "generator/abi/abi.h"
#include "generator/reduction/reduction.h"
#include "generator/variants/variants.h"

namespace cudiff::generator {
namespace {

bool calls(const Expr& e, const std::string& call) { return e.kind == ExprKind::Named && e.text == call; }

/// `e` with `call` replaced by `replacement(node)`; `x ^ call` becomes x when `replacement`
/// gives none (the output word no longer folds the call's value).
ExprP replace_call(const ExprP& e, const std::string& call, const std::function<ExprP(const Expr&)>& replacement,
                   bool& found) {
  if (calls(*e, call)) {
    found = true;
    ExprP with = replacement(*e);
    return with ? with : make_const(e->constant);
  }
  if (e->kind == ExprKind::Binary && e->binary == BinaryOp::BitXor && e->kids.size() == 2 && calls(*e->kids[1], call) &&
      !replacement(*e->kids[1])) {
    found = true;
    return replace_call(e->kids[0], call, replacement, found);
  }
  bool changed = false;
  std::vector<ExprP> kids;
  for (const ExprP& kid : e->kids) {
    kids.push_back(replace_call(kid, call, replacement, found));
    changed = changed || kids.back() != kid;
  }
  if (!changed) return e;
  auto copy = std::make_shared<Expr>(*e);
  copy->kids = std::move(kids);
  return copy;
}

/// Every use of `call` in the program's statements and function results replaced (above).
bool replace_everywhere(Program& program, const std::string& call,
                        const std::function<ExprP(const Expr&)>& replacement) {
  bool found = false;
  for (const ExprSlot& slot : expr_slots(program)) *slot.expr = replace_call(*slot.expr, call, replacement, found);
  return found;
}

} // namespace

bool remove_abi_function(Program& program, std::size_t index) {
  if (index >= program.abi.size()) return false;
  replace_everywhere(program, abi_call_text(program.abi[index]), [](const Expr&) { return ExprP{}; });
  program.abi.erase(program.abi.begin() + static_cast<std::ptrdiff_t>(index));
  return true;
}

bool remove_core_kernel(Program& program, std::size_t index) {
  if (index >= program.kernels.size()) return false;
  // Its ABI functions go with it (their definitions are emitted beside it); the others name
  // their kernel by position.
  std::erase_if(program.abi, [&](const AbiFunction& f) { return f.kernel == static_cast<int>(index); });
  for (AbiFunction& f : program.abi)
    if (f.kernel > static_cast<int>(index)) --f.kernel;
  program.kernels.erase(program.kernels.begin() + static_cast<std::ptrdiff_t>(index));
  return true;
}

std::vector<ProgramEdit> abi_edits(const Program& program) {
  std::vector<ProgramEdit> edits;
  for (std::size_t f = 0; f < program.abi.size(); ++f)
    edits.push_back({"delete ABI function " + program.abi[f].name + " with its call", "abi: delete a function",
                     [f, name = program.abi[f].name](Program& p) {
                       return f < p.abi.size() && p.abi[f].name == name && remove_abi_function(p, f);
                     }});
  for (std::size_t f = 0; f < program.abi.size(); ++f)
    for (std::size_t j = 0; j < program.abi[f].params.size(); ++j)
      edits.push_back({"delete parameter " + std::to_string(j) + " of ABI function " + program.abi[f].name,
                       "abi: delete a parameter", [f, j, name = program.abi[f].name](Program& p) {
                         if (f >= p.abi.size() || p.abi[f].name != name || j >= p.abi[f].params.size()) return false;
                         AbiFunction& function = p.abi[f];
                         const std::string before = abi_call_text(function);
                         function.params.erase(function.params.begin() + static_cast<std::ptrdiff_t>(j));
                         function.folded = abi_call_value(function);
                         // The call node names the parameters and holds the value they fold to.
                         const std::string after = abi_call_text(function);
                         const std::uint64_t folded = function.folded;
                         return replace_everywhere(p, before, [&](const Expr& node) {
                           auto call = std::make_shared<Expr>(node);
                           call->text = after;
                           call->constant = Value::make_unsigned(node.constant.type, folded);
                           return ExprP(call);
                         });
                       }});
  return edits;
}

}  // namespace cudiff::generator
