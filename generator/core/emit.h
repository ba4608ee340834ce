// emit: writes the .cu text of a generated program from its IR (internal to generator/).
#pragma once

#include "generator/ir.h"
#include "generator/layout/layout.h"

#include <boost/json.hpp>

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cudiff::generator {

/// What the emitter needs besides the IR.
struct EmitOptions {
  std::string header;  ///< the leading comment: seed, version, policy hash, size, constructs
  bool restrict_pointers = false;
  bool launch_bounds = false;
  /// Prefix of the checksum lines' test names: "" alone, "s<seed>/" inside a batch.
  std::string checksum_label;
  /// The device stack main() asks for (plan_device_stack).
  std::uint64_t stack_bytes = 1024;
};

/// The whole translation unit: the header, the preamble, the test body, then main().
std::string emit_program(const Program& program, const LayoutPlan& layout, const EmitOptions& options);

/// The includes and the host's runtime helpers (cudiff_check, cudiff_input, cudiff_fold): once
/// per translation unit.
std::string emit_preamble();
/// One program without its preamble, device layout probes and main: layout types, helper templates, one
/// namespace per kernel (globals, device functions, kernel, host runner), then
/// `cudiff_print_layout()` and `cudiff_run_tests()`. A batch wraps each in its own namespace.
std::string emit_test_body(const Program& program, const LayoutPlan& layout, const EmitOptions& options);
/// main(): `--layout` prints every test's probes; otherwise it asks for `stack_bytes` of
/// device stack per thread (generator/core/stack.h), each test's kernels run in order, then the
/// probes are printed. `test_namespaces` qualify the calls ("" for a lone program).
std::string emit_main(const std::vector<std::string>& test_namespaces, std::uint64_t stack_bytes);

/// Whether a program's kernels use cooperative groups (tiles, cg exchanges) or
/// cuda::atomic_ref (emit_collectives.cpp): only such programs include their headers.
bool uses_cooperative_groups(const Program& program);
bool uses_atomic_ref(const Program& program);
/// `#include <cooperative_groups.h>`, `<cooperative_groups/reduce.h>`, `<cuda/atomic>` as asked.
std::string collective_includes(bool cooperative_groups, bool atomic_ref);

// ---- a core kernel's launch plan (core_plan.cpp; its names from generator/mangle.h) ----

/// The launch plan of core kernel `kernel` (Program::kernels[kernel]), a runners/launch.h launch
/// description in its JSON form, when its runner's host side is exactly what a plan says: its
/// output (zeroed, the reduction words at their identities) and input buffers, its scalar
/// parameters and `__grid_constant__` struct (as bytes), its namespace's `__constant__` arrays,
/// the launch, the device stack and `checksum <label><name>` over the output words
/// (emit_kernel.cpp). None for a kernel that is managed, takes lambdas or functors (a template),
/// or takes the ABI family's parameters: such a test is built whole. `scope` ("" or
/// "cudiff_s7::") holds the kernel's namespace.
std::optional<boost::json::object> core_launch_plan(const Program& program, int kernel,
                                                    const std::string& checksum_label, const std::string& scope,
                                                    std::uint64_t stack_bytes);

/// One expression as C++ text (fully parenthesized).
std::string emit_expr(const Expr& expr, const Program& program, const std::vector<Var>& vars);

} // namespace cudiff::generator
