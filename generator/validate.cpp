// validate: the generator's invariants re-checked on the finished IR.
#include "generator/validate.h"

#include "common/common.h"
#include "generator/core/interpreter.h"

#include <set>
#include <string>

namespace cudiff::generator {
namespace {

class Validator {
public:
  Validator(const Program& program, std::uint64_t seed) : program_(program), seed_(seed) {}

  [[noreturn]] void fail(const std::string& where, const std::string& what) const {
    throw Error(ErrorKind::internal,
                "generated program for seed " + std::to_string(seed_) + " is invalid: " + where + ": " + what);
  }

  void expr(const Expr& e, const std::set<int>& scope, int function, const std::string& where) const {
    if (e.kind == ExprKind::Var && !scope.count(e.id))
      fail(where, "variable " + std::to_string(e.id) + " used out of scope");
    if (e.kind == ExprKind::Load && (e.id < 0 || e.id >= static_cast<int>(program_.arrays.size())))
      fail(where, "load from an unknown array");
    if (e.kind == ExprKind::Call) {
      if (e.id <= function || e.id >= static_cast<int>(program_.functions.size()))
        fail(where, "call to a function not defined before its caller");
      if (static_cast<int>(e.kids.size()) != program_.functions[e.id].arg_count()) fail(where, "argument count");
    }
    if (e.spell != Expr::Spell::Plain) spelled(e, function, where);
    for (const ExprP& kid : e.kids) expr(*kid, scope, function, where);
  }

  /// What each spelling's emitted helper assumes about the plain node it stands for.
  void spelled(const Expr& e, int function, const std::string& where) const {
    const bool binary = e.kind == ExprKind::Binary && e.kids.size() == 2;
    const bool closed = binary &&
                        (e.binary == BinaryOp::Add || e.binary == BinaryOp::Sub || e.binary == BinaryOp::Mul ||
                         e.binary == BinaryOp::BitAnd || e.binary == BinaryOp::BitOr || e.binary == BinaryOp::BitXor);
    switch (e.spell) {
    case Expr::Spell::ClassTemplate:
      if (!closed) fail(where, "a class-template spelling of an operator whose type is not its operands' common type");
      break;
    case Expr::Spell::Sfinae: {
      const Value want = Value::make(e.type, is_signed(e.type) ? 5 : 10);
      if (!binary || e.binary != BinaryOp::BitXor || bit_width(e.type) < 32 || e.kids[0]->type != e.type ||
          e.kids[1]->kind != ExprKind::Const || !(e.kids[1]->constant == want))
        fail(where, "a SFINAE spelling that is not x ^ T(5) (signed) or x ^ T(10) (unsigned) of a 4- or 8-byte T");
      break;
    }
    case Expr::Spell::Vector:
      if (!binary || (e.binary != BinaryOp::Add && e.binary != BinaryOp::BitOr && e.binary != BinaryOp::BitXor) ||
          bit_width(e.type) < 32 || e.spell_index < 2 || e.spell_index > (bit_width(e.type) == 32 ? 4 : 3))
        fail(where, "a vector spelling of an operator or width the vector helpers do not have");
      break;
    case Expr::Spell::Lambda: {
      if (function >= 0 || !kernel_ || e.spell_index < 0 || e.spell_index >= static_cast<int>(kernel_->lambdas.size()))
        fail(where, "a lambda call outside its kernel, or of a lambda the kernel does not take");
      const LambdaFn& fn = kernel_->lambdas[e.spell_index];
      if (!binary || e.binary != fn.op || e.kids[0]->type != fn.constant.type || e.kids[1]->kind != ExprKind::Const ||
          !(e.kids[1]->constant == fn.constant))
        fail(where, "a lambda call that is not the lambda's own `x op c`");
      break;
    }
    default: break;
    }
  }

  /// What the emitted intrinsics accept (collectives_gen.cpp): widths are powers of two up to
  /// 32, a tile's xor mask stays in the tile, the operand types are those the overloads take.
  void collective_shape(const Stmt& s, const std::string& where) const {
    const bool power = s.width >= 2 && s.width <= 32 && (s.width & (s.width - 1)) == 0;
    if ((s.kind == StmtKind::Shuffle || s.kind == StmtKind::Tile) && !power)
      fail(where, "a shuffle or tile width that is not a power of two from 2 to 32");
    if (s.kind == StmtKind::Tile && s.tile == TileOp::ShflXor && (s.param < 1 || s.param >= s.width))
      fail(where, "a tile's shfl_xor mask outside the tile");
    if (s.kind == StmtKind::WarpReduce) {
      const bool bitwise = s.reduce == ReduceOp::And || s.reduce == ReduceOp::Or || s.reduce == ReduceOp::Xor;
      if (s.expr->type != s.target_type ||
          (s.target_type != IntType::UInt && (bitwise || s.target_type != IntType::Int)))
        fail(where, "a __reduce_*_sync operand of a type its overloads do not take");
    }
    if (s.kind == StmtKind::AtomicLoop) {
      const bool unsigned_only = s.atomic != AtomicKind::Min && s.atomic != AtomicKind::Max;
      if (s.expr->type != s.target_type || (unsigned_only && is_signed(s.target_type)) ||
          (s.array < 0 && s.target_type != IntType::ULLong) ||
          (s.spelling == AtomicSpelling::CasLoop && s.target_type == IntType::LLong))
        fail(where, "an atomic loop on a word type its update does not take");
    }
  }

