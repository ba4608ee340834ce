// layout: invents the aggregate types of one program (records, unions, enums, empty bases)
// with their members, bases, alignas and bit-fields, per the policy and the swarm.
#include "generator/layout/layout_parts.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace cudiff::generator::layout {
namespace {

struct Scalar {
  std::string_view name;
  int bits;    ///< for bit-field widths
  int align;   ///< natural alignment on x86-64 Linux and NVPTX64 (they agree for these)
  bool is_signed;
};

// bool and plain char are members but not bit-field types: a bool bit-field wider than one
// bit draws a warning, and plain char's signedness would make the bit-field's range vary.
constexpr std::array<Scalar, 12> kIntegers{{
    {"bool", 1, 1, false},
    {"char", 8, 1, true},
    {"signed char", 8, 1, true},
    {"unsigned char", 8, 1, false},
    {"short", 16, 2, true},
    {"unsigned short", 16, 2, false},
    {"int", 32, 4, true},
    {"unsigned int", 32, 4, false},
    {"long", 64, 8, true},
    {"unsigned long", 64, 8, false},
    {"long long", 64, 8, true},
    {"unsigned long long", 64, 8, false},
}};

/// The vector types' element names and sizes; alignments follow the guide's table (V-VECTOR-ALIGN).
struct VectorBase {
  std::string_view name;
  int size;
};
constexpr std::array<VectorBase, 12> kVectorBases{{{"char", 1},
                                                   {"uchar", 1},
                                                   {"short", 2},
                                                   {"ushort", 2},
                                                   {"int", 4},
                                                   {"uint", 4},
                                                   {"long", 8},
                                                   {"ulong", 8},
                                                   {"longlong", 8},
                                                   {"ulonglong", 8},
                                                   {"float", 4},
                                                   {"double", 8}}};

constexpr int kLongDoubleAlign = 16;  // the host's; clang's device side says 8 (docs/generator.md)

int max_count(const Policy& policy, Size size, std::string_view what) {
  return static_cast<int>(policy.get(to_string(size) + "." + std::string(what)));
}

class Inventor {
public:
  Inventor(const Policy& policy, Rng& rng, const Swarm& swarm, Size size)
      : policy_(policy), rng_(rng), swarm_(swarm), size_(size) {}

  TypeSet run() {
    const int count = static_cast<int>(rng_.range(0, max_count(policy_, size_, "types.max")));
    for (int i = 0; i < count; ++i) add_type();
    return std::move(set_);
  }

private:
  const Policy& policy_;
  Rng& rng_;
  const Swarm& swarm_;
  Size size_;
  TypeSet set_;
  int next_member_ = 0;

  double knob(std::string_view name) const { return policy_.get(name); }
  bool on(std::string_view construct) const { return swarm_.on(construct); }
  void used(const std::string& construct) { set_.constructs_used.insert(construct); }

  const TypeModel* find(const std::string& name) const {
    for (const TypeModel& type : set_.types)
      if (type.name == name) return &type;
    return nullptr;
  }

  /// Records and unions with data: what a nested member or array element may be.
  std::vector<const TypeModel*> nestable() const {
    std::vector<const TypeModel*> out;
    for (const TypeModel& type : set_.types)
      if ((type.kind == TypeKind::record || type.kind == TypeKind::union_) && type.has_data) out.push_back(&type);
    return out;
  }
  std::vector<const TypeModel*> of_kind(TypeKind kind) const {
    std::vector<const TypeModel*> out;
    for (const TypeModel& type : set_.types)
      if (type.kind == kind) out.push_back(&type);
    return out;
  }

  void add_type() {
    const bool records = on("struct_types") || on("class_types");
    // An empty class is only ever a base, so it needs inheritance too.
    std::vector<double> weights = {records ? knob("layout.type.record") : 0.0,
                                   on("unions") ? knob("layout.type.union") : 0.0,
                                   on("enums") ? knob("layout.type.enum") : 0.0,
                                   on("empty_bases") && on("inheritance") && records ? knob("layout.type.empty") : 0.0};
    if (std::all_of(weights.begin(), weights.end(), [](double w) { return w <= 0; })) return;
    TypeModel type;
    const std::size_t index = set_.types.size();
    switch (rng_.weighted(weights)) {
    case 0: type = make_record(index); break;
    case 1: type = make_union(index); break;
    case 2: type = make_enum(index); break;
    default: type = make_empty(index); break;
    }
    set_.types.push_back(std::move(type));
  }

  // ---- kinds of types -------------------------------------------------------------------

