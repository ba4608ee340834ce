// abi_types: the data of the ABI family (generator/abi/abi_params.cpp) as the program IR holds
// it — device functions whose parameters and results are of many kinds, the kernel parameters
// their arguments come from, and the value each call folds into its kernel's checksum.
// Internal to generator/.
#pragma once

#include "generator/semantics/values.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cudiff::generator {

/// The source type's kind of a parameter or result (the sidecar's and the oracle's words).
enum class AbiKind : std::uint8_t {
  AlignasStruct,  ///< struct alignas(8|16|32) of 1-3 integers
  Vector,         ///< a built-in vector type: int2, float4, longlong2, char3, short2...
  Scalar64,       ///< long long, unsigned long long
  Scalar16,       ///< short, unsigned short
  Bool,
  Char,           ///< char, signed char, unsigned char
  EmptyStruct,
  DoublePair,     ///< struct { double re, im; }, complex-like
  LargeStruct,    ///< struct { unsigned int v[N]; }, N up to 256 (1 KiB)
  Pointer,        ///< const T*: the kernel passes its parameter's address
  Reference,      ///< const T&
};
std::string to_string(AbiKind kind);

/// One scalar piece of a value: a member, a vector component, or the value itself (name "").
/// Integers hold `value`; `float`/`double` pieces hold small whole numbers (`whole`), exact
/// in either type, so nothing but integers is ever computed with them.
struct AbiField {
  std::string name;
  bool floating = false;
  std::string float_type;  ///< "float" or "double" when floating
  Value value;             ///< integers: the value (its type is the field's)
  std::uint32_t whole = 0;  ///< floating: the value, below 2^20
  std::string type_name() const { return floating ? float_type : generator::type_name(value.type); }
};

/// A value type of the family, with the value a kernel parameter holds (or a result gets).
struct AbiType {
  AbiKind kind = AbiKind::Scalar64;  ///< the value's kind (never Pointer or Reference)
  std::string name;                  ///< "int2", "long long", "cudiff_abi_0_p1"
  std::string definition;            ///< the struct's text; "" for built-in types
  std::string maker;                 ///< vectors: "make_int2"
  std::vector<AbiField> fields;      ///< in declaration order; empty for an empty struct
  int array_length = 0;              ///< LargeStruct: `unsigned int v[array_length]`
  std::uint32_t array_base = 0, array_step = 0;  ///< LargeStruct: v[i] = base + i * step
};

/// One parameter of an ABI function and the kernel parameter its argument comes from.
struct AbiParam {
  AbiKind kind = AbiKind::Scalar64;  ///< as the function takes it (Pointer, Reference or the value's)
  AbiType type;                      ///< the value (the pointee, for Pointer and Reference)
  std::string kernel_param;          ///< "abi0_1"
  bool grid_constant = false;        ///< the kernel parameter is `const __grid_constant__`
};

/// A `__device__ __noinline__` function with external linkage, called once from its kernel
/// with the kernel's parameters. It folds its arguments into h (from `salt`), builds its
/// result from h, and the kernel folds the result into one output word by `^`.
struct AbiFunction {
  std::string name;  ///< "cudiff_abi_0"
  int kernel = -1;   ///< index into Program::kernels
  std::vector<AbiParam> params;
  AbiType result;
  std::uint64_t salt = 0;
  std::uint64_t folded = 0;  ///< the kernel's value of `cudiff_abi_N_result(cudiff_abi_N(...))`
};

} // namespace cudiff::generator
