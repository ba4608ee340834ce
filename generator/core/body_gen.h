// body_gen: phase two of generation — fills a statement skeleton with expressions while
// evaluating every expression on every simulated thread (value tracking), rebuilding any node
// that would hit undefined behaviour on some thread. Internal to generator/.
#pragma once

#include "generator/core/gen_context.h"

#include <string>
#include <vector>

namespace cudiff::generator {

/// Phase one: the shape of a body — statement kinds, nesting, loop trip counts — with no
/// expressions yet (YARPGen's skeleton).
struct SkelNode {
  StmtKind kind = StmtKind::Decl;
  std::vector<SkelNode> body;
  std::vector<SkelNode> else_body;
  std::vector<std::vector<SkelNode>> cases;
  std::int64_t trips = 0;
};
using Skeleton = std::vector<SkelNode>;

/// `count` statements nested at most `depth` deep. At a kernel's top level (`kernel_top`)
/// collectives and early returns may appear; nowhere else.
Skeleton make_skeleton(GenContext& ctx, int count, int depth, bool kernel_top);
/// Whether a construct of collectives_gen.cpp enables a top-level statement kind (a shuffle
/// with a width, a cooperative-groups exchange, the new collectives' kinds).
bool new_collective_enabled(const GenContext& ctx, StmtKind kind);

/// An expression with its value on each active thread (same order as BodyGen::active()).
struct Gen {
  ExprP expr;
  std::vector<Value> values;
};

/// What a variable in scope may be used for at the current point.
struct VarState {
  int id = -1;
  bool readable = true;
  bool assignable = true;
  bool accumulate_only = false;  ///< in a loop: only `^=`, `|=`, `&=`, never read
};

class BodyGen {
public:
  /// `envs`: one environment per simulated thread (or thread x iteration); all start active.
  BodyGen(GenContext& ctx, std::vector<Env> envs, bool in_kernel, int call_depth, std::string ns);

  std::vector<Var> vars;
  std::vector<VarState> visible;
  // Kernel bodies only: the launch, the output slots per thread, and what collectives added.
  Launch launch;
  int slots = 1;
  std::vector<AtomicKind> reductions;
  std::vector<int> shared_arrays;
  std::uint32_t dynamic_shared_bytes = 0;
  /// The kernel's lambdas and functors (kernel bodies only; null elsewhere: a device function
  /// cannot see the kernel's parameters).
  std::vector<LambdaFn>* lambdas = nullptr;

  /// Declares a variable (not yet in scope) and returns its id.
  int add_var(const std::string& name, IntType type);
  const std::vector<int>& active() const { return active_; }
  std::vector<Env>& envs() { return envs_; }

  // ---- expressions (expressions.cpp) ----
  /// Any integer expression, at most `depth` operators deep, defined on every active thread.
  Gen expr(int depth);
  Gen leaf();
  Gen constant(IntType type);
  /// `(T)(e)` unless e already has that type.
  Gen cast(Gen value, IntType type);
  /// The XOR of the variables as unsigned long long (never undefined): output folding.
  Gen fold_vars(const std::vector<int>& ids);

  // ---- statements (statements.cpp) ----
  /// Statements for the skeleton; variables they declare leave scope at the end unless
  /// `keep_scope` (a kernel's top level before its output writes, a function before its result).
  Block fill(const Skeleton& skeleton, bool keep_scope = false);
  /// The kernel's output writes: every readable variable folded into `slots` words.
  Block write_outputs(int slots);
  bool returned_any() const { return returned_any_; }

private:
  Gen binary(int depth);
  Gen unary(int depth);
  Gen conditional(int depth);
  Gen load(int depth);
  Gen call(int depth);
  Gen fold(int depth);
  Gen select(int depth);
  // Spelled binary nodes (expressions_spelled.cpp): plain Binary nodes in the IR, emitted
  // through a class template, SFINAE overloads, vector types or a kernel's lambda.
  Gen spelled(int depth);
  Gen class_template(int depth);
  Gen sfinae(int depth);
  Gen vector_value(int depth);
  Gen lambda_call(int depth);
  Gen make_binary(BinaryOp op, const Gen& a, const Gen& b, bool& ok);

  void fill_one(const SkelNode& node, Block& out);
  void decl(Block& out);
  void assign(Block& out);
  void if_stmt(const SkelNode& node, Block& out);
  void for_stmt(const SkelNode& node, Block& out);
  void switch_stmt(const SkelNode& node, Block& out);
  void early_return(Block& out);
  void collective(const SkelNode& node, Block& out);
  // Collectives of collectives_gen.cpp: match, __reduce_*_sync, cooperative-groups tiles and
  // atomics in loops; a shuffle's width and computed lane; a cooperative-groups exchange.
  void new_collective(const SkelNode& node, Block& out);
  void shuffle_width(Stmt& stmt);
  bool cg_exchange(bool warp_scope);
  void warp_match(Stmt& stmt);
  void warp_reduce(Stmt& stmt);
  void tile(Stmt& stmt);
  void atomic_loop(Stmt& stmt, Block& out);
  Gen operand(IntType type);
  Block nested(const Skeleton& skeleton, const std::vector<int>& active);
  void set_var(int env, int id, Value value);
  std::vector<int> readable_vars() const;

  GenContext& ctx_;
  std::vector<Env> envs_;
  std::vector<int> active_;
  bool in_kernel_;
  int call_depth_;
  int loop_depth_ = 0;
  bool returned_any_ = false;
  std::string ns_;
};

} // namespace cudiff::generator