  TypeModel make_enum(std::size_t index) {
    used("enums");
    TypeModel type;
    type.kind = TypeKind::enum_;
    type.name = "LayE" + std::to_string(index);
    const Scalar& underlying = kIntegers[static_cast<std::size_t>(rng_.range(1, kIntegers.size() - 1))];
    type.underlying = std::string(underlying.name);
    type.alignment = underlying.align;
    type.class_keyword = rng_.chance(knob("layout.enum.scoped"));
    const int count = static_cast<int>(rng_.range(1, static_cast<std::int64_t>(knob("layout.enum.enumerators.max"))));
    std::int64_t value = 0;
    for (int i = 0; i < count; ++i) {
      value += rng_.range(0, 20);  // ascending and below 128: fits every underlying type
      if (value > 127) break;
      // Unscoped enumerators live in the enclosing scope: the type name keeps them unique.
      type.enumerators.push_back(type.name + "_e" + std::to_string(i) + " = " + std::to_string(value));
    }
    type.has_data = false;
    return type;
  }

  TypeModel make_empty(std::size_t index) {
    used("empty_bases");
    TypeModel type;
    type.kind = TypeKind::empty;
    type.name = "LayB" + std::to_string(index);
    type.member_functions = on("member_functions") && rng_.chance(knob("layout.member_functions"));
    if (type.member_functions) used("member_functions");
    return type;
  }

  TypeModel make_union(std::size_t index) {
    used("unions");
    TypeModel type;
    type.kind = TypeKind::union_;
    type.name = "LayU" + std::to_string(index);
    add_members(type, /*in_union=*/true);
    finish(type);
    return type;
  }

  TypeModel make_record(std::size_t index) {
    TypeModel type;
    const bool as_class = on("class_types") && (!on("struct_types") || rng_.chance(knob("layout.class_keyword")));
    type.class_keyword = as_class;
    used(as_class ? "class_types" : "struct_types");
    type.name = (as_class ? "LayC" : "LayS") + std::to_string(index);
    choose_bases(type);
    add_members(type, /*in_union=*/false);
    finish(type);
    if (on("constructors") && rng_.chance(knob("layout.constructors"))) {
      type.constructors = true;
      used("constructors");
      if (on("delegating_constructors") && rng_.chance(knob("layout.delegating_constructor")) &&
          constructor_members(type).size() >= 2) {
        type.delegating_constructor = true;
        used("delegating_constructors");
      }
    }
    if (on("member_functions") && rng_.chance(knob("layout.member_functions")) && !fold_members(type).empty()) {
      type.member_functions = true;
      used("member_functions");
    }
    return type;
  }

  // ---- bases ----------------------------------------------------------------------------

  /// Direct bases: distinct, and none a base of another (a direct base that is also an
  /// indirect one is inaccessible, and compilers warn about it).
  void choose_bases(TypeModel& type) {
    if (!on("inheritance") || !rng_.chance(knob("layout.bases"))) return;
    std::vector<const TypeModel*> candidates;
    for (const TypeModel& other : set_.types)
      if (other.kind == TypeKind::record || other.kind == TypeKind::empty) candidates.push_back(&other);
    if (candidates.empty()) return;
    const int most = on("multiple_inheritance") ? static_cast<int>(knob("layout.bases.max")) : 1;
    const int count = static_cast<int>(rng_.range(1, most));
    for (int i = 0; i < count; ++i) {
      const TypeModel* base = rng_.pick(candidates);
      auto related = [&](const std::string& chosen) {
        const TypeModel* other = find(chosen);
        return chosen == base->name || std::count(other->all_bases.begin(), other->all_bases.end(), base->name) > 0 ||
               std::count(base->all_bases.begin(), base->all_bases.end(), chosen) > 0;
      };
      if (std::any_of(type.bases.begin(), type.bases.end(), related)) continue;
      type.bases.push_back(base->name);
    }
    used("inheritance");
    if (type.bases.size() > 1) used("multiple_inheritance");
  }

  // ---- members --------------------------------------------------------------------------

  void add_members(TypeModel& type, bool in_union) {
    const int most = max_count(policy_, size_, "members.max");
    const int count = static_cast<int>(rng_.range(type.bases.empty() ? 1 : 0, most));
    for (int i = 0; i < count; ++i) add_member(type, in_union);
  }

  std::string member_name() { return "m" + std::to_string(next_member_++); }