  void block(const Block& statements, std::set<int>& scope, int function, bool top, bool& returned,
             const std::string& where) const {
    for (const Stmt& s : statements) {
      if (s.lane) expr(*s.lane, scope, function, where);
      if (s.kind == StmtKind::AtomicLoop) {
        // The operand reads the loop variable; the loop is the statement's own.
        std::set<int> inner = scope;
        inner.insert(s.loop_var);
        if (s.expr) expr(*s.expr, inner, function, where);
        if (s.trips < 1 || s.step < 1) fail(where, "an atomic loop without a constant positive trip count");
      } else if (s.expr) {
        expr(*s.expr, scope, function, where);
      }
      collective_shape(s, where);
      if (s.kind == StmtKind::Atomic && s.last_block && s.atomic != AtomicKind::Add)
        fail(where, "a last-block-done reduction that is not a sum");
      if (is_collective(s.kind)) {
        if (!top) fail(where, "a barrier, warp operation or atomic outside the kernel's top level");
        if (returned) fail(where, "a barrier, warp operation or atomic after a divergent return");
      }
      switch (s.kind) {
      case StmtKind::Decl: scope.insert(s.var); break;
      case StmtKind::Assign:
        if (!scope.count(s.var)) fail(where, "assignment to a variable out of scope");
        break;
      case StmtKind::If: {
        bool inner_return = false;
        std::set<int> then_scope = scope, else_scope = scope;
        block(s.body, then_scope, function, false, inner_return, where);
        block(s.else_body, else_scope, function, false, inner_return, where);
        if (inner_return) {
          if (!top) fail(where, "return below the top level");
          returned = true;
        }
        break;
      }
      case StmtKind::For: {
        if (s.trips < 1 || s.step < 1) fail(where, "a loop without a constant positive trip count");
        std::set<int> inner = scope;
        inner.insert(s.var);
        bool inner_return = false;
        block(s.body, inner, function, false, inner_return, where);
        if (inner_return) fail(where, "return inside a loop");
        break;
      }
      case StmtKind::Switch: {
        std::set<Value, bool (*)(const Value&, const Value&)> labels(
            [](const Value& a, const Value& b) { return a.bits < b.bits; });
        bool inner_return = false;
        for (const SwitchCase& c : s.cases) {
          if (!labels.insert(c.label).second) fail(where, "duplicate case label");
          std::set<int> case_scope = scope;
          block(c.body, case_scope, function, false, inner_return, where);
        }
        std::set<int> default_scope = scope;
        block(s.body, default_scope, function, false, inner_return, where);
        if (inner_return) fail(where, "return inside a switch");
        break;
      }
      case StmtKind::Return:
        if (function >= 0) fail(where, "return statement in a device function body");
        returned = true;
        break;
      case StmtKind::Exchange:
      case StmtKind::Shuffle:
      case StmtKind::Vote:
      case StmtKind::SyncCount:
      case StmtKind::WarpReduce:
      case StmtKind::Tile: scope.insert(s.var); break;
      case StmtKind::WarpMatch:
        scope.insert(s.var);
        if (s.pred_var >= 0) scope.insert(s.pred_var);
        break;
      case StmtKind::AtomicLoop:
        if (s.array >= 0) scope.insert(s.var);
        break;
      default: break;
      }
    }
  }

  void run() const {
    for (std::size_t f = 0; f < program_.functions.size(); ++f) {
      const Function& function = program_.functions[f];
      std::set<int> scope;
      for (int p = 0; p < function.param_count; ++p) scope.insert(p);
      bool returned = false;
      block(function.body, scope, static_cast<int>(f), false, returned, function.name);
      expr(*function.result_expr, scope, static_cast<int>(f), function.name);
    }
    Interpreter interpreter(program_);
    for (const Kernel& k : program_.kernels) {
      const std::uint32_t per_block = k.launch.threads_per_block();
      if (per_block % 32 != 0 || (per_block & (per_block - 1)) != 0 || k.launch.threads() > 512)
        fail(k.name, "launch is not whole warps in a power-of-two block of at most 512 threads");
      std::set<int> scope = {0, 1};
      for (const ScalarParam& p : k.params) scope.insert(p.var);
      bool returned = false;
      kernel_ = &k;
      block(k.body, scope, -1, true, returned, k.name);
      kernel_ = nullptr;
      const Interpreter::KernelRun run = interpreter.run(k);
      if (!run.problem.empty()) fail(k.name, run.problem);
      if (run.checksum != k.expected_checksum) fail(k.name, "the expected checksum does not match a fresh run");
    }
  }

private:
  const Program& program_;
  std::uint64_t seed_;
  mutable const Kernel* kernel_ = nullptr;  ///< the kernel being checked (its lambdas)
};

} // namespace

void validate_program(const Program& program, std::uint64_t seed) { Validator(program, seed).run(); }

} // namespace cudiff::generator
