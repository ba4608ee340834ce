// oracle: parameter-ABI judging (docs/oracle.md, "Parameter ABI") — the `.param` declarations
// of the kernels and externally visible device functions both compilers define must describe
// the same calling convention. Spelling that has no effect on it is normalized away; one
// finding per function that differs.
#include "oracle/judge_parts.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace cudiff::oracle::detail {
namespace {

using boost::json::array;
using boost::json::object;

/// A signature binds only where some other code relies on it: a kernel (the host launches it
/// through the runtime, which lays out the arguments by the cubin's parameter table) or a
/// defined `.visible`/`.weak` device function (another module may call it). An internal
/// `.func` is the compiler's own business: nvcc drops unused parameters and narrows return
/// values of internal functions at -O3, which is no ABI difference.
bool binding(const PtxFunction& function) {
  if (!function.defined) return false;
  return function.kernel || function.linkage == PtxLinkage::visible || function.linkage == PtxLinkage::weak;
}

/// What of a declaration the calling convention sees: its bytes, its alignment and, for a
/// device function, whether it is a scalar (a register of its size) or an aggregate (a byte
/// array). The type's class (.b/.u/.s/.f), `.ptr` and its pointee attributes, an explicit
/// `.align` equal to the natural one and the name are spelling.
struct Shape {
  std::uint64_t bytes = 0;
  std::uint32_t alignment = 0;
  bool aggregate = false;
  bool operator==(const Shape&) const = default;
};

Shape shape_of(const PtxParam& param, bool kernel) {
  // A kernel's parameters are laid out in the constant bank by size and alignment alone, so a
  // scalar `.u32` and `.align 4 .b8 [4]` (nvcc's spelling of a __grid_constant__ int) agree.
  return Shape{param.bytes(), param.alignment, !kernel && param.array};
}

struct Reading {
  const AbiView* view = nullptr;
  const PtxFunction* function = nullptr;
};

const PtxFunction* find_function(const AbiView& view, const std::string& name) {
  for (const PtxFunction& function : view.functions)
    if (function.name == name) return &function;
  return nullptr;
}

/// The first position where two readings differ: "return value N" or "parameter N", what
/// differs ("count", "size", "alignment", "passing"), and the index (-1 for a count).
struct Difference {
  bool in_return = false;
  int index = -1;
  std::string property;
};

std::optional<Difference> list_difference(const std::vector<PtxParam>& a, const std::vector<PtxParam>& b, bool kernel,
                                          bool in_return) {
  const std::size_t common = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < common; ++i) {
    const Shape x = shape_of(a[i], kernel), y = shape_of(b[i], kernel);
    if (x == y) continue;
    const char* property = x.bytes != y.bytes ? "size" : x.alignment != y.alignment ? "alignment" : "passing";
    return Difference{in_return, static_cast<int>(i), property};
  }
  if (a.size() != b.size()) return Difference{in_return, static_cast<int>(common), "count"};
  return std::nullopt;
}

std::optional<Difference> difference(const PtxFunction& a, const PtxFunction& b) {
  if (auto found = list_difference(a.returns, b.returns, a.kernel, true)) return found;
  return list_difference(a.params, b.params, a.kernel, false);
}

/// The demangled name (cheap: the C++ runtime's demangler), else the symbol itself.
std::string demangled(const std::string& symbol) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> text(abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status),
                                              std::free);
  return status == 0 && text ? std::string(text.get()) : symbol;
}

/// The Itanium <source-name>s of a qualified name appear in its symbol in order
/// ("ns::f" → "2ns" ... "1f"): enough to find a sidecar's function without demangling.
bool names(const std::string& symbol, const std::string& qualified_name) {
  std::size_t at = 0;
  for (const std::string& part : split(qualified_name, ':')) {
    if (part.empty()) continue;
    const std::string source_name = std::to_string(part.size()) + part;
    at = symbol.find(source_name, at);
    if (at == std::string::npos) return false;
    at += source_name.size();
  }
  return at > 0;
}

const AbiFunctionKinds* kinds_of(const std::string& symbol, const std::vector<AbiFunctionKinds>& kinds) {
  for (const AbiFunctionKinds& entry : kinds)
    if (names(symbol, entry.qualified_name)) return &entry;
  return nullptr;
}

const std::vector<PtxParam>& list_of(const PtxFunction& function, const Difference& where) {
  return where.in_return ? function.returns : function.params;
}

/// The declaration at the difference's position ("(none)" past the end of the list).
std::string declaration_at(const PtxFunction& function, const Difference& where) {
  const std::vector<PtxParam>& list = list_of(function, where);
  const std::size_t index = static_cast<std::size_t>(std::max(where.index, 0));
  return index < list.size() ? list[index].declaration : "(none)";
}

/// The source type's kind: the sidecar's, else what the PTX shows ("aggregate", "scalar").
std::string param_kind(const Difference& where, const AbiFunctionKinds* kinds, const PtxFunction& function) {
  if (kinds) {
    if (where.in_return) return kinds->result.empty() ? "void" : kinds->result;
    if (where.index >= 0 && static_cast<std::size_t>(where.index) < kinds->params.size())
      return kinds->params[static_cast<std::size_t>(where.index)];
  }
  const std::vector<PtxParam>& list = list_of(function, where);
  const std::size_t index = static_cast<std::size_t>(std::max(where.index, 0));
  if (index >= list.size()) return "none";
  return list[index].array ? "aggregate" : "scalar";
}

