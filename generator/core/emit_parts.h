// emit_parts: what the emitter's files share — the text writer, the statement emitter, and
// the pieces each file provides. Internal to generator/.
#pragma once

#include "generator/core/emit.h"

#include <set>
#include <string>
#include <vector>

namespace cudiff::generator {

struct Writer {
  std::string text;
  int indent = 0;
  void line(const std::string& content) { text += std::string(indent * 2, ' ') + content + "\n"; }
};

/// Statements and expressions of one function or kernel body (emit.cpp).
class Emitter {
public:
  Emitter(const Program& program, const std::vector<Var>& vars) : program_(program), vars_(vars) {}

  std::string expr(const Expr& e) const { return emit_expr(e, program_, vars_); }
  void block(const Block& statements, Writer& w) const {
    for (const Stmt& stmt : statements) statement(stmt, w);
  }
  void statement(const Stmt& s, Writer& w) const;

  // Kernel bodies only: output words per thread, where the reduction words start, and the
  // kernel's name (the last-block-done pattern's globals are named after it).
  int slots_ = 1;
  std::uint32_t reduction_base_ = 0;
  std::string kernel_name_;

private:
  void nested(const Block& statements, Writer& w) const;
  void last_block_sum(const Stmt& s, Writer& w) const;
  // emit_collectives.cpp: WarpMatch, WarpReduce, Tile and AtomicLoop.
  void new_collective(const Stmt& s, Writer& w) const;
  void atomic_loop(const Stmt& s, Writer& w) const;

  const Program& program_;
  const std::vector<Var>& vars_;
};

/// "a, b, c" of the literals.
std::string join_values(const std::vector<Value>& values);

/// The includes every program starts with (emit_helpers.cpp).
std::string prelude_text();
/// cudiff_check, cudiff_input and cudiff_fold: the host side's fixed helpers.
std::string runtime_helpers_text();
/// The global helper templates the program calls, in a fixed order.
std::string helper_templates(const std::set<std::string>& used);
/// The name (without the cudiff_ prefix) of a variadic fold helper.
std::string fold_helper_name(bool right, BinaryOp op);
/// The vector type family of a 4- or 8-byte integer type: "int", "uint", "longlong", "ulonglong".
std::string vector_family(IntType type);

/// A kernel, its globals and its host runner (emit_kernel.cpp).
void emit_kernel(const Program& program, const Kernel& kernel, const EmitOptions& options, Writer& w);

} // namespace cudiff::generator
