// variants_dense: the compute-dense family's part of the variant pass (docs/generator.md,
// "Variants"). Orion: copies of the kernel's own statements under a condition no thread meets
// (an input word compared with a value the generator knows no input word has). Hermes: live
// expressions rewritten into identities the compiler cannot see through, because their constant
// is an input word (`(e ^ k) ^ k`, `(e + k) - k`), and exact re-association of unsigned
// wrapping `+`, `^`, `&`, `|`. Every dense kernel's interpreter checksum is recomputed and must
// equal the original's.
#include "generator/variants/variants.h"

#include "common/common.h"
#include "generator/core/interpreter.h"

#include <algorithm>
#include <functional>

namespace cudiff::generator {
namespace {

using dense::Expr;
using dense::Op;
using dense::Stmt;
using dense::StmtKind;

Expr constant(std::uint64_t value, bool wide) {
  Expr e;
  e.kind = Expr::Kind::Const;
  e.wide = wide;
  e.value = wide ? value : value & 0xffffffffull;
  return e;
}

Expr operation(Op op, std::vector<Expr> args, bool wide) {
  Expr e;
  e.kind = Expr::Kind::Operation;
  e.op = op;
  e.wide = wide;
  e.args = std::move(args);
  return e;
}

/// in[j]: an input word the compiler cannot know.
Expr input_word(std::uint32_t j, bool wide) {
  Expr e;
  e.kind = Expr::Kind::Input;
  e.wide = wide;
  e.args.push_back(constant(j, false));
  return e;
}

/// A statement that is safe to copy anywhere: no break/continue that would leave its loop, no
/// label (goto), no collective, no early return.
bool copyable(const Stmt& s) {
  if (s.kind == StmtKind::Break || s.kind == StmtKind::Continue || s.kind == StmtKind::Goto ||
      s.kind == StmtKind::Shuffle || s.kind == StmtKind::WarpReduce || s.kind == StmtKind::Return)
    return false;
  auto all = [](const dense::Body& body) {
    return std::all_of(body.begin(), body.end(), [](const Stmt& inner) {
      // Inside a copied loop, break and continue stay in it.
      return inner.kind == StmtKind::Break || inner.kind == StmtKind::Continue || copyable(inner);
    });
  };
  if (s.kind == StmtKind::For) return all(s.body);
  if (!all(s.body) || !all(s.else_body)) return false;
  for (const dense::SwitchCase& c : s.cases)
    if (!all(c.body)) return false;
  // Outside a loop, a break or continue directly in an if would be ill-formed.
  auto direct_jump = [](const dense::Body& body) {
    return std::any_of(body.begin(), body.end(), [](const Stmt& inner) {
      return inner.kind == StmtKind::Break || inner.kind == StmtKind::Continue;
    });
  };
  return !direct_jump(s.body) && !direct_jump(s.else_body);
}

/// Orion: `if (in[j] == v) { copies of statements }` with v no input word has.
bool dead_code(dense::Kernel& kernel, Rng& rng) {
  std::vector<const Stmt*> candidates;
  for (const Stmt& s : kernel.body)
    if (copyable(s)) candidates.push_back(&s);
  if (candidates.empty()) return false;
  std::vector<std::uint32_t> words;
  for (std::uint32_t i = 0; i < dense::kInputWords; ++i) words.push_back(dense::input_word(kernel.input_salt, i));
  std::uint32_t absent = static_cast<std::uint32_t>(rng.next_u64());
  while (std::find(words.begin(), words.end(), absent) != words.end()) ++absent;
  Stmt dead;
  dead.kind = StmtKind::If;
  // in[(t * 5 + j) & 255] == absent: the index depends on the thread, the value on the input.
  Expr thread;
  thread.kind = Expr::Kind::ThreadId;
  Expr index = operation(Op::Add,
                         {operation(Op::Mul, {std::move(thread), constant(5, false)}, false),
                          constant(rng.below(256), false)},
                         false);
  Expr word;
  word.kind = Expr::Kind::Input;
  word.args.push_back(std::move(index));
  dead.exprs.push_back(operation(Op::Eq, {std::move(word), constant(absent, false)}, false));
  const int copies = static_cast<int>(rng.range(1, 3));
  for (int c = 0; c < copies; ++c) dead.body.push_back(*rng.pick(candidates));
  const std::size_t at = rng.below(kernel.body.size() + 1);
  kernel.body.insert(kernel.body.begin() + static_cast<std::ptrdiff_t>(at), std::move(dead));
  return true;
}

/// Every expression of a body, for a rewrite to pick one.
void expressions(dense::Body& body, std::vector<Expr*>& into) {
  std::function<void(Expr&)> walk = [&](Expr& e) {
    into.push_back(&e);
    for (Expr& arg : e.args) walk(arg);
  };
  for (Stmt& s : body) {
    for (Expr& e : s.exprs) walk(e);
    expressions(s.body, into);
    expressions(s.else_body, into);
    for (dense::SwitchCase& c : s.cases) expressions(c.body, into);
  }
}

/// Hermes: e -> (e ^ k) ^ k or (e + k) - k, k an input word.
bool identity(dense::Kernel& kernel, Rng& rng) {
  std::vector<Expr*> all;
  expressions(kernel.body, all);
  if (all.empty()) return false;
  Expr& target = *rng.pick(all);
  const bool wide = target.wide;
  const Expr k = input_word(static_cast<std::uint32_t>(rng.below(dense::kInputWords)), wide);
  const bool by_xor = rng.chance(0.5);
  const Op first = by_xor ? (wide ? Op::Xor64 : Op::Xor) : (wide ? Op::Add64 : Op::Add);
  const Op second = by_xor ? first : (wide ? Op::Sub64 : Op::Sub);
  Expr inner = operation(first, {target, k}, wide);
  target = operation(second, {std::move(inner), k}, wide);
  return true;
}

/// (a op b) op c -> a op (b op c) for an unsigned wrapping op.
bool reassociate(dense::Kernel& kernel, Rng& rng) {
  static const Op associative[] = {Op::Add, Op::Xor, Op::And, Op::Or, Op::Add64, Op::Xor64, Op::And64, Op::Or64};
  std::vector<Expr*> all, candidates;
  expressions(kernel.body, all);
  for (Expr* e : all)
    if (e->kind == Expr::Kind::Operation &&
        std::find(std::begin(associative), std::end(associative), e->op) != std::end(associative) &&
        e->args[0].kind == Expr::Kind::Operation && e->args[0].op == e->op)
      candidates.push_back(e);
  if (candidates.empty()) return false;
  Expr& top = *rng.pick(candidates);
  Expr a = top.args[0].args[0], b = top.args[0].args[1], c = top.args[1];
  top.args[0] = std::move(a);
  top.args[1] = operation(top.op, {std::move(b), std::move(c)}, top.wide);
  return true;
}

} // namespace

void derive_dense_variant(Program& program, Rng& rng, std::vector<std::string>& applied) {
  for (dense::Kernel& kernel : program.dense) {
    const std::uint64_t before = fold_checksum(dense::run_kernel(kernel));
    const int steps = static_cast<int>(rng.range(1, 3));
    for (int step = 0; step < steps; ++step) {
      const std::uint64_t pick = rng.below(3);
      const bool done = pick == 0   ? dead_code(kernel, rng)
                        : pick == 1 ? identity(kernel, rng)
                                    : reassociate(kernel, rng);
      if (done)
        applied.push_back(std::string(pick == 0   ? "dense_dead_code"
                                      : pick == 1 ? "dense_identity"
                                                  : "dense_reassociate") +
                          "(" + kernel.name + ")");
    }
    const std::uint64_t after = fold_checksum(dense::run_kernel(kernel));
    if (after != before) throw Error(ErrorKind::internal, "dense variant of " + kernel.name + " changed its checksum");
    kernel.expected_checksum = after;
  }
}

} // namespace cudiff::generator
