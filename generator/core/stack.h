// stack: the per-thread device stack a generated program asks for (internal to generator/).
#pragma once

#include "generator/generator.h"
#include "generator/ir.h"

#include <cstdint>
#include <map>
#include <string>

namespace cudiff::generator {

/// The bound of one frame of a function or kernel body with `vars` variables and `nodes`
/// expression nodes: kFrameBase + kFramePerVar * vars + kFramePerNode * nodes.
std::uint64_t frame_bound(std::size_t vars, std::size_t nodes);

/// The deepest call chain of each kernel, frame by frame, with frame_bound for each frame
/// (a recursive function counts recursion_depth_max + 1 of its frames), plus an allowance for
/// the helpers, probes and lambdas any frame may call; the largest over the kernels.
DeviceStack plan_device_stack(const Program& program);

} // namespace cudiff::generator
