// validate: IR invariants checked after generation (internal to generator/).
#pragma once

#include "generator/ir.h"

#include <cstdint>

namespace cudiff::generator {

/// Checks what the generator promises about a program: every variable declared before use and
/// in scope, collectives (barriers, warp operations, atomics) only at a kernel's top level and
/// never after a divergent return, loop bounds constant and positive, calls to functions defined
/// earlier in the file, launches of whole warps with power-of-two blocks, and — by running the
/// interpreter — every index in bounds, no UB, no output word written by two threads, and the
/// recorded expected checksum. Throws Error(internal) naming the seed and the violation.
void validate_program(const Program& program, std::uint64_t seed);

} // namespace cudiff::generator
