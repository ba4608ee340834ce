// reduction: the edits of the IR reduction (ProgramReduction, generator.h) on one
// compute-dense kernel. Internal to generator/.
#pragma once

#include "generator/dense/dense.h"

#include <functional>
#include <string>
#include <vector>

namespace cudiff::generator::dense {

/// One edit of a kernel: what it does, for logs, and the change itself, which returns false
/// when it finds nothing to change. The kernel's expected checksum is left to the caller.
struct KernelEdit {
  std::string what;
  std::function<bool(Kernel&)> apply;
};

/// Every edit `kernel` offers, coarse first: its launch (one block, one warp), its functions,
/// runs of top-level statements, each statement (delete it, keep only its body or a branch,
/// one loop trip, no unroll pragma, a switch case less), each operation (one of its operands
/// of the same width, or zero; a base-word read as zero), then the variables, base, local and
/// shared words nothing uses, and the variables' input words.
/// Each edit keeps the kernel one the emitter and the interpreter accept, or the interpreter
/// throws Error(internal) on it (a break left outside its loop): the caller drops that one.
std::vector<KernelEdit> kernel_edits(const Kernel& kernel);

}  // namespace cudiff::generator::dense
