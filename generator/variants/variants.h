// variants: EMI and metamorphic variants of a generated program (docs/generator.md,
// "Variants") — the IR helpers and the transforms the variant pass draws from. Internal to
// generator/.
#pragma once

#include "common/rng.h"
#include "generator/ir.h"

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace cudiff::generator {

// ---- the pass (variants.cpp) -------------------------------------------------------------

/// Turns `program` (a freshly built copy of the seed's program) into its variant `index`
/// (1-based): a few transforms drawn from a stream of the seed and index, every one of them
/// preserving each kernel's checksum. Returns the transforms applied, in order. Re-runs the
/// interpreter and the validator on the result and throws Error(internal) naming the seed, the
/// variant and its transforms when a checksum differs from the original's or the program is
/// invalid.
std::vector<std::string> derive_variant(Program& program, std::uint64_t seed, int index);

/// The program generate_program makes for `seed`, built and validated, before emission
/// (generate.cpp): what the transforms' tests start from.
Program built_program(const Policy& policy, std::uint64_t seed, Size size);

/// The transforms the pass knows, by name: "dead_code", "identity", "reassociate",
/// "loop_split", "loop_peel", "loop_unswitch", "outline", "inline", "reorder".
const std::vector<std::string>& variant_transform_names();

/// Applies one transform by name at one place `rng` picks; false when the program has no place
/// it applies to (nothing changed). The name it records may be more precise than `name`
/// ("loop_version" for an unswitch without an invariant condition). Throws Error(internal)
/// for an unknown name.
bool apply_variant_transform(Program& program, Rng& rng, std::string_view name, std::vector<std::string>& applied);

/// The hook of the compute-dense family (generator/dense/dense*.cpp): called once per variant after
/// the core transforms, it may rewrite the dense family's IR held beside the core IR and append
/// the names of what it did. The default (variants_dense.cpp) does nothing.
void derive_dense_variant(Program& program, Rng& rng, std::vector<std::string>& applied);

// ---- IR helpers (variants_ir.cpp) ----------------------------------------------------------

ExprP make_const(Value value);
ExprP make_var(int id, IntType type);
ExprP make_builtin(Builtin builtin);
/// `a op b` typed as C++ types it (result_type).
ExprP make_binary(BinaryOp op, ExprP a, ExprP b);
ExprP make_cast(IntType type, ExprP operand);
ExprP make_load(const Program& program, int array, std::uint32_t index);
ExprP make_cond(ExprP condition, ExprP a, ExprP b);

/// A new variable "emi_<n>" of `type` in `vars`; its id.
int add_variant_var(std::vector<Var>& vars, IntType type);

/// Every variable an expression reads.
void vars_read(const Expr& expr, std::set<int>& into);
/// Whether a node or any node below it satisfies `test`.
bool any_node(const Expr& expr, const std::function<bool(const Expr&)>& test);
/// `expr` with variables renamed by `remap` (ids absent from it stay).
ExprP remap_vars(const ExprP& expr, const std::map<int, int>& remap);
/// A copy of `block` (whose variables are `from`'s) in which every variable it declares (Decl,
/// For, a collective's result) is a new one of `to`, and its uses follow; `remap` renames
/// outer variables as well and ends holding the top level's renaming.
Block clone_fresh(const Block& block, const std::vector<Var>& from, std::vector<Var>& to, std::map<int, int>& remap);
/// The same within one function or kernel.
Block clone_fresh(const Block& block, std::vector<Var>& vars);
/// Whether a statement holds a `return` (kernels only have one in a top-level if).
bool contains_return(const Stmt& stmt);
/// Variables a statement (and everything below it) declares or assigns.
void vars_written(const Stmt& stmt, std::set<int>& into);

/// Where an expression or a block sits: a kernel body (kernel >= 0) or a device function
/// (function >= 0).
struct Owner {
  int kernel = -1;
  int function = -1;
};
struct ExprSlot {
  ExprP* expr = nullptr;
  Owner owner;
};
struct BlockSlot {
  Block* block = nullptr;
  Owner owner;
  bool top = false;  ///< a kernel's top-level block
};
/// Every statement expression and function result of the program (kernels first). Pointers
/// are valid until the program's statements change.
std::vector<ExprSlot> expr_slots(Program& program);
/// Every block of the program: kernel bodies and what they nest, then function bodies.
std::vector<BlockSlot> block_slots(Program& program);
/// The variables of an owner.
std::vector<Var>& owner_vars(Program& program, Owner owner);

/// Nodes a rewrite may replace: pre-order, never below a spelled node (its text is made from
/// the plain node's shape: folds, lambdas, probes), counted by `eligible`.
int count_nodes(const Expr& expr, const std::function<bool(const Expr&)>& eligible);
/// `expr` with its `index`-th eligible node (count_nodes' order) replaced by `rewrite(node)`.
ExprP rewrite_node(const ExprP& expr, int index, const std::function<bool(const Expr&)>& eligible,
                   const std::function<ExprP(const ExprP&)>& rewrite);

/// A value the compiler cannot know but the generator does: an element of the kernel's input
/// (its values are known, the host fills them at run time) or a launch dimension, typed T.
ExprP opaque_key(const Program& program, Owner owner, IntType type, Rng& rng);
/// A condition false on every thread that no compiler can fold: `in[j] == w` with w not the
/// element's value, or a scalar parameter compared with another value than the host passes.
ExprP opaque_false(const Program& program, const Kernel& kernel, Rng& rng);
/// A condition defined on every thread, true on some and false on others: both arms of what
/// it guards must compute the same.
ExprP opaque_any(const Program& program, const Kernel& kernel, Rng& rng);

// ---- transforms (one file each group) ------------------------------------------------------

bool dead_code(Program& program, Rng& rng);                                     // variants_dead.cpp
bool identity_rewrite(Program& program, Rng& rng);                              // variants_rewrite.cpp
bool reassociate(Program& program, Rng& rng);                                   // variants_rewrite.cpp
bool reorder_statements(Program& program, Rng& rng);                            // variants_rewrite.cpp
bool split_loop(Program& program, Rng& rng, bool peel);                         // variants_loops.cpp
bool unswitch_loop(Program& program, Rng& rng, std::vector<std::string>& applied);  // variants_loops.cpp
bool outline_expression(Program& program, Rng& rng);                            // variants_calls.cpp
bool inline_call(Program& program, Rng& rng);                                   // variants_calls.cpp

} // namespace cudiff::generator
