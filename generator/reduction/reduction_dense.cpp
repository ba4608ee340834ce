// reduction_dense: the IR reduction's edits of a compute-dense kernel. Every edit is found by
// walking the kernel in one fixed order (its body, then each function's body and result;
// statements before what they hold, expressions before their operands) and names its target
// by its position in that walk, so an edit applies to a copy of the kernel it was found on.
#include "generator/reduction/reduction.h"

#include <algorithm>
#include <cstddef>
#include <set>

namespace cudiff::generator::dense {
namespace {

// ---- walks ------------------------------------------------------------------------------

/// Calls visit(body, index) for every statement in and below `body`, a statement before its
/// bodies, else branch and cases; stops at the first visit that returns true.
template <class BodyT, class Visit>
bool walk_statements(BodyT& body, Visit&& visit) {
  for (std::size_t i = 0; i < body.size(); ++i) {
    if (visit(body, i)) return true;
    auto& s = body[i];
    if (walk_statements(s.body, visit) || walk_statements(s.else_body, visit)) return true;
    for (auto& c : s.cases)
      if (walk_statements(c.body, visit)) return true;
  }
  return false;
}

/// Every statement of the kernel: its body, then each function's.
template <class KernelT, class Visit>
bool walk_kernel_statements(KernelT& kernel, Visit&& visit) {
  if (walk_statements(kernel.body, visit)) return true;
  for (auto& fn : kernel.functions)
    if (walk_statements(fn.body, visit)) return true;
  return false;
}

template <class ExprT, class Visit>
bool walk_expr(ExprT& e, Visit&& visit) {
  if (visit(e)) return true;
  for (auto& arg : e.args)
    if (walk_expr(arg, visit)) return true;
  return false;
}

/// Every expression node of the kernel: each statement's expressions in order, each function's
/// result after its body.
template <class KernelT, class Visit>
bool walk_kernel_exprs(KernelT& kernel, Visit&& visit) {
  auto in_body = [&](auto& body) {
    return walk_statements(body, [&](auto& b, std::size_t i) {
      for (auto& e : b[i].exprs)
        if (walk_expr(e, visit)) return true;
      return false;
    });
  };
  if (in_body(kernel.body)) return true;
  for (auto& fn : kernel.functions)
    if (in_body(fn.body) || walk_expr(fn.result, visit)) return true;
  return false;
}

/// The statement at `ordinal` of the kernel's walk, as its body and index; false when there
/// are fewer statements.
template <class Change>
bool change_statement(Kernel& kernel, std::size_t ordinal, Change&& change) {
  std::size_t n = 0;
  bool changed = false;
  walk_kernel_statements(kernel, [&](Body& body, std::size_t i) {
    if (n++ != ordinal) return false;
    changed = change(body, i);
    return true;
  });
  return changed;
}

template <class Change>
bool change_expr(Kernel& kernel, std::size_t ordinal, Change&& change) {
  std::size_t n = 0;
  bool changed = false;
  walk_kernel_exprs(kernel, [&](Expr& e) {
    if (n++ != ordinal) return false;
    changed = change(e);
    return true;
  });
  return changed;
}

Expr zero(bool wide) {
  Expr e;
  e.kind = Expr::Kind::Const;
  e.wide = wide;
  return e;
}

/// Whether a break or continue in `body` belongs to the loop holding `body` (not to a loop
/// inside it).
bool breaks_out(const Body& body) {
  for (const Stmt& s : body) {
    if (s.kind == StmtKind::Break || s.kind == StmtKind::Continue) return true;
    if (s.kind == StmtKind::For) continue;
    if (breaks_out(s.body) || breaks_out(s.else_body)) return true;
    for (const SwitchCase& c : s.cases)
      if (breaks_out(c.body)) return true;
  }
  return false;
}

/// Loop `depth`'s index read in `body` becomes 0: the body of its first trip.
void first_trip(Body& body, std::uint64_t depth) {
  walk_statements(body, [&](Body& b, std::size_t i) {
    for (Expr& root : b[i].exprs)
      walk_expr(root, [&](Expr& e) {
        if (e.kind == Expr::Kind::LoopIndex && e.value == depth) e = zero(e.wide);
        return false;
      });
    return false;
  });
}

/// `statement` replaced by the statements of `body`.
void splice(Body& into, std::size_t index, Body body) {
  into.erase(into.begin() + static_cast<std::ptrdiff_t>(index));
  into.insert(into.begin() + static_cast<std::ptrdiff_t>(index), std::make_move_iterator(body.begin()),
              std::make_move_iterator(body.end()));
}

/// An edit's kind: what it does without the numbers that say where ("keep only case 3 of"
/// gives "keep only case of").
std::string kind_of(const std::string& what) {
  std::string kind;
  std::size_t at = 0;
  while (at < what.size()) {
    const std::size_t end = std::min(what.find(' ', at), what.size());
    const std::string word = what.substr(at, end - at);
    if (!word.empty() && !std::ranges::all_of(word, [](char c) { return c >= '0' && c <= '9'; }))
      kind += (kind.empty() ? "" : " ") + word;
    at = end + 1;
  }
  return kind;
}

const char* statement_name(StmtKind kind) {
  switch (kind) {
  case StmtKind::Assign: return "assignment";
  case StmtKind::StoreLocal: return "local store";
  case StmtKind::StoreShared: return "shared store";
  case StmtKind::VectorLoad: return "vector load";
  case StmtKind::VectorStore: return "vector store";
  case StmtKind::If: return "if";
  case StmtKind::For: return "for";
  case StmtKind::Break: return "break";
  case StmtKind::Continue: return "continue";
  case StmtKind::Switch: return "switch";
  case StmtKind::Goto: return "goto";
  case StmtKind::Return: return "return";
  case StmtKind::Asm: return "asm";
  case StmtKind::Shuffle: return "shuffle";
  case StmtKind::WarpReduce: return "warp reduce";
  case StmtKind::StoreBytes: return "byte store";
  case StmtKind::Atomic: return "atomic";
  case StmtKind::Generic: return "generic pointer";
  case StmtKind::BitField: return "bit-field struct";
  case StmtKind::Padded: return "padded struct";
  }
  return "statement";
}

// ---- the edits --------------------------------------------------------------------------

void launch_edits(const Kernel& kernel, std::vector<KernelEdit>& edits) {
  if (kernel.blocks > 1)
    edits.push_back({"one block", "dense: one block", [](Kernel& k) { return std::exchange(k.blocks, 1u) != 1u; }});
  // Whole warps: the collectives' full masks need them.
  if (kernel.threads > 32)
    edits.push_back({"one warp", "dense: one warp", [](Kernel& k) { return std::exchange(k.threads, 32u) != 32u; }});
}

/// A function's calls become 0 and it goes; the later functions' calls are renumbered.
void erase_function(Kernel& k, std::size_t f) {
  walk_kernel_exprs(k, [f](Expr& e) {
    if (e.kind != Expr::Kind::Call) return false;
    if (static_cast<std::size_t>(e.var) == f) e = zero(e.wide);
    else if (static_cast<std::size_t>(e.var) > f) --e.var;
    return false;
  });
  k.functions.erase(k.functions.begin() + static_cast<std::ptrdiff_t>(f));
}

/// The functions some expression calls, by index.
std::set<std::size_t> called_functions(const Kernel& kernel) {
  std::set<std::size_t> called;
  walk_kernel_exprs(kernel, [&](const Expr& e) {
    if (e.kind == Expr::Kind::Call) called.insert(static_cast<std::size_t>(e.var));
    return false;
  });
  return called;
}

/// Each function goes, called or not.
void function_edits(const Kernel& kernel, std::vector<KernelEdit>& edits) {
  for (std::size_t f = 0; f < kernel.functions.size(); ++f)
    edits.push_back({"delete function " + kernel.functions[f].name, "dense: delete a function", [f](Kernel& k) {
                       if (f >= k.functions.size()) return false;
                       erase_function(k, f);
                       return true;
                     }});
}

/// Halves, then quarters... of the kernel's top-level statements (ddmin's first steps).
void run_edits(const Kernel& kernel, std::vector<KernelEdit>& edits) {
  const std::size_t count = kernel.body.size();
  for (std::size_t chunk = count / 2; chunk >= 2; chunk /= 2)
    for (std::size_t from = 0; from + chunk <= count; from += chunk)
      edits.push_back({"delete top-level statements " + std::to_string(from) + ".." + std::to_string(from + chunk - 1),
                       "dense: delete top-level statements", [from, chunk](Kernel& k) {
                         if (from + chunk > k.body.size()) return false;
                         k.body.erase(k.body.begin() + static_cast<std::ptrdiff_t>(from),
                                      k.body.begin() + static_cast<std::ptrdiff_t>(from + chunk));
                         return true;
                       }});
}

void statement_edits(const Kernel& kernel, std::vector<KernelEdit>& edits) {
  std::size_t n = 0;
  walk_kernel_statements(kernel, [&](const Body& body, std::size_t i) {
    const Stmt& s = body[i];
    const std::size_t at = n++;
    const std::string name = "statement " + std::to_string(at) + " (" + statement_name(s.kind) + ")";
    auto edit = [&](std::string what, auto change) {
      edits.push_back({what + " " + name, "dense: " + kind_of(what) + " a statement",
                       [at, change](Kernel& k) { return change_statement(k, at, change); }});
    };
    edit("delete", [](Body& b, std::size_t j) {
      b.erase(b.begin() + static_cast<std::ptrdiff_t>(j));
      return true;
    });
    switch (s.kind) {
    case StmtKind::If:
      edit("keep the then branch of", [](Body& b, std::size_t j) {
        splice(b, j, b[j].body);
        return true;
      });
      if (!s.else_body.empty()) {
        edit("keep the else branch of", [](Body& b, std::size_t j) {
          splice(b, j, b[j].else_body);
          return true;
        });
        edit("drop the else branch of", [](Body& b, std::size_t j) {
          b[j].else_body.clear();
          return true;
        });
      }
      break;
    case StmtKind::Goto:
      edit("keep the body of", [](Body& b, std::size_t j) {
        splice(b, j, b[j].body);
        return true;
      });
      break;
    case StmtKind::For:
      if (!breaks_out(s.body))
        edit("keep the first trip of", [](Body& b, std::size_t j) {
          Body trip = b[j].body;
          first_trip(trip, static_cast<std::uint64_t>(b[j].depth));
          splice(b, j, std::move(trip));
          return true;
        });
      if (!s.exprs.empty() || s.lo != 1)
        edit("one trip of", [](Body& b, std::size_t j) {
          b[j].exprs.clear();
          b[j].mask = 0;
          b[j].lo = 1;
          return true;
        });
      if (s.unroll != 0)
        edit("no unroll pragma on", [](Body& b, std::size_t j) {
          b[j].unroll = 0;
          return true;
        });
      break;
    case StmtKind::Switch:
      for (std::size_t c = 0; c < s.cases.size(); ++c) {
        edit("keep only case " + std::to_string(c) + " of", [c](Body& b, std::size_t j) {
          if (c >= b[j].cases.size()) return false;
          splice(b, j, b[j].cases[c].body);
          return true;
        });
        edit("delete case " + std::to_string(c) + " of", [c](Body& b, std::size_t j) {
          Stmt& sw = b[j];
          if (c >= sw.cases.size() || sw.cases.size() < 2) return false;
          if (sw.has_default && c + 1 == sw.cases.size()) sw.has_default = false;
          sw.cases.erase(sw.cases.begin() + static_cast<std::ptrdiff_t>(c));
          return true;
        });
      }
      break;
    case StmtKind::Shuffle:
    case StmtKind::WarpReduce:
      // The thread's own operand instead of the warp's: the collective's value without the warp.
      edit("a plain assignment for", [](Body& b, std::size_t j) {
        Stmt assign;
        assign.kind = StmtKind::Assign;
        assign.var = b[j].var;
        assign.exprs = {b[j].exprs.at(0)};
        b[j] = std::move(assign);
        return true;
      });
      break;
    case StmtKind::Asm:
      for (ptx::BlockEdit& block_edit : ptx::block_edits(*s.ptx))
        edits.push_back(
            {block_edit.what + " in " + name, block_edit.kind, [at, apply = std::move(block_edit.apply)](Kernel& k) {
               return change_statement(k, at, [&](Body& b, std::size_t j) {
                 if (b[j].kind != StmtKind::Asm) return false;
                 ptx::Block block = *b[j].ptx;
                 if (!apply(block)) return false;
                 // The input operands no instruction reads any more go with their expressions.
                 for (std::size_t input = b[j].exprs.size(); input-- > 0;)
                   if (ptx::drop_unused_input(block, input))
                     b[j].exprs.erase(b[j].exprs.begin() + static_cast<std::ptrdiff_t>(input));
                 b[j].ptx = std::make_shared<const ptx::Block>(std::move(block));
                 return true;
               });
             }});
      break;
    default: break;
    }
    return false;
  });
}

/// An operation or call replaced by one of its operands of its width, or by zero; an input,
/// local, shared or base-word read by zero.
void expression_edits(const Kernel& kernel, std::vector<KernelEdit>& edits) {
  // The walk's first `in_kernel` nodes are the kernel body's; a function's variables 0..4 are
  // its own, not the base words.
  std::size_t in_kernel = 0;
  walk_statements(kernel.body, [&](const Body& body, std::size_t i) {
    for (const Expr& root : body[i].exprs)
      walk_expr(root, [&](const Expr&) {
        ++in_kernel;
        return false;
      });
    return false;
  });
  std::size_t n = 0;
  walk_kernel_exprs(kernel, [&](const Expr& e) {
    const std::size_t at = n++;
    // A read of a, b, c, d or w (which hold input words) may become 0, so that the base words
    // and the input can go; other leaves stay.
    const bool base_read = at < in_kernel && e.kind == Expr::Kind::Var && e.var < 5;
    const bool leaf = e.kind == Expr::Kind::Const || e.kind == Expr::Kind::Var || e.kind == Expr::Kind::LoopIndex ||
                      e.kind == Expr::Kind::ThreadId;
    if (leaf && !base_read) return false;
    const std::string name = "expression " + std::to_string(at);
    if (e.kind == Expr::Kind::Operation || e.kind == Expr::Kind::Call)
      for (std::size_t a = 0; a < e.args.size(); ++a) {
        if (e.args[a].wide != e.wide) continue;
        edits.push_back(
            {name + " -> its operand " + std::to_string(a), "dense: an operation as its operand", [at, a](Kernel& k) {
               return change_expr(k, at, [a](Expr& x) {
                 if (a >= x.args.size() || x.args[a].wide != x.wide) return false;
                 Expr operand = x.args[a];
                 x = std::move(operand);
                 return true;
               });
             }});
      }
    edits.push_back({name + " -> 0", "dense: an expression as 0", [at](Kernel& k) {
                       return change_expr(k, at, [](Expr& x) {
                         x = zero(x.wide);
                         return true;
                       });
                     }});
    return false;
  });
}

/// What the kernel's own statements use: its variables, its local words, its shared words.
struct Uses {
  std::set<int> vars;
  bool local = false, shared = false, bytes = false, atomics = false, bit_structs = false, padded = false;
};

Uses uses_of(const Kernel& kernel) {
  Uses uses;
  walk_statements(kernel.body, [&](const Body& body, std::size_t i) {
    const Stmt& s = body[i];
    if (s.var >= 0) uses.vars.insert(s.var);
    uses.vars.insert(s.targets.begin(), s.targets.end());
    uses.local = uses.local || s.kind == StmtKind::StoreLocal || s.kind == StmtKind::Generic;
    uses.shared = uses.shared || s.kind == StmtKind::StoreShared || s.kind == StmtKind::VectorStore ||
                  s.kind == StmtKind::Generic;
    uses.bytes = uses.bytes || s.kind == StmtKind::StoreBytes;
    uses.atomics = uses.atomics || s.kind == StmtKind::Atomic;
    uses.bit_structs = uses.bit_structs || s.kind == StmtKind::BitField;
    uses.padded = uses.padded || s.kind == StmtKind::Padded;
    for (const Expr& root : s.exprs)
      walk_expr(root, [&](const Expr& e) {
        if (e.kind == Expr::Kind::Var) uses.vars.insert(e.var);
        uses.local = uses.local || e.kind == Expr::Kind::Local;
        uses.shared = uses.shared || e.kind == Expr::Kind::Shared;
        return false;
      });
    return false;
  });
  return uses;
}

/// Whether the kernel stores its output words or loads an input word with a cache hint.
bool uses_cache_hints(const Kernel& kernel) {
  return kernel.store_hint != 0 || walk_kernel_exprs(kernel, [](const Expr& e) { return e.hint != 0; });
}

/// The parts of the kernel nothing uses any more. A variable nothing reads or writes goes (its
/// declaration and its word of the hash; the later ones are renumbered); the same for the base
/// words, the local and shared words, the global bytes, the atomic slots, the structs' types,
/// arrays and functions, and the functions nothing calls.
void dead_part_edits(const Kernel& kernel, std::vector<KernelEdit>& edits) {
  const Uses uses = uses_of(kernel);
  // vars[0..4] are a, b, c, d and w: the output words.
  for (std::size_t v = kernel.vars.size(); v-- > 5;) {
    if (uses.vars.contains(static_cast<int>(v))) continue;
    edits.push_back({"delete variable " + kernel.vars[v].name, "dense: delete a variable", [v](Kernel& k) {
                       if (v >= k.vars.size() || uses_of(k).vars.contains(static_cast<int>(v))) return false;
                       const int gone = static_cast<int>(v);
                       walk_statements(k.body, [&](Body& body, std::size_t i) {
                         Stmt& s = body[i];
                         if (s.var > gone) --s.var;
                         for (int& target : s.targets)
                           if (target > gone) --target;
                         for (Expr& root : s.exprs)
                           walk_expr(root, [&](Expr& e) {
                             if (e.kind == Expr::Kind::Var && e.var > gone) --e.var;
                             return false;
                           });
                         return false;
                       });
                       k.vars.erase(k.vars.begin() + static_cast<std::ptrdiff_t>(v));
                       return true;
                     }});
  }
  auto uses_base = [](const Uses& u) { return !u.vars.empty() && *u.vars.begin() < 5; };
  if (kernel.base_words && !uses_base(uses))
    edits.push_back({"delete the words a, b, c, d and w", "dense: delete the base words", [uses_base](Kernel& k) {
                       if (uses_base(uses_of(k))) return false;
                       return std::exchange(k.base_words, false);
                     }});
  if (kernel.local_words && !uses.local)
    edits.push_back({"delete the local words", "dense: delete the local words", [](Kernel& k) {
                       if (uses_of(k).local) return false;
                       return std::exchange(k.local_words, false);
                     }});
  if (kernel.shared_words && !uses.shared)
    edits.push_back({"delete the shared words", "dense: delete the shared words", [](Kernel& k) {
                       if (uses_of(k).shared) return false;
                       return std::exchange(k.shared_words, false);
                     }});
  if (kernel.byte_words && !uses.bytes)
    edits.push_back({"delete the global bytes", "dense: delete the global bytes", [](Kernel& k) {
                       if (uses_of(k).bytes) return false;
                       return std::exchange(k.byte_words, false);
                     }});
  // The atomic slots' arrays, their host set-up and their words of the checksum outlive the
  // updates that used them: without this edit every reduced dense_atomics kernel keeps them.
  if (!kernel.atomic_slots.empty() && !uses.atomics)
    edits.push_back({"delete the atomic slots", "dense: delete the atomic slots", [](Kernel& k) {
                       if (uses_of(k).atomics || k.atomic_slots.empty()) return false;
                       k.atomic_slots.clear();
                       return true;
                     }});
  if (!kernel.bit_members.empty() && !uses.bit_structs)
    edits.push_back({"delete the bit-field structs", "dense: delete the bit-field structs", [](Kernel& k) {
                       if (uses_of(k).bit_structs || k.bit_members.empty()) return false;
                       k.bit_members.clear();
                       return true;
                     }});
  if (!kernel.padded_members.empty() && !uses.padded)
    edits.push_back({"delete the padded structs", "dense: delete the padded structs", [](Kernel& k) {
                       if (uses_of(k).padded || k.padded_members.empty()) return false;
                       k.padded_members.clear();
                       return true;
                     }});
  const std::set<std::size_t> called = called_functions(kernel);
  if (called.size() < kernel.functions.size())
    edits.push_back({"delete the functions nothing calls", "dense: delete a function", [](Kernel& k) {
                       const std::set<std::size_t> now = called_functions(k);
                       bool changed = false;
                       for (std::size_t f = k.functions.size(); f-- > 0;)
                         if (!now.contains(f)) {
                           erase_function(k, f);
                           changed = true;
                         }
                       return changed;
                     }});
}

/// The dead parts, then a variable starts at 0 rather than an input word, the fence goes, the
/// loads and stores lose their cache hints, the shared words become static.
void storage_edits(const Kernel& kernel, std::vector<KernelEdit>& edits) {
  dead_part_edits(kernel, edits);
  // Then what still reads the input: a reproducer whose kernel reads none has no input at all.
  for (std::size_t v = 5; v < kernel.vars.size(); ++v)
    if (kernel.vars[v].from_input)
      edits.push_back({kernel.vars[v].name + " starts at 0", "dense: a variable starts at 0",
                       [v](Kernel& k) { return v < k.vars.size() && std::exchange(k.vars[v].from_input, false); }});
  if (kernel.fence != FenceKind::None)
    edits.push_back({"delete the fence", "dense: delete the fence",
                     [](Kernel& k) { return std::exchange(k.fence, FenceKind::None) != FenceKind::None; }});
  if (uses_cache_hints(kernel))
    edits.push_back({"plain loads and stores", "dense: plain loads and stores", [](Kernel& k) {
                       if (!uses_cache_hints(k)) return false;
                       k.store_hint = 0;
                       walk_kernel_exprs(k, [](Expr& e) {
                         e.hint = 0;
                         return false;
                       });
                       return true;
                     }});
  if (kernel.shared_words && kernel.dynamic_shared)
    edits.push_back({"static shared words", "dense: static shared words",
                     [](Kernel& k) { return std::exchange(k.dynamic_shared, false); }});
}

} // namespace

std::vector<KernelEdit> kernel_edits(const Kernel& kernel) {
  std::vector<KernelEdit> edits;
  launch_edits(kernel, edits);
  function_edits(kernel, edits);
  run_edits(kernel, edits);
  // The kernel-wide parts a deleted run of statements leaves unused (a family's arrays, structs,
  // fence and host set-up: ten to forty lines each) before the edits of one statement or
  // expression: the stage goes on from the edit it kept, so these are tried at once.
  storage_edits(kernel, edits);
  statement_edits(kernel, edits);
  expression_edits(kernel, edits);
  // And again for what a deleted statement or expression left unused: the stage goes on after
  // the edit it kept, so without these a round ends with them (d52a5cfd's reduction ran out of
  // time with two functions and both structs' families, 100 lines, unused).
  dead_part_edits(kernel, edits);
  return edits;
}

} // namespace cudiff::generator::dense