  void add_member(TypeModel& type, bool in_union) {
    const bool nested = on("nested_aggregates") && !nestable().empty();
    const bool enums = on("enums") && !of_kind(TypeKind::enum_).empty();
    const std::vector<double> weights = {knob("layout.member.integer"),
                                         on("float_members") ? knob("layout.member.float") : 0.0,
                                         on("bit_fields") ? knob("layout.member.bitfield") : 0.0,
                                         on("vector_members") ? knob("layout.member.vector") : 0.0,
                                         on("array_members") ? knob("layout.member.array") : 0.0,
                                         nested ? knob("layout.member.nested") : 0.0,
                                         enums ? knob("layout.member.enum") : 0.0,
                                         on("long_double_members") ? knob("layout.member.long_double") : 0.0};
    const std::size_t choice = rng_.weighted(weights);
    if (choice == 2) return add_bitfield(type);
    MemberModel member;
    switch (choice) {
    case 0: member = integer_member(); break;
    case 1: member = float_member(); break;
    case 3: member = vector_member(); break;
    case 4: member = array_member(nested); break;
    case 5: member = nested_member(); break;
    case 6: member = enum_member(); break;
    default: member = long_double_member(); break;
    }
    member.member.name = member_name();
    if (in_union) member.member.integer_scalar = false;  // only one member is ever active
    if (on("alignas_members") && rng_.chance(knob("layout.alignas.member"))) {
      member.align_as = alignment_of(member)
                        << rng_.range(0, static_cast<std::int64_t>(knob("layout.alignas.steps.max")));
      used("alignas_members");
    }
    type.members.push_back(std::move(member));
  }

  MemberModel scalar_member(std::string_view type_name, std::string kind, bool integer) {
    MemberModel member;
    member.member.type = std::string(type_name);
    member.member.kind = std::move(kind);
    member.member.integer_scalar = integer;
    member.element = member.member.type;
    return member;
  }

  MemberModel integer_member() {
    const Scalar& scalar = kIntegers[static_cast<std::size_t>(rng_.below(kIntegers.size()))];
    const bool is_bool = scalar.name == "bool";
    return scalar_member(scalar.name, is_bool ? "bool" : "integer", !is_bool);
  }

  MemberModel float_member() {
    used("float_members");
    return scalar_member(rng_.chance(0.5) ? "float" : "double", "float", false);
  }

  MemberModel long_double_member() {
    used("long_double_members");
    return scalar_member("long double", "long double", false);
  }

  MemberModel vector_member() {
    used("vector_members");
    const VectorBase& base = kVectorBases[static_cast<std::size_t>(rng_.below(kVectorBases.size()))];
    const int components = static_cast<int>(rng_.range(1, 4));
    std::string name = std::string(base.name) + std::to_string(components);
    // CUDA 13 deprecates the 8-byte 4-component vectors in favour of explicit alignments.
    if (components == 4 && base.size == 8) name += rng_.chance(0.5) ? "_16a" : "_32a";
    return scalar_member(name, "vector", false);
  }

  MemberModel nested_member() {
    used("nested_aggregates");
    const TypeModel* inner = rng_.pick(nestable());
    MemberModel member = scalar_member(inner->name, inner->kind == TypeKind::union_ ? "union" : "aggregate", false);
    member.referenced = inner->name;
    return member;
  }

  MemberModel enum_member() {
    const TypeModel* inner = rng_.pick(of_kind(TypeKind::enum_));
    MemberModel member = scalar_member(inner->name, "enum", false);
    member.referenced = inner->name;
    return member;
  }

  MemberModel array_member(bool nested) {
    used("array_members");
    const std::vector<double> weights = {1.0, on("vector_members") ? 0.5 : 0.0, nested ? 0.5 : 0.0,
                                         on("float_members") ? 0.3 : 0.0};
    MemberModel member;
    switch (rng_.weighted(weights)) {
    case 0: member = integer_member(); break;
    case 1: member = vector_member(); break;
    case 2: member = nested_member(); break;
    default: member = float_member(); break;
    }
    member.member.kind = "array";
    member.member.integer_scalar = false;
    member.member.array_length = static_cast<int>(
        rng_.range(1, static_cast<std::int64_t>(knob("layout.array.length.max"))));
    return member;
  }

  void add_bitfield(TypeModel& type) {
    used("bit_fields");
    auto pick_type = [&](bool want_signed) -> const Scalar& {
      std::vector<const Scalar*> fits;
      for (const Scalar& scalar : kIntegers)
        if (scalar.name != "bool" && scalar.name != "char" && scalar.is_signed == want_signed) fits.push_back(&scalar);
      return *rng_.pick(fits);
    };
    if (on("zero_width_bit_fields") && rng_.chance(knob("layout.bitfield.zero_width"))) {
      type.members.push_back(bitfield_member(pick_type(rng_.chance(0.5)), 0, ""));
      used("zero_width_bit_fields");
    }
    if (on("zero_width_bit_fields") && rng_.chance(knob("layout.bitfield.unnamed"))) {
      const Scalar& scalar = pick_type(rng_.chance(0.5));
      type.members.push_back(bitfield_member(scalar, static_cast<int>(rng_.range(1, scalar.bits)), ""));
      used("zero_width_bit_fields");
    }
    const Scalar& scalar = pick_type(rng_.chance(knob("layout.bitfield.signed")));
    // A one-bit signed bit-field holds only 0 and -1; nvcc warns about it (108-D).
    const int narrowest = scalar.is_signed ? 2 : 1;
    type.members.push_back(
        bitfield_member(scalar, static_cast<int>(rng_.range(narrowest, scalar.bits)), member_name()));
  }