std::string position_text(const Difference& where) {
  const std::string list = where.in_return ? "return value" : "parameter";
  if (where.property == "count") return list + "s";
  return list + " " + std::to_string(where.index);
}

Finding finding_for(const std::string& symbol, const std::vector<Reading>& readings, const Difference& where,
                    const std::vector<AbiFunctionKinds>& kinds, const std::string& runs) {
  const PtxFunction& first = *readings.front().function;
  const AbiFunctionKinds* known = kinds_of(symbol, kinds);
  const std::string function_kind = first.kernel ? "kernel" : "device function";
  const std::string kind = param_kind(where, known, first);
  const std::string property = (where.in_return ? "return " : "parameter ") + where.property;
  array declarations;
  std::vector<std::string> configs, sides;
  for (const Reading& reading : readings) {
    const std::string declaration = declaration_at(*reading.function, where);
    declarations.push_back(object{{"config", reading.view->config},
                                  {"compiler", runners::to_string(reading.view->compiler)},
                                  {"linkage", to_string(reading.function->linkage)},
                                  {"declaration", declaration},
                                  {"count", list_of(*reading.function, where).size()}});
    configs.push_back(reading.view->config);
    sides.push_back(reading.view->config + " " + declaration);
  }
  const std::string name = demangled(symbol);
  object details{{"function", name},
                 {"symbol", symbol},
                 {"function_kind", function_kind},
                 {"param_kind", kind},
                 {"position", position_text(where)},
                 {"property", property},
                 {"aspect", function_kind + ", " + kind},
                 {"declarations", declarations},
                 {"separate_compilation", readings.front().view->separate_compilation},
                 {"arch", readings.front().view->arch},
                 {"runs", runs},
                 {"stage", to_string(Stage::device_codegen)}};
  const std::string summary = function_kind + " " + name + ": " + position_text(where) + " (" + kind + ") " +
                              where.property + " differs: " + join(sides, " vs ") + "; runs " + runs;
  return make_finding(FindingKind::abi_mismatch, configs, summary, std::move(details));
}

/// Views grouped by what makes their signatures comparable: the arch and separate compilation.
std::vector<std::vector<const AbiView*>> groups_of(const std::vector<AbiView>& views) {
  std::vector<std::vector<const AbiView*>> groups;
  for (const AbiView& view : views) {
    if (!view.problem.empty()) continue;
    auto same = std::ranges::find_if(groups, [&](const auto& group) {
      return group.front()->arch == view.arch && group.front()->separate_compilation == view.separate_compilation;
    });
    if (same == groups.end()) groups.push_back({&view});
    else same->push_back(&view);
  }
  return groups;
}

bool has_compiler(const std::vector<Reading>& readings, runners::CompilerKind compiler) {
  return std::ranges::any_of(readings, [&](const Reading& r) { return r.view->compiler == compiler; });
}

/// Every symbol some view of the group defines with a binding signature, in first-seen order.
std::vector<std::string> symbols_of(const std::vector<const AbiView*>& group) {
  std::vector<std::string> symbols;
  for (const AbiView* view : group)
    for (const PtxFunction& function : view->functions)
      if (binding(function) && std::ranges::find(symbols, function.name) == symbols.end())
        symbols.push_back(function.name);
  return symbols;
}

/// The readings of one symbol that bind, when both compilers have one; else none.
std::vector<Reading> readings_of(const std::string& symbol, const std::vector<const AbiView*>& group) {
  std::vector<Reading> readings;
  for (const AbiView* view : group)
    if (const PtxFunction* function = find_function(*view, symbol); function && binding(*function))
      readings.push_back({view, function});
  if (!has_compiler(readings, runners::CompilerKind::nvcc) || !has_compiler(readings, runners::CompilerKind::clang))
    return {};
  return readings;
}

} // namespace

std::vector<Finding> abi_findings(const std::vector<AbiView>& views, const std::vector<AbiFunctionKinds>& kinds,
                                  const std::string& runs) {
  std::vector<Finding> findings;
  for (const auto& group : groups_of(views)) {
    for (const std::string& symbol : symbols_of(group)) {
      const std::vector<Reading> readings = readings_of(symbol, group);
      for (std::size_t i = 1; i < readings.size(); ++i) {
        if (std::optional<Difference> where = difference(*readings.front().function, *readings[i].function)) {
          findings.push_back(finding_for(symbol, readings, *where, kinds, runs));
          break;
        }
      }
    }
  }
  return findings;
}

std::string abi_agreement(const std::vector<AbiView>& views) {
  std::size_t compared = 0;
  for (const auto& group : groups_of(views))
    for (const std::string& symbol : symbols_of(group))
      if (!readings_of(symbol, group).empty()) ++compared;
  if (compared == 0) return "";
  return "parameter declarations agree on " + std::to_string(compared) + " function" + (compared == 1 ? "" : "s");
}

} // namespace cudiff::oracle::detail
