// layout: turns the invented types into text (definitions, device probe arrays, the host
// print function) and sidecar entries, per the probe protocol in generator/layout.h.
#include "generator/layout/layout_parts.h"

#include <algorithm>

namespace cudiff::generator::layout {
namespace {

std::string keyword_of(const TypeModel& type) {
  switch (type.kind) {
  case TypeKind::union_: return "union";
  case TypeKind::enum_: return "enum";
  case TypeKind::empty:
  case TypeKind::record: return type.class_keyword ? "class" : "struct";
  }
  return "struct";
}

std::string alignas_text(int align) { return align > 0 ? "alignas(" + std::to_string(align) + ") " : ""; }

std::string member_declaration(const MemberModel& model) {
  const AggregateMember& member = model.member;
  if (member.bit_width > 0 || (member.kind == "bitfield" && member.name.empty()))
    return member.type + (member.name.empty() ? "" : " " + member.name) + " : " + std::to_string(member.bit_width) +
           ";";
  std::string text = alignas_text(model.align_as) + model.element + " " + member.name;
  if (member.array_length > 0) text += "[" + std::to_string(member.array_length) + "]";
  return text + ";";
}

std::string enum_definition(const TypeModel& type) {
  std::string text = std::string(type.class_keyword ? "enum class " : "enum ") + type.name + " : " + type.underlying +
                     " {";
  for (std::size_t i = 0; i < type.enumerators.size(); ++i) text += (i ? ", " : " ") + type.enumerators[i];
  return text + " };\n";
}

std::string constructors_text(const TypeModel& type) {
  // No execution space on the defaulted one: nvcc ignores it with warning 20012-D, and a
  // function defaulted on its first declaration gets its callers' spaces (V-IMPLICIT-EXECSPACE).
  std::string text = "  " + type.name + "() = default;\n";
  const auto params = constructor_members(type);
  if (params.empty()) return text;
  const MemberModel& first = *params[0];
  text += "  __host__ __device__ explicit " + type.name + "(" + first.member.type + " a0) : " + first.member.name +
          "(a0) {}\n";
  if (type.delegating_constructor) {
    const MemberModel& second = *params[1];
    text += "  __host__ __device__ " + type.name + "(" + first.member.type + " a0, " + second.member.type +
            " a1) : " + type.name + "(a0) { " + second.member.name + " = a1; }\n";
  }
  return text;
}

/// Multiplying and adding in unsigned long long wraps, which is defined: no UB whatever the
/// member values.
std::string fold_text(const TypeModel& type) {
  std::string text = "  __host__ __device__ unsigned long long cudiff_fold() const {\n"
                     "    unsigned long long h = 14695981039346656037ull;\n";
  for (const MemberModel* member : fold_members(type))
    text += "    h = (h ^ static_cast<unsigned long long>(" + member->member.name + ")) * 1099511628211ull;\n";
  return text + "    return h;\n  }\n";
}

std::string record_definition(const TypeModel& type) {
  std::string text = keyword_of(type) + " " + alignas_text(type.align_as) + type.name;
  for (std::size_t i = 0; i < type.bases.size(); ++i) text += (i ? ", public " : " : public ") + type.bases[i];
  text += " {\n";
  if (type.class_keyword) text += "public:\n";
  for (const MemberModel& member : type.members) text += "  " + member_declaration(member) + "\n";
  if (type.constructors) text += constructors_text(type);
  if (type.member_functions) {
    if (type.kind == TypeKind::empty)
      text += "  __host__ __device__ int cudiff_tag() const { return " + std::to_string(type.name.size()) + "; }\n";
    else text += fold_text(type);
  }
  text += "};\n";
  // The generator's own model, checked by both compilers: offsetof is used only where it
  // holds, and device_value_type promises trivial copies.
  if (type.standard_layout && type.kind != TypeKind::enum_)
    text += "static_assert(std::is_standard_layout_v<" + type.name + ">, \"cudiff: standard layout\");\n";
  if (type.kind != TypeKind::enum_)
    text += "static_assert(std::is_trivially_copyable_v<" + type.name + ">, \"cudiff: trivially copyable\");\n";
  return text;
}

Aggregate aggregate_of(const TypeModel& type) {
  Aggregate aggregate;
  aggregate.name = type.name;
  aggregate.keyword = keyword_of(type);
  for (const MemberModel& member : type.visible_members) aggregate.members.push_back(member.member);
  // nvcc's device code lays out long double members differently from its own sizeof (it
  // stores them as double): such types stay on the host side.
  aggregate.device_value_type = !type.long_double;
  if (type.member_functions && type.kind == TypeKind::record) aggregate.fold_function = "cudiff_fold";
  if (type.constructors) {
    const auto params = constructor_members(type);
    if (!params.empty()) aggregate.constructors.push_back({params[0]->member.name});
    if (type.delegating_constructor) aggregate.constructors.push_back({params[0]->member.name, params[1]->member.name});
  }
  return aggregate;
}

/// Probe names carry the prefix (a batch's "s<seed>_"): the arrays are extern "C", so
/// namespaces do not keep two tests' arrays apart, and the host's lines must not clash either.
std::string array_name(const TypeModel& type, const std::string& prefix) {
  return "cudiff_layout_" + prefix + type.name;
}

} // namespace

std::vector<std::string> probe_properties(const TypeModel& type) {
  std::vector<std::string> properties = {"sizeof", "alignof"};
  if (!type.standard_layout || type.kind == TypeKind::enum_) return properties;
  for (const MemberModel& member : type.visible_members)
    if (member.member.bit_width == 0 && !member.member.name.empty())
      properties.push_back("offsetof." + member.member.name);
  return properties;
}

std::string probe_expression(const TypeModel& type, const std::string& property, const std::string& qualifier) {
  const std::string name = qualifier + type.name;
  if (property == "sizeof") return "sizeof(" + name + ")";
  if (property == "alignof") return "alignof(" + name + ")";
  return "offsetof(" + name + ", " + property.substr(std::string("offsetof.").size()) + ")";
}

void emit_layout(const TypeSet& types, LayoutPlan& plan, const std::string& prefix, const std::string& qualifier) {
  plan.constructs_used = types.constructs_used;
  plan.definitions.clear();  // the includes it needs (<cstddef>, <type_traits>) are in the preamble
  plan.device_probes.clear();
  std::string rows;
  for (const TypeModel& type : types.types) {
    plan.definitions += type.kind == TypeKind::enum_ ? enum_definition(type) : record_definition(type);
    plan.aggregates.push_back(aggregate_of(type));

    const std::vector<std::string> properties = probe_properties(type);
    std::string values;
    for (const std::string& property : properties) {
      values += (values.empty() ? "" : ", ") + probe_expression(type, property, qualifier);
      rows += "      {\"" + prefix + type.name + "\", \"" + property + "\", " + probe_expression(type, property, "") +
              "},\n";
    }
    plan.device_probes += "extern \"C\" { __device__ unsigned long long " + array_name(type, prefix) + "[] = {" +
                          values + "}; }\n";
    Sidecar::LayoutProbe probe{prefix + type.name, array_name(type, prefix), properties, {}};
    for (const MemberModel& member : type.visible_members) {
      // One entry per name, as the JSON object this was written as kept it (the last kind wins).
      auto same = std::ranges::find(probe.member_kinds, member.member.name,
                                    [](const auto& kind) { return kind.first; });
      if (same != probe.member_kinds.end()) same->second = member.member.kind;
      else probe.member_kinds.emplace_back(member.member.name, member.member.kind);
    }
    plan.probes.push_back(std::move(probe));
  }
  // A table the host walks: the same expressions as the device arrays, evaluated by the host
  // compiler. It prints only; it touches no CUDA API, so `--layout` works without a GPU.
  plan.host_probe_function = "static void cudiff_print_layout() {\n";
  if (!rows.empty()) {
    plan.host_probe_function +=
        "  struct Row { const char* type; const char* property; unsigned long long value; };\n"
        "  static const Row rows[] = {\n" +
        rows +
        "  };\n"
        "  for (const Row& row : rows) std::printf(\"layout %s %s %llu\\n\", row.type, row.property, row.value);\n";
  }
  plan.host_probe_function += "}\n";
}

} // namespace cudiff::generator::layout
