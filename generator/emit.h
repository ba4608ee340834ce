// emit: writes the .cu text of a generated program from its IR (internal to generator/).
#pragma once

#include "generator/ir.h"
#include "generator/layout.h"

#include <set>
#include <string>

namespace cudiff::generator {

/// What the emitter needs besides the IR.
struct EmitOptions {
  std::string header;  ///< the leading comment: seed, version, policy hash, size, constructs
  bool restrict_pointers = false;
  bool launch_bounds = false;
};

/// The whole translation unit: includes, layout definitions and probes, one namespace per
/// kernel test (its globals, device functions, kernel and host runner), then main().
std::string emit_program(const Program& program, const LayoutPlan& layout, const EmitOptions& options);

/// One expression as C++ text (fully parenthesized).
std::string emit_expr(const Expr& expr, const Program& program, const std::vector<Var>& vars);

} // namespace cudiff::generator