  MemberModel bitfield_member(const Scalar& scalar, int width, std::string name) {
    MemberModel member = scalar_member(scalar.name, "bitfield", !name.empty());
    member.member.name = std::move(name);
    member.member.bit_width = width;
    return member;
  }

  // ---- derived facts --------------------------------------------------------------------

  int alignment_of_type(const std::string& name) const {
    for (const Scalar& scalar : kIntegers)
      if (scalar.name == name) return scalar.align;
    if (name == "float") return 4;
    if (name == "double") return 8;
    if (name == "long double") return kLongDoubleAlign;
    if (const TypeModel* type = find(name)) return std::max(type->alignment, type->align_as);
    for (const VectorBase& base : kVectorBases) {
      if (name.rfind(base.name, 0) != 0 || name.size() < base.name.size() + 1) continue;
      const char digit = name[base.name.size()];
      if (digit < '1' || digit > '4' || (name.size() > base.name.size() + 1 && name[base.name.size() + 1] != '_'))
        continue;
      if (name.ends_with("_16a")) return 16;
      if (name.ends_with("_32a")) return 32;
      const int n = digit - '0';
      return n == 2 ? 2 * base.size : n == 4 ? 4 * base.size : base.size;
    }
    throw Error(ErrorKind::internal, "layout: no alignment known for '" + name + "'");
  }

  int alignment_of(const MemberModel& member) const { return alignment_of_type(member.element); }

  /// Alignment, standard-layoutness, long double, visible members: from members and bases.
  void finish(TypeModel& type) {
    int alignment = 1;
    bool standard = true;
    int classes_with_data = 0;
    for (const std::string& base_name : type.bases) {
      const TypeModel& base = *find(base_name);
      alignment = std::max({alignment, base.alignment, base.align_as});
      standard = standard && base.standard_layout;
      type.long_double = type.long_double || base.long_double;
      if (base.has_data) ++classes_with_data;
      type.all_bases.push_back(base.name);
      type.all_bases.insert(type.all_bases.end(), base.all_bases.begin(), base.all_bases.end());
      type.visible_members.insert(type.visible_members.end(), base.visible_members.begin(), base.visible_members.end());
    }
    bool own_data = false;
    for (const MemberModel& member : type.members) {
      if (member.member.bit_width > 0 || member.member.name.empty()) {
        if (!member.member.name.empty()) own_data = true;
        alignment = std::max(alignment, alignment_of(member));
        if (!member.member.name.empty()) type.visible_members.push_back(member);
        continue;
      }
      own_data = true;
      alignment = std::max({alignment, alignment_of(member), member.align_as});
      if (member.member.type == "long double") type.long_double = true;
      if (!member.referenced.empty()) {
        const TypeModel& inner = *find(member.referenced);
        standard = standard && (inner.kind == TypeKind::enum_ || inner.standard_layout);
        type.long_double = type.long_double || inner.long_double;
      }
      type.visible_members.push_back(member);
    }
    if (own_data) ++classes_with_data;
    type.has_data = classes_with_data > 0 || !type.visible_members.empty();
    if (classes_with_data > 1) standard = false;  // data declared in more than one class
    std::vector<std::string> sorted = type.all_bases;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) standard = false;  // a repeated base
    // Conservative stand-in for the "first member's type is a base" rule: with any base, a
    // first member of class type (or array of one) is taken as not standard-layout.
    if (!type.all_bases.empty() && !type.visible_members.empty() && !type.visible_members.front().referenced.empty() &&
        type.visible_members.front().member.kind != "enum")
      standard = false;
    type.standard_layout = standard;
    type.alignment = alignment;
    if (on("alignas_types") && rng_.chance(knob("layout.alignas.type"))) {
      type.align_as = alignment << rng_.range(0, static_cast<std::int64_t>(knob("layout.alignas.steps.max")));
      used("alignas_types");
    }
  }
};

} // namespace

std::vector<const MemberModel*> constructor_members(const TypeModel& type) {
  std::vector<const MemberModel*> out;
  for (const MemberModel& member : type.members)
    if (member.member.kind == "integer" && member.member.bit_width == 0) out.push_back(&member);
  return out;
}

std::vector<const MemberModel*> fold_members(const TypeModel& type) {
  std::vector<const MemberModel*> out;
  for (const MemberModel& member : type.visible_members)
    if (member.member.integer_scalar || member.member.kind == "bool") out.push_back(&member);
  return out;
}

TypeSet invent_types(const Policy& policy, Rng& rng, const Swarm& swarm, Size size) {
  return Inventor(policy, rng, swarm, size).run();
}

} // namespace cudiff::generator::layout
