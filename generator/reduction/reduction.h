// reduction: the edits of the IR reduction (ProgramReduction, generator.h), by family: a
// compute-dense kernel's (reduction_dense.cpp) and its inline-PTX blocks' (reduction_ptx.cpp),
// a core program's kernels and functions (reduction_core.cpp), the ABI family's
// (reduction_abi.cpp). The program-level edits and the class are in reduction.cpp.
// Internal to generator/.
#pragma once

#include "generator/dense/dense.h"
#include "generator/ir.h"

#include <functional>
#include <string>
#include <vector>

namespace cudiff::generator {

/// One edit of a core program (one test's Program): what it does, for logs; its kind, a name
/// without numbers that groups the edits the tests cover one by one ("core: delete statement");
/// and the change itself, which returns false when it finds nothing to change. Expected
/// checksums are left to the caller, which runs the interpreter and the validator on the
/// result and drops a candidate they refuse.
struct ProgramEdit {
  std::string what;
  std::string kind;
  std::function<bool(Program&)> apply;
};

/// The edits inside the core kernels of `program`, coarse first: each kernel's launch (one
/// block, one warp), then every statement (delete it; keep one branch of an if, the body of
/// one case of a switch, the first trip of a loop or a single trip; a collective replaced by
/// the declaration of its result as 0), then every expression node (its operand, converted to
/// its type, or 0), then each device function nothing calls any more.
std::vector<ProgramEdit> core_edits(const Program& program);

/// The ABI family's edits: each function goes with its call (the kernel's output word no
/// longer folds its result), then each parameter of each function.
std::vector<ProgramEdit> abi_edits(const Program& program);
/// ABI function `index` removed with its call; false when there is no such function.
bool remove_abi_function(Program& program, std::size_t index);
/// Core kernel `index` removed with the ABI functions it calls (the later kernels' ABI
/// functions renumbered): its namespace, and what only it used, go with it in the text.
bool remove_core_kernel(Program& program, std::size_t index);

namespace dense {

/// One edit of a kernel, as ProgramEdit for a compute-dense kernel.
struct KernelEdit {
  std::string what;
  std::string kind;
  std::function<bool(Kernel&)> apply;
};

/// Every edit `kernel` offers, coarse first: its launch (one block, one warp), its functions,
/// runs of top-level statements, each statement (delete it, keep only its body or a branch,
/// one loop trip, no unroll pragma, a switch case less, a collective as a plain assignment,
/// an inline-PTX block's edits), each operation (one of its operands of the same width, or
/// zero; a base-word read as zero), then the variables, base, local and shared words nothing
/// uses, and the variables' input words.
/// Each edit keeps the kernel one the emitter and the interpreter accept, or the interpreter
/// throws Error(internal) on it (a break left outside its loop): the caller drops that one.
std::vector<KernelEdit> kernel_edits(const Kernel& kernel);

} // namespace dense

namespace ptx {

/// One edit of an inline-PTX block.
struct BlockEdit {
  std::string what;
  std::string kind;
  std::function<bool(Block&)> apply;
};

/// The block's edits, each followed by the deletion of the instructions it left unread: the
/// instructions whose results nothing reads, each output as 0 with what
/// only it needed (a block of several outputs), halves, quarters... of its
/// instructions, then each instruction (a label only when no branch names it), each
/// instruction's result as 0 (a `mov` of an immediate), then each guard dropped (the
/// instruction runs unconditionally). A block that then reads a register
/// before writing it, never writes an output or never ends is refused by the interpreter
/// (ptx::run throws Error(internal)).
std::vector<BlockEdit> block_edits(const Block& block);
/// Input operand `input` removed from the block when no instruction reads it (the later
/// inputs renumbered): the caller removes the statement's expression for it. False when an
/// instruction reads it.
bool drop_unused_input(Block& block, std::size_t input);

} // namespace ptx

} // namespace cudiff::generator
