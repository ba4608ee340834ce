// Aggregate types and their layout probes: the generator's contract between the core (which
// emits the program and may use the types in kernels) and the layout part (which invents the
// types and their probes). Internal to generator/.
//
// Probe protocol (read by oracle/ and documented in docs/generator.md):
//  - device view: for each type T, `extern "C" { __device__ unsigned long long
//    cudiff_layout_<T>[] = {sizeof(T), alignof(T), offsetof(T, m1), ...}; }` constant-initialized,
//    so its values can be read from the PTX of either compiler without a GPU. The braces
//    matter: nvcc 13 turns `extern "C" __device__ T x = ...;` (no braces) into a host-side
//    declaration without a definition, and the program fails to link;
//  - host view: the program prints `layout <T> <property> <value>` lines, with the same
//    properties in the same order, after its checksum lines, and prints only them (touching no
//    CUDA API) when run with the single argument `--layout`;
//  - sidecar: "layout_probes": [{"type": T, "array": "cudiff_layout_<T>", "properties":
//    ["sizeof", "alignof", "offsetof.m1", ...], "member_kinds": {"m1": "bitfield", ...}}].
//    offsetof appears only for standard-layout types and never for bit-fields; member_kinds
//    names every named data member (integer, bool, float, long double, bitfield, vector,
//    array, aggregate, union, enum).
#pragma once

#include "generator/generator.h"

#include <set>
#include <string>
#include <vector>

namespace cudiff::generator {

struct AggregateMember {
  std::string name;
  std::string type;        ///< C++ spelling of the member's type, e.g. "short2", "unsigned char"
  std::string kind;        ///< what it is, for findings: "integer", "bitfield", "vector", "array", ...
  int bit_width = 0;       ///< > 0 for a bit-field
  int array_length = 0;    ///< > 0 for an array member
  bool integer_scalar = false;  ///< a plain integer (or bit-field) kernels may read and write
};

struct Aggregate {
  std::string name;  ///< qualified as the kernels must spell it
  std::string keyword;  ///< "struct", "class" (members public), "union" or "enum"
  std::vector<AggregateMember> members;
  /// Trivially copyable, default-constructible on host and device: may be a kernel parameter,
  /// a local in device code, or an element of a __device__/__constant__ array.
  bool device_value_type = false;
  /// A `__host__ __device__` const member function returning unsigned long long that folds
  /// the integer, bool and bit-field members (well defined, no overflow); "" when none.
  std::string fold_function;
  /// Its `__host__ __device__` constructors beyond the defaulted default one, each as the
  /// names of the members its parameters initialize, in parameter order (e.g. {"m3"},
  /// {"m3", "m5"}); a parameter has its member's type. Other members stay uninitialized.
  std::vector<std::vector<std::string>> constructors;
};

struct LayoutPlan {
  std::vector<Aggregate> aggregates;
  std::string definitions;          ///< the types, at namespace scope, before any kernel
  std::string device_probes;        ///< the cudiff_layout_<T> arrays, for the global scope
  std::string host_probe_function;  ///< defines `static void cudiff_print_layout()`
  std::vector<Sidecar::LayoutProbe> probes;  ///< the sidecar's "layout_probes"
  std::set<std::string> constructs_used;
};

/// The aggregate types of one program and their probes, per the policy and swarm. Probe array
/// names and the probed type names carry `probe_prefix` ("" alone; "s<seed>_" in a batch).
/// The device probe arrays are emitted at global scope (nvcc 13's registration code names an
/// extern "C" __device__ variable as `::name`, which fails inside a namespace), so in a batch
/// their expressions name the types with `type_qualifier` ("cudiff_s<seed>::").
LayoutPlan plan_layout(const Policy& policy, Rng& rng, const Swarm& swarm, Size size,
                       const std::string& probe_prefix = "", const std::string& type_qualifier = "");

} // namespace cudiff::generator
