// mangle: mangle.h's Itanium names, with the ABI's substitutions (S_, S0_ ...) for a repeated
// namespace prefix or compound type.
#include "generator/mangle.h"

#include <optional>

namespace cudiff::generator {
namespace {

std::string source_name(const std::string& name) { return std::to_string(name.size()) + name; }

/// `<substitution>`: S_ for the first candidate, then S0_, S1_ ... in base 36.
std::string substitution(std::size_t index) {
  if (index == 0) return "S_";
  std::string digits;
  for (std::size_t n = index - 1;; n /= 36) {
    digits.insert(digits.begin(), "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[n % 36]);
    if (n < 36) break;
  }
  return "S" + digits + "_";
}

/// The substitution candidates in the order the ABI numbers them, each by its full encoding
/// (a namespace prefix as its `<source-name>`s), so that a repeated one is written as S<n>_.
class Substitutions {
public:
  std::string encode(const MangledParam& param) {
    switch (param.kind) {
    case MangledParam::Kind::value: return builtin_code(param.type);  // builtins are never candidates
    case MangledParam::Kind::pointer:
      return compound("P" + builtin_code(param.type), [&] { return "P" + builtin_code(param.type); });
    case MangledParam::Kind::pointer_to_const: {
      const std::string full = "PK" + builtin_code(param.type);
      if (const auto at = find(full)) return substitution(*at);
      const std::string inner = compound("K" + builtin_code(param.type),
                                         [&] { return "K" + builtin_code(param.type); });
      seen_.push_back(full);
      return "P" + inner;
    }
    case MangledParam::Kind::record: return record(param.record_namespaces, param.record);
    }
    return "?";
  }

  /// `N <prefix> <name> E` of a function or variable in `namespaces`: each prefix a candidate.
  std::string nested(const std::vector<std::string>& namespaces, const std::string& name) {
    std::string text = "N", prefix;
    for (const std::string& ns : namespaces) {
      prefix += source_name(ns);
      text += source_name(ns);
      seen_.push_back(prefix);
    }
    return text + source_name(name) + "E";
  }

private:
  std::vector<std::string> seen_;

  std::optional<std::size_t> find(const std::string& full) const {
    for (std::size_t i = 0; i < seen_.size(); ++i)
      if (seen_[i] == full) return i;
    return std::nullopt;
  }

  template <typename Make>
  std::string compound(const std::string& full, Make make) {
    if (const auto at = find(full)) return substitution(*at);
    seen_.push_back(full);
    return make();
  }

  /// A struct: its longest namespace prefix already seen as a substitution, then its name.
  std::string record(const std::vector<std::string>& namespaces, const std::string& name) {
    std::string prefix;
    for (const std::string& ns : namespaces) prefix += source_name(ns);
    const std::string full = namespaces.empty() ? source_name(name) : "N" + prefix + source_name(name) + "E";
    if (const auto at = find(full)) return substitution(*at);
    if (namespaces.empty()) {
      seen_.push_back(full);
      return full;
    }
    // The longest prefix seen; the ones after it become candidates as they are written.
    std::size_t known = 0;
    std::string written, path;
    std::optional<std::size_t> reference;
    for (std::size_t depth = 0; depth < namespaces.size(); ++depth) {
      path += source_name(namespaces[depth]);
      if (const auto at = find(path)) {
        reference = at;
        known = depth + 1;
      }
    }
    path.clear();
    for (std::size_t depth = 0; depth < known; ++depth) path += source_name(namespaces[depth]);
    written = reference ? substitution(*reference) : "";
    for (std::size_t depth = known; depth < namespaces.size(); ++depth) {
      path += source_name(namespaces[depth]);
      written += source_name(namespaces[depth]);
      seen_.push_back(path);
    }
    seen_.push_back(full);
    return "N" + written + source_name(name) + "E";
  }
};

} // namespace

std::string builtin_code(IntType type) {
  switch (type) {
  case IntType::Bool: return "b";
  case IntType::Char: return "c";
  case IntType::SChar: return "a";
  case IntType::UChar: return "h";
  case IntType::Short: return "s";
  case IntType::UShort: return "t";
  case IntType::Int: return "i";
  case IntType::UInt: return "j";
  case IntType::LLong: return "x";
  case IntType::ULLong: return "y";
  }
  return "?";
}

std::string mangled_function(const std::vector<std::string>& namespaces, const std::string& name,
                             const std::vector<MangledParam>& params) {
  Substitutions substitutions;
  std::string text = "_Z" + (namespaces.empty() ? source_name(name) : substitutions.nested(namespaces, name));
  // A function of no parameters is `v`; every kernel here has at least its output.
  if (params.empty()) return text + "v";
  for (const MangledParam& param : params) text += substitutions.encode(param);
  return text;
}

std::string mangled_variable(const std::vector<std::string>& namespaces, const std::string& name) {
  if (namespaces.empty()) return name;  // a variable at global scope keeps its name
  Substitutions substitutions;
  return "_Z" + substitutions.nested(namespaces, name);
}

std::vector<std::string> scope_namespaces(const std::string& scope) {
  std::vector<std::string> names;
  for (std::size_t at = 0; at < scope.size();) {
    const std::size_t end = scope.find("::", at);
    const std::size_t stop = end == std::string::npos ? scope.size() : end;
    if (stop > at) names.push_back(scope.substr(at, stop - at));
    at = stop + 2;
  }
  return names;
}

} // namespace cudiff::generator
