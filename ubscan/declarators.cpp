// ubscan declarators: the scan's parser on declarations: function declarators (name,
// execution space, attributes, parameters, body), variable declarators and their types.
#include "ubscan/parts.h"

namespace cudiff::ubscan::detail {

// ---- functions and variables ----

Parser::FunctionDeclarator Parser::function_declarator(std::size_t i, std::size_t end) const {
  FunctionDeclarator d;
  for (std::size_t j = i; j < end;) {
    const std::string_view t = m_.text(j);
    if (t == ";" || t == "{" || t == "=" || t == "}") return d;
    if (t == "operator") return operator_declarator(j, end);
    if (t == "(") {
      const bool attribute = j > i && m_.identifier(j - 1) && is_attribute_word(m_.text(j - 1));
      if (attribute) {
        j = m_.after(j);
        continue;
      }
      const bool named = j > i && m_.identifier(j - 1) && !is_non_call_word(m_.text(j - 1));
      if (!named || m_.is(j + 1, "*") || m_.is(j + 1, "&") || m_.is(j + 1, "^")) return d;
      return FunctionDeclarator{j - 1, j, std::string(m_.text(j - 1))};
    }
    if (t == "[") {
      j = m_.after(j);
      continue;
    }
    if (t == "<" && j > i && m_.identifier(j - 1)) {
      const std::size_t next = skip_angles(j);
      j = next == npos ? j + 1 : next;
      continue;
    }
    ++j;
  }
  return d;
}

Parser::FunctionDeclarator Parser::operator_declarator(std::size_t j, std::size_t end) const {
  std::string name = "operator";
  std::size_t k = j + 1;
  if (m_.is(k, "(") && m_.is(k + 1, ")")) {
    name += "()";
    k += 2;
  } else {
    while (k < end && !m_.is(k, "(") && !m_.is(k, ";")) {
      name += (m_.identifier(k) ? " " : "") + std::string(m_.text(k));
      ++k;
    }
  }
  if (!m_.is(k, "(")) return {};
  return FunctionDeclarator{j, k, name};
}

std::size_t Parser::declaration(std::size_t i, std::size_t end, const Scope& scope, const TemplateHead& head) {
  const FunctionDeclarator d = function_declarator(i, end);
  if (d.open != npos && !looks_like_constructor_call(d)) return function_declaration(i, end, scope, head, d);
  return variable_declaration(i, end, scope);
}

/// `Foo object(1, 2);`: a variable, not a function, when the parentheses hold a literal.
bool Parser::looks_like_constructor_call(const FunctionDeclarator& d) const {
  const std::size_t close = m_.partner(d.open);
  if (close == npos || !m_.is(close + 1, ";")) return false;
  for (std::size_t j = d.open + 1; j < close; ++j)
    if (m_.tokens[j].kind == TokenKind::number || m_.tokens[j].kind == TokenKind::string) return true;
  return false;
}

std::set<std::string, std::less<>> Parser::gnu_attributes(std::size_t a, std::size_t b) const {
  std::set<std::string, std::less<>> out;
  for (std::size_t j = a; j < b; ++j) {
    const bool gnu = m_.is(j, "__attribute__") && m_.is(j + 1, "(");
    const bool standard = m_.is(j, "[") && m_.is(j + 1, "[");
    if (!gnu && !standard) continue;
    const std::size_t close = std::min(b, m_.partner(j + (gnu ? 1 : 0)));
    for (std::size_t k = j + 1; k < close; ++k) {
      if (!m_.identifier(k) || m_.is(k + 1, "::")) continue;
      std::string word(m_.text(k));
      if (word.size() > 4 && word.starts_with("__") && word.ends_with("__")) word = word.substr(2, word.size() - 4);
      out.insert(word);
    }
    j = close;
  }
  return out;
}

Space Parser::space_of(bool global, bool device, bool host) {
  if (global) return Space::global;
  if (device) return host ? Space::host_device : Space::device;
  return Space::host;
}

std::size_t Parser::function_declaration(std::size_t i, std::size_t end, const Scope& scope, const TemplateHead& head,
                                         const FunctionDeclarator& d) {
  Unit u;
  u.name = d.name;
  u.name_token = d.name_token;
  u.head = i;
  u.ns = scope.ns;
  u.params_open = d.open;
  std::size_t specifiers_end = d.name_token;
  if (specifiers_end > i && m_.is(specifiers_end - 1, "~")) {
    u.name = "~" + u.name;
    --specifiers_end;
  }
  std::string qualifier;
  while (specifiers_end >= i + 2 && m_.is(specifiers_end - 1, "::") && m_.identifier(specifiers_end - 2)) {
    if (qualifier.empty()) qualifier = m_.text(specifiers_end - 2);
    specifiers_end -= 2;
  }
  if (scope.cls >= 0) u.owner = m_.classes[scope.cls].name;
  else if (!qualifier.empty() && m_.type_names.count(qualifier)) u.owner = qualifier;
  bool global = false, device = false, host = false;
  for (std::size_t j = i; j < specifiers_end; ++j) {
    const std::string_view t = m_.text(j);
    global = global || t == "__global__";
    device = device || t == "__device__";
    host = host || t == "__host__";
    u.is_constexpr = u.is_constexpr || t == "constexpr" || t == "consteval";
    u.is_static = u.is_static || t == "static";
    u.is_virtual = u.is_virtual || t == "virtual";
  }
  u.is_template = head.present;
  u.template_params = head.params;
  u.params = parameters(d.open, static_cast<int>(m_.units.size()));
  u.attributes = gnu_attributes(i, specifiers_end);
  std::size_t k = trailing_specifiers(m_.after(d.open), end, u);
  if (m_.is(k, "=")) {
    u.defaulted = m_.is(k + 1, "default");
    u.deleted = m_.is(k + 1, "delete");
    u.is_virtual = u.is_virtual || m_.is(k + 1, "0");
  }
  if (m_.is(k, ":")) {
    u.initializers_begin = k + 1;
    k = member_initializers(k + 1, end);
    u.initializers_end = std::min(k, end);
  }
  if (m_.is(k, "try")) ++k;
  const bool body = k < end && m_.is(k, "{") && m_.partner(k) != npos && m_.partner(k) <= end;
  const bool annotated = global || device || host;
  u.annotated = annotated;
  // Unannotated constexpr and defaulted functions are implicitly __host__ __device__
  // (V-IMPLICIT-EXECSPACE; clang, and nvcc with --expt-relaxed-constexpr).
  u.space = annotated                         ? space_of(global, device, host)
            : (u.is_constexpr || u.defaulted) ? Space::host_device
                                              : Space::host;
  std::size_t next = past_statement(k, end);
  if (body) {
    u.has_body = true;
    u.body_begin = k + 1;
    u.body_end = m_.partner(k);
    next = u.body_end + 1;
  }
  const int id = static_cast<int>(m_.units.size());
  if (scope.cls >= 0) m_.classes[scope.cls].member_functions.push_back(id);
  m_.units.push_back(std::move(u));
  return next;
}

std::size_t Parser::trailing_specifiers(std::size_t k, std::size_t end, Unit& u) const {
  while (k < end) {
    const std::string_view t = m_.text(k);
    if (in_list(t, {"const", "volatile", "&", "&&", "mutable", "__restrict__"})) {
      ++k;
    } else if (t == "override" || t == "final") {
      u.is_virtual = true;
      ++k;
    } else if ((t == "noexcept" || t == "throw" || t == "__attribute__") && m_.is(k + 1, "(")) {
      if (t == "__attribute__") {
        const auto more = gnu_attributes(k, m_.after(k + 1));
        u.attributes.insert(more.begin(), more.end());
      }
      k = m_.after(k + 1);
    } else if (t == "noexcept") {
      ++k;
    } else if (t == "[" && m_.is(k + 1, "[")) {
      k = m_.after(k);
    } else if (t == "->" || t == "requires") {
      ++k;
      while (k < end && !m_.is(k, "{") && !m_.is(k, ";") && !m_.is(k, "=")) k = m_.is(k, "(") ? m_.after(k) : k + 1;
    } else {
      break;
    }
  }
  return k;
}

/// Past a constructor's `: a(x), b{y}` up to its body's '{'.
std::size_t Parser::member_initializers(std::size_t k, std::size_t end) const {
  while (k < end) {
    if (m_.is(k, "{") && !m_.identifier(k - 1) && !m_.is(k - 1, ">")) return k;
    if (m_.is(k, ";")) return k;
    if (m_.is(k, "(") || m_.is(k, "{")) {
      k = m_.after(k);
      continue;
    }
    if (m_.is(k, "<")) {
      const std::size_t next = skip_angles(k);
      k = next == npos ? k + 1 : next;
      continue;
    }
    ++k;
  }
  return k;
}

std::vector<Variable> Parser::parameters(std::size_t open, int unit) const {
  std::vector<Variable> params;
  const std::size_t close = m_.partner(open);
  if (close == npos) return params;
  std::size_t group = open + 1;
  int angle = 0;
  for (std::size_t j = open + 1; j <= close; ++j) {
    const std::string_view t = m_.text(j);
    if (j < close && (t == "(" || t == "[" || t == "{")) {
      j = m_.after(j) - 1;
      continue;
    }
    if (t == "<" && m_.identifier(j - 1)) ++angle;
    if (t == ">" && angle > 0) --angle;
    if (t == ">>" && angle > 0) angle = std::max(0, angle - 2);
    if ((t == "," && angle == 0) || j == close) {
      if (j > group) {
        Variable v = declarator(group, j, 0);
        v.unit = unit;
        if (v.name_token != npos || !v.type.empty()) params.push_back(std::move(v));
      }
      group = j + 1;
    }
  }
  return params;
}

/// One declarator with its specifiers in [a, b): the name is the last plain identifier before
/// the initializer (or inside `(*name)`), and needs a type before it.
Variable Parser::declarator(std::size_t a, std::size_t b, std::size_t specifiers_from) const {
  Variable v;
  v.head = a;
  std::size_t name = npos, stop = b;
  for (std::size_t j = a; j < b;) {
    const std::string_view t = m_.text(j);
    if (t == "(") {
      // `T (*name)(args)` and `T (&name)[n]` declare name; `T name(&x)` initializes it.
      const bool declarator_group = (m_.is(j + 1, "*") || m_.is(j + 1, "&")) &&
                                    (name == npos || name != j - 1 || m_.is(m_.after(j), "(") ||
                                     m_.is(m_.after(j), "["));
      if (declarator_group) {
        for (std::size_t k = j + 1; k < std::min(b, m_.partner(j)); ++k)
          if (m_.identifier(k) && !is_specifier_word(m_.text(k))) name = k;
        v.pointer = true;
        j = m_.after(j);
        continue;
      }
      const bool attribute = j > a && m_.identifier(j - 1) && is_attribute_word(m_.text(j - 1));
      if (!attribute && name != npos && name == j - 1) {
        v.init_begin = j + 1;
        v.init_end = std::min(b, m_.partner(j));
        stop = j;
        break;
      }
      j = m_.after(j);
      continue;
    }
    if (t == "[") {
      if (m_.is(j + 1, "[")) {
        j = m_.after(j);
        continue;
      }
      v.array = v.array || (name != npos);
      j = m_.after(j);
      continue;
    }
    if (t == "{" || t == "=") {
      v.init_begin = j + 1;
      v.init_end = t == "{" ? std::min(b, m_.partner(j)) : b;
      stop = j;
      break;
    }
    if (t == ":") {
      stop = j;
      break;
    }
    if (t == "<" && j > a && m_.identifier(j - 1)) {
      const std::size_t next = skip_angles(j);
      if (next != npos && next <= b) {
        j = next;
        continue;
      }
    }
    if (m_.identifier(j) && !is_specifier_word(t) && !is_builtin_type_word(t) && !is_attribute_word(t) &&
        !m_.is(j + 1, "::"))
      name = j;
    ++j;
  }
  describe_type(std::min(specifiers_from == 0 ? a : specifiers_from, a), name == npos ? stop : name, v);
  const bool typed = name != npos && name > a && !v.type.empty();  // not `struct Foo;`
  if (typed) {
    v.name_token = name;
    v.name = m_.text(name);
  } else if (name != npos && name == a) {
    v.type = m_.text(name);  // a parameter with a type and no name
  }
  if (v.init_end < v.init_begin) v.init_end = v.init_begin;
  return v;
}

/// The type of the declaration whose specifiers are [a, b).
void Parser::describe_type(std::size_t a, std::size_t b, Variable& v) const {
  std::string builtin, last_name;
  int angle = 0;
  for (std::size_t j = a; j < b; ++j) {
    const std::string_view t = m_.text(j);
    if (m_.identifier(j) && is_attribute_word(t) && m_.is(j + 1, "(")) {
      j = m_.after(j + 1) - 1;
      continue;
    }
    v.full_type += (v.full_type.empty() ? "" : " ") + std::string(t);
    if (t == "<") ++angle;
    if (t == ">" && angle > 0) --angle;
    if (t == ">>") angle = std::max(0, angle - 2);
    if (angle > 0) continue;
    if (t == "*") v.pointer = true;
    if (t == "&" || t == "&&") v.reference = true;
    if (t == "const") v.is_const = true;
    if (t == "constexpr") v.is_constexpr = v.is_const = true;
    if (t == "static") v.is_static = true;
    if (t == "extern") v.is_extern = true;
    if (t == "volatile") v.is_volatile = true;
    if (t == "__grid_constant__") v.grid_constant = true;
    if (t == "__device__" && v.space == MemorySpace::none) v.space = MemorySpace::device;
    if (t == "__constant__") v.space = MemorySpace::constant;
    if (t == "__shared__") v.space = MemorySpace::shared;
    if (t == "__managed__") v.space = MemorySpace::managed;
    if (is_builtin_type_word(t)) builtin += (builtin.empty() ? "" : " ") + std::string(t);
    else if (m_.identifier(j) && !is_specifier_word(t)) last_name = t;
  }
  v.type = last_name.empty() ? builtin : last_name;
}

std::size_t Parser::variable_declaration(std::size_t i, std::size_t end, const Scope& scope) {
  const std::size_t stop = statement_end(i, end);
  std::vector<Variable> found = declarators(i, stop, -1);
  for (Variable& v : found) {
    v.ns = scope.ns;
    if (scope.cls >= 0) m_.classes[scope.cls].data_members.push_back(std::move(v));
    else m_.globals.push_back(std::move(v));
  }
  return std::min(end, stop + 1);
}

/// The declarators of one declaration in [a, b), split at top-level commas; the later ones
/// share the first one's specifiers.
std::vector<Variable> Parser::declarators(std::size_t a, std::size_t b, int unit) const {
  std::vector<Variable> out;
  std::size_t group = a, specifiers_end = npos;
  int angle = 0;
  for (std::size_t j = a; j <= b; ++j) {
    const std::string_view t = j < b ? m_.text(j) : std::string_view(",");
    if (j < b && (t == "(" || t == "[" || t == "{")) {
      j = std::min(b, m_.after(j)) - 1;
      continue;
    }
    if (t == "<" && m_.identifier(j - 1) && out.empty()) ++angle;
    if (t == ">" && angle > 0) --angle;
    if (t != "," || angle > 0) continue;
    Variable v = out.empty() ? declarator(group, j, 0) : declarator(group, j, a);
    if (!out.empty() && specifiers_end != npos) describe_shared_specifiers(a, specifiers_end, group, v);
    if (out.empty()) specifiers_end = v.name_token;
    v.unit = unit;
    if (v.name_token != npos) out.push_back(std::move(v));
    else if (out.empty()) return out;
    group = j + 1;
  }
  return out;
}

void Parser::describe_shared_specifiers(std::size_t a, std::size_t specifiers_end, std::size_t group,
                                        Variable& v) const {
  Variable shared;
  describe_type(a, specifiers_end, shared);
  const bool own_pointer = m_.is(group, "*");
  v.type = shared.type;
  v.full_type = shared.full_type;
  v.space = shared.space;
  v.is_const = shared.is_const;
  v.is_constexpr = shared.is_constexpr;
  v.is_static = shared.is_static;
  v.is_extern = shared.is_extern;
  v.is_volatile = shared.is_volatile;
  v.pointer = own_pointer;
}

} // namespace cudiff::ubscan::detail
