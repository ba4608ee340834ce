// stack: the device stack a generated program asks for with cudaDeviceSetLimit before its
// first launch. The driver grows the per-thread stack by itself only where ptxas can size it
// statically; recursion and calls through function pointers defeat that, and the default of
// 1 KiB is far too small for unoptimized code: a program built by clang -O0 overflowed it
// ("unspecified launch failure"; compute-sanitizer: "Stack overflow") and looked like a run
// mismatch. So every program asks for a bound the generator computes from what it knows:
//
//   bytes = kernel frame + sum over the deepest call chain of (frames x frame bound) + helpers
//
// A frame's bound grows with its variables and expression nodes (every local and every
// temporary may get a stack slot at -O0); the constants were measured against ptxas -v
// ("bytes stack frame") at clang -O0, nvcc -O0 and nvcc -G on generated programs of every
// size, and are at least twice the largest frame seen (docs/generator.md, "Device stack").
// ptxas' own figures cannot be used: the program's text must not depend on the config that
// builds it, and ptxas cannot size a recursive chain either.
#include "generator/core/stack.h"

#include <algorithm>
#include <optional>
#include <set>

namespace cudiff::generator {
namespace {

constexpr std::uint64_t kFrameBase = 128;
constexpr std::uint64_t kFramePerVar = 16;
constexpr std::uint64_t kFramePerNode = 2;
/// Helpers (folds, vector ops, class templates, static tables), planted probes and lambdas:
/// leaves of any frame; the largest measured is under 200 bytes.
constexpr std::uint64_t kHelperAllowance = 1024;
constexpr std::uint64_t kCudaDefaultStack = 1024;
constexpr std::uint64_t kDenseStack = 4096;

/// The kernel-frame bytes a collective of collectives_gen.cpp adds beyond its variables and
/// nodes: clang -O0 inlines the always-inline cooperative-groups and libcu++ wrappers with their
/// locals into the kernel's frame, one set per statement. Measured with ptxas -v (one statement
/// per kernel, against an empty kernel's 16 bytes): a tile with shfl, ballot or cg::reduce
/// 530 to 750, a this_thread_block() exchange 300, a cuda::atomic_ref loop 260, a 64-bit shuffle
/// with a width 120, an atomicCAS loop 80, __match_all_sync 56. Each allowance is above what
/// was seen by a third or more.
std::uint64_t collective_frame(const Stmt& stmt) {
  switch (stmt.kind) {
  case StmtKind::Tile: return 1024;
  case StmtKind::Exchange: return stmt.cg_block ? 512 : 0;
  case StmtKind::AtomicLoop:
    return stmt.spelling == AtomicSpelling::AtomicRef ? 512 : stmt.spelling == AtomicSpelling::CasLoop ? 128 : 0;
  case StmtKind::Shuffle: return stmt.width != 32 || stmt.lane ? 192 : 0;
  case StmtKind::WarpMatch:
  case StmtKind::WarpReduce: return 128;
  default: return 0;
  }
}

std::size_t nodes_of(const ExprP& expr) {
  if (!expr) return 0;
  std::size_t count = 1;
  for (const ExprP& kid : expr->kids) count += nodes_of(kid);
  return count;
}

std::size_t nodes_of(const Block& block) {
  std::size_t count = 0;
  for (const Stmt& stmt : block) {
    count += nodes_of(stmt.expr) + nodes_of(stmt.lane) + nodes_of(stmt.body) + nodes_of(stmt.else_body);
    for (const SwitchCase& c : stmt.cases) count += nodes_of(c.body);
  }
  return count;
}

void calls_in(const ExprP& expr, std::set<int>& calls) {
  if (!expr) return;
  if (expr->kind == ExprKind::Call) calls.insert(expr->id);
  for (const ExprP& kid : expr->kids) calls_in(kid, calls);
}

void calls_in(const Block& block, std::set<int>& calls) {
  for (const Stmt& stmt : block) {
    calls_in(stmt.expr, calls);
    calls_in(stmt.lane, calls);
    calls_in(stmt.body, calls);
    calls_in(stmt.else_body, calls);
    for (const SwitchCase& c : stmt.cases) calls_in(c.body, calls);
  }
}

class Planner {
public:
  explicit Planner(const Program& program) : program_(program), chain_(program.functions.size()) {}

  /// The stack a call of function `index` needs: its own frames, then its body's deepest call.
  std::uint64_t chain(int index) {
    auto& memo = chain_[static_cast<std::size_t>(index)];
    if (memo) return *memo;
    const Function& f = program_.functions[static_cast<std::size_t>(index)];
    const std::uint64_t frame = frame_bound(f.vars.size(), nodes_of(f.body) + nodes_of(f.result_expr));
    frame_bounds[f.name] = frame;
    std::set<int> calls;
    calls_in(f.body, calls);
    calls_in(f.result_expr, calls);
    std::uint64_t deepest = 0;
    for (int callee : calls) deepest = std::max(deepest, chain(callee));  // callees come after callers
    memo = frame * static_cast<std::uint64_t>(f.recursion_depth_max + 1) + deepest;
    return *memo;
  }

  std::uint64_t kernel(const Kernel& k) {
    std::uint64_t frame = frame_bound(k.vars.size(), nodes_of(k.body));
    for (const Stmt& stmt : k.body) frame += collective_frame(stmt);  // collectives: top level only
    frame_bounds[k.name] = frame;
    std::set<int> calls;
    calls_in(k.body, calls);
    std::uint64_t deepest = 0;
    for (int callee : calls) deepest = std::max(deepest, chain(callee));
    return frame + deepest + kHelperAllowance;
  }

  std::map<std::string, std::uint64_t> frame_bounds;

private:
  const Program& program_;
  std::vector<std::optional<std::uint64_t>> chain_;
};

} // namespace

std::uint64_t frame_bound(std::size_t vars, std::size_t nodes) {
  return kFrameBase + kFramePerVar * vars + kFramePerNode * nodes;
}

DeviceStack plan_device_stack(const Program& program) {
  Planner planner(program);
  DeviceStack plan;
  plan.bytes = kCudaDefaultStack;
  for (const Kernel& k : program.kernels) plan.bytes = std::max(plan.bytes, planner.kernel(k));
  // Compute-dense kernels: a loop nest, 8 local words and __noinline__ calls one level deep;
  // 4 KiB bounds their frames at -O0 with room to spare (docs/generator.md, "Device stack").
  if (!program.dense.empty()) plan.bytes = std::max<std::uint64_t>(plan.bytes, kDenseStack);
  plan.bytes = (plan.bytes + 1023) / 1024 * 1024;
  plan.frame_bounds = std::move(planner.frame_bounds);
  return plan;
}

} // namespace cudiff::generator
