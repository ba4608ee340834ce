// abi_emit: the text of the ABI family (docs/generator.md, "ABI family") — the types, the
// `__device__ __noinline__` functions and their result folds, the kernels' extra parameters and
// the host's arguments — and the sidecar entries naming each parameter's kind. Every formula
// here is the one abi_params.cpp computes.
#include "generator/abi/abi.h"

namespace cudiff::generator {
namespace {

std::vector<const AbiFunction*> functions_of(const Program& program, int kernel) {
  std::vector<const AbiFunction*> found;
  for (const AbiFunction& function : program.abi)
    if (function.kernel == kernel) found.push_back(&function);
  return found;
}

std::string whole_literal(const AbiField& field) {
  return std::to_string(field.whole) + (field.float_type == "float" ? ".0f" : ".0");
}

std::string field_literal(const AbiField& field) {
  return field.floating ? whole_literal(field) : literal(field.value);
}

std::string member(const std::string& value, const AbiField& field) {
  return field.name.empty() ? value : value + "." + field.name;
}

/// Lines that add the fold of `value` (an lvalue of `type`) to the variable `sum`.
void fold_lines(const AbiType& type, const std::string& value, const std::string& sum, const std::string& indent,
                std::string& out) {
  if (type.kind == AbiKind::EmptyStruct) {
    out += indent + sum + " += 7ull;\n";
    return;
  }
  if (type.kind == AbiKind::LargeStruct) {
    out += indent + "for (int i = 0; i < " + std::to_string(type.array_length) + "; ++i) " + sum +
           " += (unsigned long long)" + value + ".v[i] * (unsigned long long)(2 * i + 3);\n";
    return;
  }
  for (std::size_t j = 0; j < type.fields.size(); ++j)
    out += indent + sum + " += (unsigned long long)(" + member(value, type.fields[j]) + ") * " +
           std::to_string(2 * j + 3) + "ull;\n";
}

/// `field = <piece j of h>` as abi_result_of computes it.
std::string piece_text(const AbiField& field, std::size_t j) {
  const std::string shifted = "(h >> " + std::to_string(8 * j) + ")";
  if (field.floating) return "(" + field.float_type + ")(" + shifted + " & 1048575ull)";
  if (field.value.type == IntType::Bool) return "(" + shifted + " & 1ull) != 0";
  const int bits = bit_width(field.value.type) - (is_signed(field.value.type) ? 1 : 0);
  const std::uint64_t mask = bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
  return "(" + field.type_name() + ")(" + shifted + " & " + std::to_string(mask) + "ull)";
}

std::string parameter_text(const AbiParam& p, std::size_t j) {
  const std::string name = "a" + std::to_string(j);
  if (p.kind == AbiKind::Pointer) return "const " + p.type.name + "* " + name;
  if (p.kind == AbiKind::Reference) return "const " + p.type.name + "& " + name;
  return p.type.name + " " + name;
}

void function_text(const AbiFunction& f, std::string& out) {
  std::string params;
  for (std::size_t j = 0; j < f.params.size(); ++j) params += (j ? ", " : "") + parameter_text(f.params[j], j);
  const AbiType& r = f.result;
  out += "__device__ __noinline__ " + r.name + " " + f.name + "(" + params + ") {\n";
  out += "  unsigned long long h = " + std::to_string(f.salt) + "ull;\n";
  for (std::size_t j = 0; j < f.params.size(); ++j) {
    const std::string value = (f.params[j].kind == AbiKind::Pointer ? "(*a" : "(a") + std::to_string(j) + ")";
    out += "  {\n    unsigned long long s = 0;\n";
    fold_lines(f.params[j].type, value, "s", "    ", out);
    out += "    h = h * 1099511628211ull ^ s;\n  }\n";
  }
  if (r.kind == AbiKind::EmptyStruct) {
    out += "  (void)h;\n  return " + r.name + "{};\n}\n";
  } else if (r.kind == AbiKind::LargeStruct) {
    out += "  " + r.name + " r;\n  for (int i = 0; i < " + std::to_string(r.array_length) +
           "; ++i) r.v[i] = (unsigned int)(h + (unsigned long long)i * 7919ull);\n  return r;\n}\n";
  } else if (r.fields.size() == 1 && r.fields[0].name.empty()) {
    out += "  return " + piece_text(r.fields[0], 0) + ";\n}\n";
  } else {
    out += "  " + r.name + " r;\n";
    for (std::size_t j = 0; j < r.fields.size(); ++j)
      out += "  r." + r.fields[j].name + " = " + piece_text(r.fields[j], j) + ";\n";
    out += "  return r;\n}\n";
  }
  // The kernel's view of the result: one word, folded as abi_fold folds it.
  out += "static __device__ __forceinline__ unsigned long long " + f.name + "_result(const " + r.name + "& r) {\n";
  out += "  unsigned long long s = 0;\n";
  fold_lines(r, "r", "s", "  ", out);
  if (r.kind == AbiKind::EmptyStruct) out += "  (void)r;\n";
  out += "  return s;\n}\n";
}

/// A host function that builds a large struct argument (a launch is one expression).
std::string maker_name(const AbiParam& p) { return p.type.name + "_make"; }

void maker_text(const AbiParam& p, std::string& out) {
  const AbiType& t = p.type;
  out += "static " + t.name + " " + maker_name(p) + "() {\n  " + t.name + " t;\n";
  out += "  for (unsigned int i = 0; i < " + std::to_string(t.array_length) +
         "u; ++i) t.v[i] = " + std::to_string(t.array_base) + "u + i * " + std::to_string(t.array_step) +
         "u;\n  return t;\n}\n";
}

std::string argument_text(const AbiParam& p) {
  const AbiType& t = p.type;
  std::string values;
  for (const AbiField& field : t.fields) values += (values.empty() ? "" : ", ") + field_literal(field);
  switch (t.kind) {
  case AbiKind::Vector: return t.maker + "(" + values + ")";
  case AbiKind::LargeStruct: return maker_name(p) + "()";
  case AbiKind::AlignasStruct:
  case AbiKind::EmptyStruct:
  case AbiKind::DoublePair: return t.name + "{" + values + "}";
  default: return values;  // a scalar's one literal
  }
}

std::string int_kind(IntType type) {
  switch (type) {
  case IntType::Bool: return "bool";
  case IntType::Char:
  case IntType::SChar:
  case IntType::UChar: return "char";
  case IntType::Short:
  case IntType::UShort: return "16-bit integer";
  case IntType::Int:
  case IntType::UInt: return "32-bit integer";
  case IntType::LLong:
  case IntType::ULLong: return "64-bit integer";
  }
  return "integer";
}

std::string scope_of(const Kernel& k, const std::string& scope) {
  return scope + k.ns + (k.inline_ns ? "::v1" : "") + "::";
}

/// The kinds of a kernel's parameters in the order emit_kernel declares them.
std::vector<std::string> kernel_param_kinds(const Program& program, const Kernel& k, int index) {
  std::vector<std::string> kinds = {"pointer"};
  if (k.input_array >= 0 && !k.managed) kinds.push_back("pointer");
  bool grid_constant = false;
  for (const ScalarParam& p : k.params) {
    if (!p.grid_constant) kinds.push_back(int_kind(p.value.type));
    grid_constant = grid_constant || p.grid_constant;
  }
  if (grid_constant) kinds.push_back("struct (__grid_constant__)");
  for (std::size_t i = 0; i < k.lambdas.size(); ++i) kinds.push_back("closure");
  for (const AbiFunction* f : functions_of(program, index))
    for (const AbiParam& p : f->params)
      kinds.push_back(to_string(p.type.kind) + (p.grid_constant ? " (__grid_constant__)" : ""));
  return kinds;
}

} // namespace

std::string abi_definitions(const Program& program, int kernel) {
  std::string out;
  for (const AbiFunction* f : functions_of(program, kernel)) {
    out += "// cudiff ABI family: " + f->name + "\n";
    for (const AbiParam& p : f->params)
      if (!p.type.definition.empty()) out += p.type.definition + "\n";
    if (!f->result.definition.empty()) out += f->result.definition + "\n";
    function_text(*f, out);
    for (const AbiParam& p : f->params)
      if (p.type.kind == AbiKind::LargeStruct) maker_text(p, out);
  }
  return out;
}

std::string abi_kernel_params(const Program& program, int kernel) {
  std::string out;
  for (const AbiFunction* f : functions_of(program, kernel))
    for (const AbiParam& p : f->params)
      out += ", " + std::string(p.grid_constant ? "const __grid_constant__ " : "") + p.type.name + " " + p.kernel_param;
  return out;
}

std::string abi_launch_args(const Program& program, int kernel) {
  std::string out;
  for (const AbiFunction* f : functions_of(program, kernel))
    for (const AbiParam& p : f->params) out += ", " + argument_text(p);
  return out;
}

std::vector<std::string> abi_arguments(const AbiFunction& function) {
  std::vector<std::string> arguments;
  for (const AbiParam& p : function.params) arguments.push_back(argument_text(p));
  return arguments;
}

std::vector<Sidecar::AbiFunction> abi_sidecar(const Program& program, const std::string& scope) {
  std::vector<Sidecar::AbiFunction> entries;
  for (const AbiFunction& f : program.abi) {
    Sidecar::AbiFunction entry;
    entry.name = scope_of(program.kernels[static_cast<std::size_t>(f.kernel)], scope) + f.name;
    for (const AbiParam& p : f.params) entry.params.push_back(to_string(p.kind));
    entry.result = to_string(f.result.kind);
    entries.push_back(std::move(entry));
  }
  for (std::size_t k = 0; k < program.kernels.size(); ++k) {
    const int index = static_cast<int>(k);
    if (functions_of(program, index).empty()) continue;
    const Kernel& kernel = program.kernels[k];
    entries.push_back(Sidecar::AbiFunction{scope_of(kernel, scope) + kernel.name, true,
                                           kernel_param_kinds(program, kernel, index), ""});
  }
  return entries;
}

} // namespace cudiff::generator
