// abi: the ABI family — device functions and kernel parameters of many kinds planted
// into a built program (docs/generator.md, "ABI family"), and their text. Internal to
// generator/.
#pragma once

#include "generator/generator.h"
#include "generator/ir.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cudiff::generator {

/// With the policy's "abi.share", adds up to "abi.functions.max" ABI functions, each called
/// from one kernel with that kernel's new parameters, its result xor-ed into one of the
/// kernel's output words; the kernels' expected checksums are recomputed by the interpreter.
/// Uses a random stream of its own, derived from `seed`: a program without the family is
/// unchanged.
void plant_abi(Program& program, const Policy& policy, std::uint64_t seed);

/// The value of `cudiff_abi_N_result(cudiff_abi_N(args))` for the function's arguments: the
/// interpreter's view of the call (what the emitted code computes, exactly).
std::uint64_t abi_call_value(const AbiFunction& function);
/// The kernel's text of the call: `cudiff_abi_N_result(cudiff_abi_N(abiN_0, &abiN_1, ...))`,
/// the text of the Named expression node that stands for it in the kernel's IR.
std::string abi_call_text(const AbiFunction& function);
/// The fold of a value, as the emitted code computes it (wrapping unsigned arithmetic).
std::uint64_t abi_fold(const AbiType& type);
/// The function's result type with the fields it gets from h.
AbiType abi_result_of(const AbiType& result, std::uint64_t h);

/// The types, device function and result helper of kernel `kernel`'s ABI functions: device
/// code in the kernel's namespace, before the kernel.
std::string abi_definitions(const Program& program, int kernel);
/// ", const __grid_constant__ T abi0_1, ...": the kernel's extra parameters.
std::string abi_kernel_params(const Program& program, int kernel);
/// ", T{...}, make_int2(...), ...": the host's arguments for them.
std::string abi_launch_args(const Program& program, int kernel);
/// The host's argument for each of the function's parameters (the value its kernel parameter
/// gets): "make_int2(1, -2)", "cudiff_abi_0_p1{5, 7}", "(short)-3"...
std::vector<std::string> abi_arguments(const AbiFunction& function);
/// The sidecar entries: each ABI function and each kernel that calls one, with the kinds of
/// their parameters in order. `scope` prefixes the names ("cudiff_s7::" in a batch).
std::vector<Sidecar::AbiFunction> abi_sidecar(const Program& program, const std::string& scope);

} // namespace cudiff::generator
