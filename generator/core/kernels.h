// kernels: the skeleton of a program's kernels and their generation (internal to generator/).
#pragma once

#include "generator/core/gen_context.h"

namespace cudiff::generator {

/// Generates kernel number `index` (its namespace, launch, globals, body) into ctx.program,
/// with its expected checksum from the interpreter. Throws Error(internal) if the interpreter
/// finds undefined behaviour or a race in it (a generator defect).
void generate_kernel(GenContext& ctx, int index);

} // namespace cudiff::generator
