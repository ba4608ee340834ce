// ubscan parser: the words the scan's parser knows, and the parser's outer layer: bracket
// matching, namespaces, templates, aliases, enums and classes (with the special members that make
// copies and destruction run user code). Declarators: declarators.cpp; what bodies
// hold: bodies.cpp.
#include "ubscan/parts.h"

namespace cudiff::ubscan::detail {

// ---- word lists ------------------------------------------------------------------------------

bool is_builtin_type_word(std::string_view w) {
  return in_list(w, {"void",     "bool",     "char",       "short",     "int",     "long",     "signed",
                     "unsigned", "float",    "double",     "wchar_t",   "char8_t", "char16_t", "char32_t",
                     "auto",     "__int128", "__float128", "_Float128", "half",    "__half"});
}

/// Words that qualify a declaration without naming its type.
bool is_specifier_word(std::string_view w) {
  return in_list(w, {"const",
                     "volatile",
                     "static",
                     "extern",
                     "inline",
                     "constexpr",
                     "consteval",
                     "constinit",
                     "mutable",
                     "register",
                     "thread_local",
                     "virtual",
                     "explicit",
                     "friend",
                     "typename",
                     "struct",
                     "class",
                     "union",
                     "enum",
                     "__device__",
                     "__host__",
                     "__global__",
                     "__shared__",
                     "__constant__",
                     "__managed__",
                     "__forceinline__",
                     "__noinline__",
                     "__inline__",
                     "__restrict__",
                     "__restrict",
                     "restrict",
                     "__grid_constant__",
                     "__cudart_builtin__"});
}

/// Words followed by '(' that are not calls.
bool is_non_call_word(std::string_view w) {
  return in_list(w, {"if",
                     "for",
                     "while",
                     "switch",
                     "return",
                     "sizeof",
                     "alignof",
                     "alignas",
                     "decltype",
                     "noexcept",
                     "static_assert",
                     "static_cast",
                     "dynamic_cast",
                     "reinterpret_cast",
                     "const_cast",
                     "typeid",
                     "throw",
                     "catch",
                     "new",
                     "delete",
                     "operator",
                     "__attribute__",
                     "__launch_bounds__",
                     "__declspec",
                     "asm",
                     "__asm__",
                     "__asm",
                     "volatile",
                     "defined",
                     "_Pragma",
                     "__align__",
                     "requires",
                     "case",
                     "do",
                     "else",
                     "template",
                     "typename",
                     "using",
                     "co_await",
                     "co_return",
                     "co_yield",
                     "__alignof__",
                     "__typeof__",
                     "typeof",
                     "__maxnreg__",
                     "__cluster_dims__",
                     "__nv_pure__",
                     "this",
                     "default",
                     "goto",
                     "namespace"}) ||
         is_builtin_type_word(w) || is_specifier_word(w);
}

/// Attribute-like words whose parenthesized group is part of a declaration, not a declarator.
bool is_attribute_word(std::string_view w) {
  return in_list(w, {"__attribute__", "alignas", "__align__", "__launch_bounds__", "__declspec", "decltype", "noexcept",
                     "throw", "__maxnreg__", "__cluster_dims__", "_Alignas"});
}

bool is_assignment(std::string_view t) {
  return in_list(t, {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="});
}

/// Tokens after which a '*' or '&' is unary (an operand cannot end there).
bool ends_operand(const Model& m, std::size_t i) {
  if (i >= m.size()) return false;
  const Token& t = m.tokens[i];
  if (t.kind == TokenKind::number || t.kind == TokenKind::string || t.kind == TokenKind::character) return true;
  if (t.kind == TokenKind::identifier)
    return !in_list(t.text, {"return", "case", "throw", "sizeof", "co_return", "else", "do", "new", "delete"});
  return t.text == ")" || t.text == "]" || t.text == "++" || t.text == "--";
}

// ---- the parser ------------------------------------------------------------------------------

void Parser::run() {
  match_brackets();
  declarations(0, m_.size(), Scope{});
  for (std::size_t u = 0; u < m_.units.size(); ++u)
    if (m_.units[u].has_body) local_classes(m_.units[u]);
  for (std::size_t c = 0; c < m_.classes.size(); ++c) finish_class(static_cast<int>(c));
  const std::size_t functions = m_.units.size();
  for (std::size_t u = 0; u < functions; ++u)
    if (m_.units[u].has_body) function_bodies_.insert(m_.units[u].body_begin - 1);
  for (std::size_t u = 0; u < functions; ++u)
    if (m_.units[u].has_body) find_lambdas(m_.units[u].body_begin, m_.units[u].body_end, static_cast<int>(u));
  for (std::size_t g = 0; g < m_.globals.size(); ++g)
    find_lambdas(m_.globals[g].init_begin, m_.globals[g].init_end, -1);
  mark_bodies();
  for (std::size_t u = 0; u < m_.units.size(); ++u)
    if (m_.units[u].has_body) collect_locals(static_cast<int>(u));
  index();
}

void Parser::match_brackets() {
  m_.match.assign(m_.size(), npos);
  std::vector<std::size_t> open;
  for (std::size_t i = 0; i < m_.size(); ++i) {
    const std::string_view t = m_.text(i);
    if (t == "(" || t == "[" || t == "{") {
      open.push_back(i);
    } else if (t == ")" || t == "]" || t == "}") {
      const std::string_view want = t == ")" ? "(" : t == "]" ? "[" : "{";
      // A closer without its opener (broken input, or both arms of an #if) is left unmatched.
      auto found = std::find_if(open.rbegin(), open.rend(), [&](std::size_t o) { return m_.text(o) == want; });
      if (found == open.rend()) continue;
      const std::size_t o = *found;
      open.erase(std::next(found).base(), open.end());
      m_.match[o] = i;
      m_.match[i] = o;
    }
  }
}

/// The token after the '>' closing the '<' at i; npos when the group does not close before a
/// ';' or a brace (then it was a comparison), or within max_angle_steps tokens and groups.
std::size_t Parser::skip_angles(std::size_t i) const {
  // Callers try again one token further on npos, so an unbounded walk made text full of '<'
  // with no ';' ("a<a<a<...") quadratic: 3 s for 64 KiB, 12 s for 128 KiB. No template
  // argument list is this long.
  constexpr std::size_t max_angle_steps = 1024;
  int depth = 0;
  std::size_t steps = 0;
  for (std::size_t j = i; j < m_.size() && steps++ < max_angle_steps;) {
    const std::string_view t = m_.text(j);
    if (t == "<") ++depth;
    else if (t == ">") --depth;
    else if (t == ">>") depth -= 2;
    else if (t == ">>>") depth -= 3;
    else if (t == ";" || t == "{" || t == "}" || t == ")" || t == "]") return npos;
    else if (t == "(" || t == "[") {
      j = m_.after(j);
      continue;
    }
    ++j;
    if (depth <= 0) return j;
  }
  return npos;
}

/// The ';' ending the statement that starts at i (groups skipped), or `end`.
std::size_t Parser::statement_end(std::size_t i, std::size_t end) const {
  while (i < end && !m_.is(i, ";")) {
    const std::string_view t = m_.text(i);
    if (t == "(" || t == "[" || t == "{") i = m_.after(i);
    else if (t == "}") return i;  // an unterminated statement: stop at its block's end
    else ++i;
  }
  return std::min(i, end);
}

std::size_t Parser::past_statement(std::size_t i, std::size_t end) const {
  return std::min(end, statement_end(i, end) + 1);
}

void Parser::declarations(std::size_t begin, std::size_t end, const Scope& scope) {
  std::size_t i = begin;
  TemplateHead head;
  while (i < end) {
    const std::size_t before = i;
    i = one_declaration(i, end, scope, head);
    if (i <= before) i = before + 1;  // always progress
  }
}

std::size_t Parser::one_declaration(std::size_t i, std::size_t end, const Scope& scope, TemplateHead& head) {
  const std::string_view t = m_.text(i);
  if (t == ";" || t == "}") return i + 1;
  if (t == "namespace" || (t == "inline" && m_.is(i + 1, "namespace"))) return namespace_block(i, end, scope);
  if (t == "extern" && m_.tokens[std::min(i + 1, m_.size() - 1)].kind == TokenKind::string) {
    if (m_.is(i + 2, "{")) {
      const std::size_t close = std::min(end, m_.partner(i + 2));
      declarations(i + 3, close, scope);
      return close + 1;
    }
    return i + 2;  // extern "C" before one declaration
  }
  if (in_list(t, {"public", "private", "protected"}) && m_.is(i + 1, ":")) return i + 2;
  if (t == "template" && m_.is(i + 1, "<")) return template_head(i, head);
  TemplateHead current = std::exchange(head, TemplateHead{});
  if (t == "using" || t == "typedef") return alias(i, end);
  if (t == "static_assert" || t == "friend" || t == "template") return past_statement(i, end);
  if (t == "enum") return enum_definition(i, end);
  if (in_list(t, {"struct", "class", "union"})) {
    const std::size_t after_class = class_definition(i, end, scope);
    if (after_class != npos) return after_class;
  }
  return declaration(i, end, scope, current);
}

std::size_t Parser::namespace_block(std::size_t i, std::size_t end, const Scope& scope) {
  const bool is_inline = m_.is(i, "inline");
  std::size_t j = i + (is_inline ? 2 : 1);
  std::string name;
  while (m_.identifier(j) || m_.is(j, "::")) name += std::string(m_.text(j++));
  if (!m_.is(j, "{")) return past_statement(j, end);  // namespace alias
  const std::size_t close = std::min(end, m_.partner(j));
  Scope inner = scope;
  if (!is_inline && !name.empty()) inner.ns = scope.ns.empty() ? name : scope.ns + "::" + name;
  declarations(j + 1, close, inner);
  return close + 1;
}

std::size_t Parser::template_head(std::size_t i, TemplateHead& head) {
  const std::size_t close = skip_angles(i + 1);
  if (close == npos) return i + 2;
  head.present = true;
  head.params.clear();
  std::size_t group = i + 2;
  int depth = 0;
  for (std::size_t j = i + 2; j < close; ++j) {
    const std::string_view t = m_.text(j);
    if (t == "<") ++depth;
    if (t == ">" && depth > 0) --depth;
    if ((t == "," && depth == 0) || j + 1 == close) {
      template_parameter(group, t == "," ? j : close - 1, head);
      group = j + 1;
    }
  }
  return close;
}

void Parser::template_parameter(std::size_t a, std::size_t b, TemplateHead& head) {
  std::string last;
  for (std::size_t j = a; j < b && !m_.is(j, "="); ++j)
    if (m_.identifier(j) && !is_specifier_word(m_.text(j)) && !is_builtin_type_word(m_.text(j))) last = m_.text(j);
  if (last.empty()) return;
  head.params.push_back(last);
  if (m_.is(a, "typename") || m_.is(a, "class")) m_.type_names.insert(last);
  else m_.variable_names.insert(last);
}

std::size_t Parser::alias(std::size_t i, std::size_t end) {
  const std::size_t stop = statement_end(i, end);
  if (m_.is(i, "using") && m_.identifier(i + 1) && m_.is(i + 2, "=")) m_.type_names.insert(std::string(m_.text(i + 1)));
  if (m_.is(i, "typedef")) {
    std::size_t name = npos;
    for (std::size_t j = i + 1; j < stop; ++j) {
      if (m_.is(j, "{")) j = m_.partner(j) == npos ? j : m_.partner(j);
      else if (m_.identifier(j) && !is_non_call_word(m_.text(j))) name = j;
      else if (m_.is(j, "(") && !m_.is(j + 1, "*")) break;  // a function type's parameters
    }
    if (name != npos) m_.type_names.insert(std::string(m_.text(name)));
  }
  return std::min(end, stop + 1);
}

std::size_t Parser::enum_definition(std::size_t i, std::size_t end) {
  std::size_t j = i + 1;
  if (m_.is(j, "class") || m_.is(j, "struct")) ++j;
  if (m_.identifier(j)) m_.type_names.insert(std::string(m_.text(j)));
  return past_statement(j, end);
}

std::size_t Parser::skip_attributes(std::size_t j, std::size_t end) const {
  while (j < end) {
    if (m_.identifier(j) && is_attribute_word(m_.text(j)) && m_.is(j + 1, "(")) j = m_.after(j + 1);
    else if (m_.is(j, "[") && m_.is(j + 1, "[")) j = m_.after(j);
    else break;
  }
  return j;
}

/// A struct/class/union definition at i; npos when the words start another declaration
/// (`struct Foo x;`).
std::size_t Parser::class_definition(std::size_t i, std::size_t end, const Scope& scope) {
  std::size_t j = skip_attributes(i + 1, end);
  std::string name;
  if (m_.identifier(j) && !is_non_call_word(m_.text(j))) {
    name = m_.text(j++);
    while (m_.is(j, "::") && m_.identifier(j + 1)) {
      name = m_.text(j + 1);
      j += 2;
    }
  }
  if (m_.is(j, "<")) j = skip_angles(j);
  if (j == npos) return npos;
  if (m_.is(j, "final")) ++j;
  std::vector<std::string> bases;
  if (m_.is(j, ":")) j = base_list(j + 1, end, bases);
  if (!m_.is(j, "{") || m_.partner(j) == npos || m_.partner(j) > end) return npos;
  const std::size_t close = m_.partner(j);
  ClassInfo info;
  info.name = name;
  info.ns = scope.ns;
  info.bases = std::move(bases);
  info.head = i;
  const int index = static_cast<int>(m_.classes.size());
  m_.classes.push_back(std::move(info));
  if (!name.empty()) m_.type_names.insert(name);
  declarations(j + 1, close, Scope{scope.ns, index});
  return past_statement(close + 1, end);
}

std::size_t Parser::base_list(std::size_t j, std::size_t end, std::vector<std::string>& bases) const {
  std::string last;
  while (j < end && !m_.is(j, "{") && !m_.is(j, ";")) {
    if (m_.is(j, "<")) {
      const std::size_t next = skip_angles(j);
      j = next == npos ? j + 1 : next;
      continue;
    }
    if (m_.is(j, ",")) {
      if (!last.empty()) bases.push_back(last);
      last.clear();
    } else if (m_.identifier(j) && !in_list(m_.text(j), {"public", "private", "protected", "virtual"})) {
      last = m_.text(j);
    }
    ++j;
  }
  if (!last.empty()) bases.push_back(last);
  return j;
}

/// Classes defined inside a function body (their member functions are units of their own).
void Parser::local_classes(const Unit& function) {
  const std::size_t begin = function.body_begin, end = function.body_end;
  const std::string ns = function.ns;
  for (std::size_t k = begin; k < end; ++k) {
    const bool starts = k == begin || m_.is(k - 1, "{") || m_.is(k - 1, ";") || m_.is(k - 1, "}");
    if (!starts || !in_list(m_.text(k), {"struct", "class", "union"})) continue;
    const std::size_t next = class_definition(k, end, Scope{ns, -1});
    if (next != npos && next > k) k = next - 1;
  }
}

/// Whether a copy constructor only copies member by member (`m(o.m)`, `Base(o)`) with an
/// empty body: a bitwise copy then does the same.
bool Parser::memberwise_copy(const Unit& u) const {
  if (!u.has_body || u.body_end > u.body_begin || u.params.empty()) return false;
  const std::string& other = u.params[0].name;
  std::size_t group = u.initializers_begin;
  for (std::size_t j = u.initializers_begin; j <= u.initializers_end; ++j) {
    if (j < u.initializers_end && !m_.is(j, ",")) {
      if (m_.is(j, "(") || m_.is(j, "{")) j = m_.after(j) - 1;
      continue;
    }
    if (j > group) {
      const bool shaped = m_.identifier(group) && (m_.is(group + 1, "(") || m_.is(group + 1, "{")) &&
                          m_.after(group + 1) == j;
      if (!shaped) return false;
      const std::size_t n = j - group - 3;  // tokens inside the parentheses
      const bool member = n == 3 && m_.text(group + 2) == other && m_.is(group + 3, ".") &&
                          m_.text(group + 4) == m_.text(group);
      const bool base = n == 1 && m_.text(group + 2) == other;
      if (!member && !base) return false;
    }
    group = j + 1;
  }
  return true;
}

/// The special members that make copies or destruction run user code (U-KPARAM-*): a
/// user-provided copy constructor that does more than copy members, a destructor with a body.
/// A declaration without a body counts unless a definition elsewhere shows its body.
void Parser::finish_class(int index) {
  ClassInfo& info = m_.classes[index];
  bool copy_defined = false, copy_declared = false, destructor_defined = false, destructor_declared = false;
  for (const Unit& u : m_.units) {
    if (u.owner != info.name || u.lambda) continue;
    info.has_virtual = info.has_virtual || u.is_virtual;
    if (u.defaulted || u.deleted) continue;
    const bool copy = u.name == info.name && !u.params.empty() && u.params[0].reference &&
                      u.params[0].type == info.name && !u.params[0].full_type.ends_with("&&");
    if (copy) {
      copy_declared = copy_declared || !u.has_body;
      copy_defined = copy_defined || u.has_body;
      info.user_copy = info.user_copy || (u.has_body && !memberwise_copy(u));
    }
    if (u.name == "~" + info.name) {
      destructor_declared = destructor_declared || !u.has_body;
      destructor_defined = destructor_defined || u.has_body;
      info.user_destructor = info.user_destructor || (u.has_body && u.body_end > u.body_begin);
    }
  }
  info.user_copy = info.user_copy || (copy_declared && !copy_defined);
  info.user_destructor = info.user_destructor || (destructor_declared && !destructor_defined);
}

} // namespace cudiff::ubscan::detail
