// ubscan analysis: the queries the scan's checks share: which pass sees a token, what a
// name means there (variables, classes, callees), calls and kernel launches, the statement,
// call and cast around a token.
#include "ubscan/parts.h"

namespace cudiff::ubscan::detail {

bool is_symbol_api(std::string_view name) {
  return in_list(name, {"cudaMemcpyToSymbol", "cudaMemcpyToSymbolAsync", "cudaMemcpyFromSymbol",
                        "cudaMemcpyFromSymbolAsync", "cudaGetSymbolAddress", "cudaGetSymbolSize",
                        "cudaGraphAddMemcpyNodeToSymbol", "cudaGraphAddMemcpyNodeFromSymbol",
                        "cudaGraphMemcpyNodeSetParamsToSymbol", "cudaGraphMemcpyNodeSetParamsFromSymbol"});
}

namespace {

bool is_unevaluated_operator(std::string_view name) {
  return in_list(name, {"sizeof", "alignof", "__alignof__", "decltype", "offsetof", "noexcept", "typeid", "__typeof__",
                        "typeof", "_Alignof"});
}

} // namespace

Analysis::Analysis(const Model& model) : m(model) {
  find_calls();
  find_launches();
}

/// The variable `name` means at token k: a parameter or local of the unit (or of the units a
/// lambda sits in), else a data member of the member function's class, else a
/// namespace-scope variable visible there.
const Variable* Analysis::variable_at(std::string_view name, std::size_t k) const {
  const Unit* outermost = nullptr;
  for (int u = k < m.unit_of.size() ? m.unit_of[k] : -1; u >= 0; u = m.units[u].parent) {
    const Unit& unit = m.units[u];
    for (auto it = unit.locals.rbegin(); it != unit.locals.rend(); ++it)
      if (it->name == name && it->name_token <= k) return &*it;
    for (const Variable& p : unit.params)
      if (p.name == name) return &p;
    outermost = &unit;
  }
  if (outermost)
    if (const Variable* member = data_member(outermost->owner, outermost->ns, name)) return member;
  return global(name, context_ns(k));
}

std::string Analysis::context_ns(std::size_t k) const {
  const Unit* u = unit_at(k);
  return u ? u->ns : namespace_at(k);
}

const Variable* Analysis::global(std::string_view name, const std::string& ns) const {
  const auto found = m.globals_by_name.find(std::string(name));
  if (found == m.globals_by_name.end()) return nullptr;
  const Variable* fallback = nullptr;
  for (int g : found->second) {
    const Variable& v = m.globals[g];
    if (visible(v.ns, ns) && (!fallback || v.ns.size() >= fallback->ns.size())) fallback = &v;
  }
  return fallback;
}

const ClassInfo* Analysis::class_named(std::string_view name, const std::string& ns) const {
  const auto found = m.classes_by_name.find(std::string(name));
  if (found == m.classes_by_name.end() || name.empty()) return nullptr;
  const ClassInfo* best = nullptr;
  for (int c : found->second) {
    const ClassInfo& info = m.classes[c];
    if (visible(info.ns, ns) && (!best || info.ns.size() >= best->ns.size())) best = &info;
  }
  return best ? best : &m.classes[found->second.front()];
}

const Variable* Analysis::data_member(const std::string& cls, const std::string& ns, std::string_view name,
                                      int depth) const {
  const ClassInfo* info = cls.empty() || depth > 8 ? nullptr : class_named(cls, ns);
  if (!info) return nullptr;
  for (const Variable& v : info->data_members)
    if (v.name == name) return &v;
  for (const std::string& base : info->bases)
    if (const Variable* v = data_member(base, info->ns, name, depth + 1)) return v;
  return nullptr;
}

/// Units a call may reach: same-named functions visible from the caller (members for a
/// member call, the qualifier's namespace or class for a qualified one), and lambdas named
/// by a variable of an enclosing unit.
std::vector<int> Analysis::callees(const Call& call) const {
  std::vector<int> out;
  const auto found = m.units_by_name.find(std::string(call.name));
  if (found == m.units_by_name.end()) return out;
  const Unit* caller = call.unit >= 0 ? &m.units[call.unit] : nullptr;
  const std::string ns = caller ? caller->ns : "";
  for (int id : found->second) {
    const Unit& u = m.units[id];
    if (u.lambda) {
      if (!call.member && call.qualifier.empty() && encloses(u.parent, call.unit)) out.push_back(id);
      continue;
    }
    if (call.member) {
      if (!u.owner.empty()) out.push_back(id);
    } else if (!call.qualifier.empty()) {
      if (u.owner == call.qualifier || u.ns == call.qualifier || u.ns.ends_with("::" + call.qualifier))
        out.push_back(id);
    } else if ((u.owner.empty() || (caller && u.owner == caller->owner)) && visible(u.ns, ns)) {
      out.push_back(id);
    }
  }
  return out;
}

bool Analysis::encloses(int outer, int inner) const {
  for (int u = inner; u >= 0; u = m.units[u].parent)
    if (u == outer) return true;
  return false;
}

/// The innermost unclosed '(' around token k in its statement, with the name before it.
std::vector<std::size_t> Analysis::enclosing_parens(std::size_t k) const {
  std::vector<std::size_t> out;
  std::size_t steps = 0;
  for (std::size_t j = k; j-- > 0 && steps < 4000; ++steps) {
    const std::string_view t = m.text(j);
    if (t == ")" || t == "]" || t == "}") {
      const std::size_t p = m.partner(j);
      if (p == npos || p > j) return out;
      j = p;
      continue;
    }
    if (t == "(") out.push_back(j);
    if (t == ";") return out;
    if (t == "{") {
      const bool initializer = j > 0 && (m.is(j - 1, "=") || m.identifier(j - 1) || m.is(j - 1, ",") ||
                                         m.is(j - 1, "(") || m.is(j - 1, ">"));
      if (!initializer) return out;
    }
  }
  return out;
}

/// Whether token k is an operand of sizeof, decltype and the like.
bool Analysis::unevaluated(std::size_t k) const {
  for (std::size_t open : enclosing_parens(k))
    if (open > 0 && is_unevaluated_operator(m.text(open - 1))) return true;
  return false;
}

/// The statement around token k: from after the previous `;`, `{` or `}` to its `;`.
std::pair<std::size_t, std::size_t> Analysis::statement_around(std::size_t k) const {
  std::size_t a = k;
  while (a > 0 && !m.is(a - 1, ";") && !m.is(a - 1, "{") && !m.is(a - 1, "}")) {
    const std::size_t p = m.partner(a - 1);
    a = (m.is(a - 1, ")") || m.is(a - 1, "]")) && p != npos && p < a ? p : a - 1;
  }
  std::size_t b = k;
  while (b < m.size() && !m.is(b, ";") && !m.is(b, "{") && !m.is(b, "}"))
    b = (m.is(b, "(") || m.is(b, "[")) ? m.after(b) : b + 1;
  return {a, std::min(b, m.size())};
}

/// The arguments of the call whose '(' is at open, as token ranges.
std::vector<std::pair<std::size_t, std::size_t>> Analysis::arguments(std::size_t open) const {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  const std::size_t close = m.partner(open);
  if (close == npos) return out;
  std::size_t start = open + 1;
  for (std::size_t j = open + 1; j <= close; ++j) {
    if (j < close && (m.is(j, "(") || m.is(j, "[") || m.is(j, "{"))) {
      j = m.after(j) - 1;
      continue;
    }
    if (j == close || m.is(j, ",")) {
      if (j > start) out.emplace_back(start, j);
      start = j + 1;
    }
  }
  return out;
}

/// A name used as a value in [a, b) alone (`x`), after `&` (`&x`), or in parentheses.
std::optional<std::size_t> Analysis::lone_name(std::size_t a, std::size_t b, bool* address) const {
  while (b > a + 1 && m.is(a, "(") && m.partner(a) == b - 1) {
    ++a;
    --b;
  }
  const bool amp = m.is(a, "&") && b == a + 2;
  if (address) *address = amp;
  const std::size_t k = amp ? a + 1 : a;
  if (b == k + 1 && m.identifier(k)) return k;
  return std::nullopt;
}

/// Namespace of a token outside any body (namespace-scope initializers).
std::string Analysis::namespace_at(std::size_t k) const {
  std::string best;
  for (const Variable& g : m.globals)
    if (g.head <= k && k < std::max(g.init_end, g.name_token + 1) && g.ns.size() >= best.size()) best = g.ns;
  return best;
}

/// `const_cast` when token k is inside `const_cast<T>(...)` (the innermost parentheses), and
/// likewise for the other named casts; "" otherwise.
std::string_view Analysis::cast_around(std::size_t k) const {
  const std::vector<std::size_t> opens = enclosing_parens(k);
  if (opens.empty() || opens.front() == 0 || !m.is(opens.front() - 1, ">")) return {};
  int depth = 0;
  for (std::size_t j = opens.front() - 1; j > 0; --j) {
    if (m.is(j, ">")) ++depth;
    if (m.is(j, "<") && --depth == 0) return m.text(j - 1);
  }
  return {};
}

void Analysis::find_calls() {
  std::unordered_set<std::size_t> declarations;
  for (const Unit& u : m.units) declarations.insert(u.name_token);
  for (const Unit& u : m.units)
    for (const Variable& v : u.locals) declarations.insert(v.name_token);
  for (std::size_t k = 0; k + 1 < m.size(); ++k) {
    if (!m.identifier(k) || is_non_call_word(m.text(k)) || declarations.count(k)) continue;
    std::size_t open = k + 1;
    if (m.is(open, "<") &&
        (m.units_by_name.count(std::string(m.text(k))) || m.type_names.count(std::string(m.text(k))))) {
      open = template_arguments_end(open);
      if (open == npos) continue;
    }
    if (!m.is(open, "(") || m.partner(open) == npos) continue;
    Call call;
    call.token = k;
    call.open = open;
    call.close = m.partner(open);
    call.name = m.text(k);
    call.member = after_member_access(k);
    if (qualified(k) && k >= 2 && m.identifier(k - 2)) call.qualifier = m.text(k - 2);
    if (qualified(k) && call.qualifier.empty()) call.qualifier = "::";
    call.unit = m.unit_of[k];
    calls.push_back(std::move(call));
  }
}

std::size_t Analysis::template_arguments_end(std::size_t i) const {
  int depth = 0;
  for (std::size_t j = i; j < m.size(); ++j) {
    const std::string_view t = m.text(j);
    if (t == "<") ++depth;
    else if (t == ">") --depth;
    else if (t == ">>") depth -= 2;
    else if (t == ";" || t == "{" || t == "}") return npos;
    else if (t == "(" || t == "[") j = m.after(j) - 1;
    if (depth <= 0) return j + 1;
  }
  return npos;
}

void Analysis::find_launches() {
  for (std::size_t k = 1; k < m.size(); ++k) {
    if (!m.is(k, "<<<")) continue;
    Launch launch;
    launch.chevrons = k;
    launch.unit = m.unit_of[k];
    std::size_t name = k - 1;
    if (m.is(name, ">")) {
      int depth = 0;
      while (name > 0) {
        if (m.is(name, ">")) ++depth;
        if (m.is(name, "<") && --depth == 0) break;
        --name;
      }
      --name;
    }
    if (!m.identifier(name)) continue;
    launch.name_token = name;
    std::size_t close = k + 1;
    while (close < m.size() && !m.is(close, ">>>") && !m.is(close, ";"))
      close = m.is(close, "(") ? m.after(close) : close + 1;
    if (!m.is(close, ">>>") || !m.is(close + 1, "(") || m.partner(close + 1) == npos) continue;
    launch.open = close + 1;
    launch.close = m.partner(close + 1);
    launch.args = arguments(launch.open);
    launches.push_back(std::move(launch));
  }
}

} // namespace cudiff::ubscan::detail
