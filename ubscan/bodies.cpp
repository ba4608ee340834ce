// ubscan bodies: the scan's parser inside function bodies: lambdas (units of their own),
// which unit each token belongs to, local variables, and the name index the queries use.
#include "ubscan/parts.h"

namespace cudiff::ubscan::detail {

// ---- lambdas ----

bool Parser::lambda_introducer(std::size_t k) const {
  if (!m_.is(k, "[") || m_.is(k + 1, "[") || m_.partner(k) == npos) return false;
  if (k == 0) return true;
  return !ends_operand(m_, k - 1) && !m_.is(k - 1, ">") && !m_.is(k - 1, "operator");
}

/// The lambda whose introducer is at k, appended to the units; npos when it is not one.
std::size_t Parser::lambda(std::size_t k, int parent) {
  Unit u;
  u.lambda = true;
  u.head = k;
  u.capture_begin = k + 1;
  u.capture_end = m_.partner(k);
  std::size_t j = u.capture_end + 1;
  if (m_.is(j, "<")) j = skip_angles(j);
  if (j == npos) return npos;
  bool device = false, host = false;
  // Execution space annotations come before the parameter list: `[=] __device__ (int x) {`.
  while (j < m_.size() && !m_.is(j, "{")) {
    const std::string_view t = m_.text(j);
    if (t == "(" && u.params_open == npos) {
      u.params_open = j;
      u.params = parameters(j, static_cast<int>(m_.units.size()));
      j = m_.after(j);
      continue;
    }
    if (t == "__device__") device = true;
    else if (t == "__host__") host = true;
    else if (t == "__attribute__" || t == "noexcept") {
      if (m_.is(j + 1, "(")) j = m_.after(j + 1) - 1;
    } else if (t == "[" && m_.is(j + 1, "[")) {
      j = m_.after(j) - 1;
    } else if (t == "->") {
      while (j + 1 < m_.size() && !m_.is(j + 1, "{") && !m_.is(j + 1, ";"))
        j = m_.is(j + 1, "(") ? m_.after(j + 1) - 1 : j + 1;
    } else if (!in_list(t, {"mutable", "constexpr", "consteval", "static", "__forceinline__", "__noinline__"})) {
      return npos;
    }
    ++j;
  }
  if (!m_.is(j, "{") || m_.partner(j) == npos) return npos;
  const Unit* outer = parent >= 0 ? &m_.units[parent] : nullptr;
  u.annotated = device || host;
  u.space = u.annotated ? space_of(false, device, host) : outer ? outer->space : Space::host;
  u.owner = outer ? outer->owner : "";
  u.ns = outer ? outer->ns : "";
  u.parent = parent;
  u.has_body = true;
  u.body_begin = j + 1;
  u.body_end = m_.partner(j);
  if (k >= 2 && m_.is(k - 1, "=") && m_.identifier(k - 2)) u.name = m_.text(k - 2);
  const std::size_t begin = u.body_begin, end = u.body_end;
  const int id = static_cast<int>(m_.units.size());
  m_.units.push_back(std::move(u));
  find_lambdas(begin, end, id);
  return end + 1;
}

void Parser::find_lambdas(std::size_t begin, std::size_t end, int parent) {
  for (std::size_t k = begin; k < end;) {
    if (function_bodies_.count(k) && m_.partner(k) != npos) {  // a local class's member function
      k = m_.partner(k) + 1;
      continue;
    }
    if (lambda_introducer(k)) {
      const std::size_t next = lambda(k, parent);
      if (next != npos) {
        k = next;
        continue;
      }
    }
    ++k;
  }
}

void Parser::mark_bodies() {
  m_.unit_of.assign(m_.size(), -1);
  for (std::size_t u = 0; u < m_.units.size(); ++u) {
    const Unit& unit = m_.units[u];
    if (!unit.has_body) continue;
    for (std::size_t t = unit.body_begin; t < std::min(unit.body_end, m_.size()); ++t)
      m_.unit_of[t] = static_cast<int>(u);
  }
}

// ---- locals ----

bool Parser::statement_start(std::size_t k, const Unit& u) const {
  if (k == u.body_begin) return true;
  const std::string_view prev = m_.text(k - 1);
  return prev == "{" || prev == ";" || prev == "}" || prev == "else" || (prev == "(" && m_.is(k - 2, "for"));
}

void Parser::collect_locals(int id) {
  const std::size_t begin = m_.units[id].body_begin, end = std::min(m_.units[id].body_end, m_.size());
  std::vector<Variable> locals;
  for (std::size_t k = begin; k < end; ++k) {
    if (m_.unit_of[k] != id || !statement_start(k, m_.units[id]) || !local_declaration_start(k)) continue;
    // A range-for's declaration ends at its ':'; elsewhere a ':' may be a conditional's.
    const bool for_header = m_.is(k - 1, "(") && m_.is(k - 2, "for");
    std::size_t stop = k;
    while (stop < end && !m_.is(stop, ";") && !m_.is(stop, ")") && !m_.is(stop, "}") &&
           !(for_header && m_.is(stop, ":")))
      stop = (m_.is(stop, "(") || m_.is(stop, "[") || m_.is(stop, "{")) ? m_.after(stop) : stop + 1;
    for (Variable& v : declarators(k, std::min(stop, end), id)) locals.push_back(std::move(v));
  }
  m_.units[id].locals = std::move(locals);
}

/// Whether the statement at k starts with a declaration: specifiers and a type, then a name.
bool Parser::local_declaration_start(std::size_t k) const {
  std::size_t j = k;
  bool typed = false;
  while (m_.identifier(j) && (is_specifier_word(m_.text(j)) || is_builtin_type_word(m_.text(j)))) {
    typed = typed || is_builtin_type_word(m_.text(j));
    ++j;
  }
  j = skip_attributes(j, m_.size());
  if (!typed) {
    if (m_.is(j, "::")) ++j;
    if (!m_.identifier(j) || is_non_call_word(m_.text(j))) return false;
    ++j;
    while (m_.is(j, "::") && m_.identifier(j + 1)) j += 2;
    if (m_.is(j, "<")) j = skip_angles(j);
    if (j == npos) return false;
    while (m_.is(j, "::") && m_.identifier(j + 1)) j += 2;
  }
  while (in_list(m_.text(j), {"*", "&", "&&", "const", "volatile", "__restrict__", "__restrict"})) ++j;
  if (m_.is(j, "(") && m_.is(j + 1, "*")) return true;  // a function pointer
  if (!m_.identifier(j) || is_non_call_word(m_.text(j))) return false;
  return in_list(m_.text(j + 1), {"=", ";", ",", "[", "{", "(", ":", ")"});
}

void Parser::index() {
  for (std::size_t u = 0; u < m_.units.size(); ++u) {
    const Unit& unit = m_.units[u];
    if (!unit.name.empty()) m_.units_by_name[unit.name].push_back(static_cast<int>(u));
    for (const Variable& v : unit.params) m_.variable_names.insert(v.name);
    for (const Variable& v : unit.locals) m_.variable_names.insert(v.name);
    if (unit.lambda && !unit.name.empty()) m_.variable_names.insert(unit.name);
  }
  for (std::size_t c = 0; c < m_.classes.size(); ++c) {
    m_.classes_by_name[m_.classes[c].name].push_back(static_cast<int>(c));
    for (const Variable& v : m_.classes[c].data_members) m_.variable_names.insert(v.name);
  }
  for (std::size_t g = 0; g < m_.globals.size(); ++g) {
    m_.globals_by_name[m_.globals[g].name].push_back(static_cast<int>(g));
    m_.variable_names.insert(m_.globals[g].name);
  }
  // `(*name)` and `(&name)` declare function pointers and references wherever they appear.
  for (std::size_t k = 0; k + 3 < m_.size(); ++k)
    if (m_.is(k, "(") && (m_.is(k + 1, "*") || m_.is(k + 1, "&")) && m_.identifier(k + 2) && m_.is(k + 3, ")"))
      m_.variable_names.insert(std::string(m_.text(k + 2)));
}

} // namespace cudiff::ubscan::detail
