// ubscan kernel_parameters: checks on what kernels take: U-GRIDCONST-MODIFY (no write
// to a __grid_constant__ parameter) and U-KPARAM-MEMCPY/-MULTICOPY/-EARLY-DTOR (no class whose
// copy or destruction runs user code passed by value), with the class traits they rest on.
#include "ubscan/parts.h"

namespace cudiff::ubscan::detail {

// ============================================================================================
// U-GRIDCONST-MODIFY: nothing writes a __grid_constant__ parameter or any part of it.
// ============================================================================================

/// Whether the name at k is written: assigned, incremented or decremented, directly or
/// through `.member` and `[index]` (a `->` leaves the object for what it points to).
bool written(const Model& m, std::size_t k) {
  if (k > 0 && (m.is(k - 1, "++") || m.is(k - 1, "--"))) return true;
  std::size_t j = k + 1;
  while (j < m.size()) {
    if (m.is(j, ".") && m.identifier(j + 1)) j += 2;
    else if (m.is(j, "[")) j = m.after(j);
    else break;
  }
  return is_assignment(m.text(j)) || m.is(j, "++") || m.is(j, "--");
}

void check_grid_constant(const Scan& s) {
  for (const Unit& u : s.m.units) {
    if (!u.has_body || u.space != Space::global) continue;
    for (const Variable& p : u.params) {
      if (!p.grid_constant || p.name.empty()) continue;
      const bool shadowed = std::any_of(u.locals.begin(), u.locals.end(),
                                        [&](const Variable& v) { return v.name == p.name; });
      if (shadowed) continue;
      for (std::size_t k = u.body_begin; k < u.body_end; ++k) {
        if (s.m.text(k) != p.name || !s.a.plain_name(k)) continue;
        if (written(s.m, k) || s.a.cast_around(k) == "const_cast") s.hit("U-GRIDCONST-MODIFY", k);
      }
    }
  }
}

// ============================================================================================
// Class properties: user code in copies and destruction, virtual functions.
// ============================================================================================

int class_index(const Analysis& a, std::string_view name, const std::string& ns) {
  const ClassInfo* info = a.class_named(name, ns);
  return info ? static_cast<int>(info - a.m.classes.data()) : -1;
}

ClassTraits class_traits(const Analysis& a) {
  const std::size_t n = a.m.classes.size();
  ClassTraits t{std::vector<bool>(n), std::vector<bool>(n), std::vector<bool>(n)};
  std::vector<std::vector<int>> parts(n);  // bases and by-value members of class type
  for (std::size_t c = 0; c < n; ++c) {
    const ClassInfo& info = a.m.classes[c];
    t.user_copy[c] = info.user_copy;
    t.user_destructor[c] = info.user_destructor;
    t.polymorphic[c] = info.has_virtual;
    for (const std::string& base : info.bases)
      if (int b = class_index(a, base, info.ns); b >= 0) parts[c].push_back(b);
    for (const Variable& member : info.data_members)
      if (!member.pointer && !member.reference && !member.is_static)
        if (int b = class_index(a, member.type, info.ns); b >= 0) parts[c].push_back(b);
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t c = 0; c < n; ++c)
      for (int p : parts[c]) {
        const bool copy = t.user_copy[c] || t.user_copy[p], destructor = t.user_destructor[c] || t.user_destructor[p];
        // Virtual functions come through bases only: a member's vtable is its own business.
        const bool poly = t.polymorphic[c] ||
                          (t.polymorphic[p] &&
                           std::count(a.m.classes[c].bases.begin(), a.m.classes[c].bases.end(), a.m.classes[p].name));
        if (copy != t.user_copy[c] || destructor != t.user_destructor[c] || poly != t.polymorphic[c]) changed = true;
        t.user_copy[c] = copy;
        t.user_destructor[c] = destructor;
        t.polymorphic[c] = poly;
      }
  }
  return t;
}

/// The class a by-value variable holds, -1 for pointers, references and non-class types.
int value_class(const Analysis& a, const Variable& v) {
  if (v.pointer || v.reference || v.type.empty()) return -1;
  return class_index(a, v.type, v.ns.empty() && v.unit >= 0 ? a.m.units[v.unit].ns : v.ns);
}

namespace {

/// The class of an argument passed by value: a variable of class type or a temporary
/// `Type{...}` / `Type(...)`; -1 otherwise.
int argument_class(const Analysis& a, std::size_t first, std::size_t last) {
  if (const auto name = a.lone_name(first, last); name && !a.m.is(first, "&")) {
    const Variable* v = a.variable_at(a.m.text(*name), *name);
    return v ? value_class(a, *v) : -1;
  }
  if (a.m.identifier(first) && (a.m.is(first + 1, "{") || a.m.is(first + 1, "(")) && a.m.after(first + 1) == last)
    return class_index(a, a.m.text(first), a.context_ns(first));
  return -1;
}

// ============================================================================================
// U-KPARAM-MEMCPY, U-KPARAM-MULTICOPY, U-KPARAM-EARLY-DTOR: kernel arguments are copied
// bitwise, maybe more than once, and destroyed on the host whenever it likes: no class whose
// copy or destruction runs user code goes to a kernel by value.
// ============================================================================================

void report_kernel_copy(const Scan& s, const ClassTraits& traits, int cls, std::size_t token) {
  if (cls < 0) return;
  if (traits.user_copy[cls]) {
    s.hit("U-KPARAM-MEMCPY", token);
    s.hit("U-KPARAM-MULTICOPY", token);
  }
  if (traits.user_destructor[cls]) s.hit("U-KPARAM-EARLY-DTOR", token);
}

} // namespace

void check_kernel_parameters(const Scan& s, const ClassTraits& traits) {
  for (const Unit& u : s.m.units) {
    if (u.space != Space::global) continue;
    for (const Variable& p : u.params)
      if (!p.pointer && !p.reference)
        report_kernel_copy(s, traits, class_index(s.a, p.type, u.ns), p.name_token != npos ? p.name_token : p.head);
  }
  // Template kernels take whatever the launch passes.
  for (const Launch& launch : s.a.launches)
    for (const auto& [first, last] : launch.args)
      report_kernel_copy(s, traits, argument_class(s.a, first, last), first);
}

} // namespace cudiff::ubscan::detail
