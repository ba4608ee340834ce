// mangle: the Itanium C++ ABI names of generated kernels and namespace-scope variables, as nvcc
// and clang write them in PTX, for the launch plans that name them in a module (core and dense
// kernels' plans: core/core_plan.cpp, dense/dense_plan.cpp). Only the shapes the emitters write:
// namespaces (an inline one is part of the name), builtin integer types, pointers to them (const
// or not) and a struct declared in the kernel's own namespace. One mangler for every family, so
// that a fix to its substitutions reaches every plan.
#pragma once

#include "generator/semantics/values.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cudiff::generator {

/// A parameter type of a mangled function name: a builtin integer type by value, a pointer to
/// one (const or not; a pointer's own qualifiers, `__restrict__` too, are not mangled, nor is a
/// by-value parameter's top-level const), or a struct by value in `record_namespaces`.
struct MangledParam {
  enum class Kind : std::uint8_t { value, pointer, pointer_to_const, record };
  Kind kind = Kind::value;
  IntType type = IntType::Int;
  std::vector<std::string> record_namespaces = {};
  std::string record = {};
};
/// The Itanium ABI's code of a builtin type: "b", "c", "a", "h", "s", "t", "i", "j", "x", "y".
std::string builtin_code(IntType type);
/// A function's mangled name (`_ZN2ns6kernelEPyPKii`): its namespaces outermost first (an
/// inline namespace among them: it is part of the name), substitutions (`S_`, `S0_`) where a
/// struct's namespace or a type repeats.
std::string mangled_function(const std::vector<std::string>& namespaces, const std::string& name,
                             const std::vector<MangledParam>& params);
/// A namespace-scope variable's mangled name (`_ZN2ns6cmem_1E`); at global scope its own name.
std::string mangled_variable(const std::vector<std::string>& namespaces, const std::string& name);
/// A plan's `scope` ("a::b::", or "": a batch's test namespace) as namespaces, outermost first.
std::vector<std::string> scope_namespaces(const std::string& scope);

} // namespace cudiff::generator
