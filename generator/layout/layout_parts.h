// layout internals: the model of invented types that layout_types.cpp builds and
// layout_emit.cpp turns into text. Internal to generator/layout/layout*.cpp.
#pragma once

#include "generator/layout/layout.h"

#include <set>
#include <string>
#include <vector>

namespace cudiff::generator::layout {

enum class TypeKind { record, union_, enum_, empty };

struct MemberModel {
  AggregateMember member;  ///< name empty for an unnamed bit-field
  int align_as = 0;        ///< alignas(N) on the member, 0 for none
  std::string element;     ///< the element type of an array member, else the member's type
  std::string referenced;  ///< the earlier generated type it is (or is an array of), if any
};

struct TypeModel {
  std::string name;
  TypeKind kind = TypeKind::record;
  bool class_keyword = false;
  std::string underlying;             ///< enums: the fixed underlying type
  std::vector<std::string> enumerators;  ///< enums: "name = value"
  std::vector<std::string> bases;     ///< direct bases, earlier record or empty types
  std::vector<MemberModel> members;   ///< own data members in declaration order
  int align_as = 0;                   ///< alignas(N) on the type, 0 for none
  int alignment = 1;                  ///< natural alignment, the stricter of host and device
  bool constructors = false;
  bool delegating_constructor = false;
  bool member_functions = false;
  /// What the generator knows to be standard-layout (conservatively: false may be wrong, true
  /// never is, and is checked with a static_assert). offsetof is used only on these.
  bool standard_layout = true;
  bool long_double = false;           ///< has a long double, directly or through members/bases
  bool has_data = false;              ///< it or a base has a non-static data member
  std::vector<std::string> all_bases; ///< every base subobject's type, with repeats
  /// Named data members reachable as `object.name`: the bases' (in order), then its own.
  std::vector<MemberModel> visible_members;
};

struct TypeSet {
  std::vector<TypeModel> types;  ///< in definition order: each uses only earlier ones
  std::set<std::string> constructs_used;
};

/// Own integer members (not bit-fields, not bool), in order: what converting and delegating
/// constructors take, one parameter each.
std::vector<const MemberModel*> constructor_members(const TypeModel& type);
/// Visible integer, bool and bit-field members of a record: what the fold function combines.
std::vector<const MemberModel*> fold_members(const TypeModel& type);

/// Invents the program's types per the policy and swarm.
TypeSet invent_types(const Policy& policy, Rng& rng, const Swarm& swarm, Size size);

/// The probed properties of a type, in the protocol's order: "sizeof", "alignof",
/// "offsetof.<member>"... (members only for standard-layout types, never bit-fields).
std::vector<std::string> probe_properties(const TypeModel& type);
/// The C++ expression of one property, e.g. "offsetof(LayS0, m1)".
std::string probe_expression(const TypeModel& type, const std::string& property, const std::string& qualifier);

/// Fills the text pieces and the sidecar entries of `plan` from the types.
void emit_layout(const TypeSet& types, LayoutPlan& plan, const std::string& prefix, const std::string& qualifier);

} // namespace cudiff::generator::layout
