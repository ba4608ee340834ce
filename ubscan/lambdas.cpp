// ubscan lambdas: checks on extended lambdas and nvstd::function: U-THISCAP-HOSTPTR,
// U-EXTLAM-12-CAPTURE-COPY, R-EXTLAM-17-TRAITS, U-EXTLAM-DIAG-COVERAGE, U-NVFUNC-NO-TRANSFER.
#include "ubscan/parts.h"

namespace cudiff::ubscan::detail {

// ============================================================================================
// Extended lambdas: U-THISCAP-HOSTPTR, U-EXTLAM-12-CAPTURE-COPY, R-EXTLAM-17-TRAITS,
// U-EXTLAM-DIAG-COVERAGE (restrictions 13-16, which compilers need not diagnose).
// ============================================================================================

namespace {

struct CaptureList {
  bool default_copy = false, default_reference = false, this_pointer = false, this_copy = false;
  std::vector<std::size_t> by_copy;  ///< plain names captured by copy
};

CaptureList capture_list(const Model& m, const Unit& lambda) {
  CaptureList out;
  std::size_t group = lambda.capture_begin;
  for (std::size_t j = lambda.capture_begin; j <= lambda.capture_end; ++j) {
    if (j < lambda.capture_end && (m.is(j, "(") || m.is(j, "{") || m.is(j, "["))) {
      j = m.after(j) - 1;
      continue;
    }
    if (j < lambda.capture_end && !m.is(j, ",")) continue;
    const std::size_t n = j - group;
    if (n == 1 && m.is(group, "=")) out.default_copy = true;
    else if (n == 1 && m.is(group, "&")) out.default_reference = true;
    else if (n == 1 && m.is(group, "this")) out.this_pointer = true;
    else if (n == 2 && m.is(group, "*") && m.is(group + 1, "this")) out.this_copy = true;
    else if ((n == 1 || (n == 2 && m.is(group + 1, "..."))) && m.identifier(group)) out.by_copy.push_back(group);
    group = j + 1;
  }
  return out;
}

/// The function (not lambda) a lambda is written in; -1 at namespace scope.
int enclosing_function(const Model& m, int unit) {
  while (unit >= 0 && m.units[unit].lambda) unit = m.units[unit].parent;
  return unit;
}

/// Whether the lambda's body uses a member of its enclosing class through `this`.
bool uses_members(const Scan& s, int lambda, const Unit& function) {
  const Unit& l = s.m.units[lambda];
  for (std::size_t k = l.body_begin; k < l.body_end; ++k) {
    if (s.m.is(k, "this")) return true;
    if (!s.a.plain_name(k)) continue;
    const Variable* v = s.a.variable_at(s.m.text(k), k);
    if (v && v->unit < 0 && !s.a.is_global(v) && !v->is_static) return true;  // a data member
    if (!v && s.m.is(k + 1, "(")) {
      const auto found = s.m.units_by_name.find(std::string(s.m.text(k)));
      if (found == s.m.units_by_name.end()) continue;
      for (int id : found->second)
        if (s.m.units[id].owner == function.owner && !s.m.units[id].is_static && !s.m.units[id].lambda) return true;
    }
  }
  return false;
}

} // namespace

void check_this_capture(const Scan& s) {
  for (std::size_t id = 0; id < s.m.units.size(); ++id) {
    const Unit& l = s.m.units[id];
    if (!l.lambda || !l.annotated || !device_side(l.space)) continue;
    const int f = enclosing_function(s.m, static_cast<int>(id));
    if (f < 0 || s.m.units[f].owner.empty() || s.m.units[f].is_static || !host_side(s.m.units[f].space)) continue;
    const CaptureList captures = capture_list(s.m, l);
    if (captures.this_copy || !(captures.this_pointer || captures.default_copy || captures.default_reference)) continue;
    if (uses_members(s, static_cast<int>(id), s.m.units[f])) s.hit("U-THISCAP-HOSTPTR", l.head);
  }
}

namespace {

/// Variables of enclosing units that an extended lambda captures by copy.
std::vector<const Variable*> captured_by_copy(const Scan& s, int lambda) {
  const Unit& l = s.m.units[lambda];
  const CaptureList captures = capture_list(s.m, l);
  std::vector<const Variable*> out;
  const auto outer = [&](const Variable* v) {
    return v && v->unit >= 0 && v->unit != lambda && s.a.encloses(v->unit, l.parent);
  };
  for (std::size_t k : captures.by_copy)
    if (const Variable* v = s.a.variable_at(s.m.text(k), k); outer(v)) out.push_back(v);
  if (captures.default_copy)
    for (std::size_t k = l.body_begin; k < l.body_end; ++k)
      if (s.a.plain_name(k))
        if (const Variable* v = s.a.variable_at(s.m.text(k), k); outer(v)) out.push_back(v);
  return out;
}

} // namespace

void check_capture_copies(const Scan& s, const ClassTraits& traits) {
  for (std::size_t id = 0; id < s.m.units.size(); ++id) {
    const Unit& l = s.m.units[id];
    if (!l.lambda || !l.annotated || l.parent < 0 || !host_side(s.m.units[l.parent].space)) continue;
    for (const Variable* v : captured_by_copy(s, static_cast<int>(id)))
      if (const int cls = value_class(s.a, *v); cls >= 0 && traits.user_copy[cls]) {
        s.hit("U-EXTLAM-12-CAPTURE-COPY", l.head);
        break;
      }
  }
}

namespace {

/// The extended lambda a variable named at k holds, -1 if none.
int extended_lambda_named(const Model& m, std::string_view name) {
  const auto found = m.units_by_name.find(std::string(name));
  if (found == m.units_by_name.end()) return -1;
  for (int id : found->second)
    if (m.units[id].lambda && m.units[id].annotated) return id;
  return -1;
}

/// `decltype(lambda)` somewhere in [a, b) for an extended lambda variable: its unit, or -1.
int decltype_of_extended_lambda(const Model& m, std::size_t a, std::size_t b) {
  for (std::size_t j = a; j + 3 < b + 1; ++j)
    if (m.is(j, "decltype") && m.is(j + 1, "(") && m.identifier(j + 2) && m.is(j + 3, ")"))
      if (const int id = extended_lambda_named(m, m.text(j + 2)); id >= 0) return id;
  return -1;
}

std::size_t angle_group_end(const Model& m, std::size_t open) {
  int depth = 0;
  for (std::size_t j = open; j < m.size(); ++j) {
    const std::string_view t = m.text(j);
    if (t == "<") ++depth;
    else if (t == ">") --depth;
    else if (t == ">>") depth -= 2;
    else if (t == ">>>") depth -= 3;
    else if (t == ";" || t == "{" || t == "}") return npos;
    else if (t == "(" || t == "[") j = m.after(j) - 1;
    if (depth <= 0) return j + 1;
  }
  return npos;
}

bool trivially_trait(std::string_view name) {
  if (name.ends_with("_v")) name.remove_suffix(2);
  return in_list(name, {"is_trivially_copyable", "is_trivially_constructible", "is_trivially_copy_constructible",
                        "is_trivially_move_constructible", "is_trivially_destructible"});
}

/// Whether some launch of the kernel passes it an extended lambda.
bool launched_with_extended_lambda(const Scan& s, const std::string& kernel) {
  for (const Launch& launch : s.a.launches) {
    if (s.m.text(launch.name_token) != kernel) continue;
    for (const auto& [first, last] : launch.args) {
      if (const auto name = s.a.lone_name(first, last); name && extended_lambda_named(s.m, s.m.text(*name)) >= 0)
        return true;
      for (const Unit& u : s.m.units)
        if (u.lambda && u.annotated && u.head == first) return true;
    }
  }
  return false;
}

} // namespace

void check_closure_traits(const Scan& s) {
  for (std::size_t k = 0; k + 1 < s.m.size(); ++k) {
    if (!trivially_trait(s.m.text(k)) || !s.m.is(k + 1, "<")) continue;
    const std::size_t end = angle_group_end(s.m, k + 1);
    if (end == npos) continue;
    if (decltype_of_extended_lambda(s.m, k + 2, end - 1) >= 0) {
      s.hit("R-EXTLAM-17-TRAITS", k);
      continue;
    }
    // Over a template parameter of a kernel template that is launched with an extended lambda.
    const Unit* unit = s.a.unit_at(k);
    const int f = s.m.unit_of[k] >= 0 ? enclosing_function(s.m, s.m.unit_of[k]) : -1;
    if (f >= 0) unit = &s.m.units[f];
    if (!unit || !unit->is_template || unit->space != Space::global) continue;
    for (std::size_t j = k + 2; j + 1 < end; ++j)
      if (std::count(unit->template_params.begin(), unit->template_params.end(), s.m.text(j)) &&
          launched_with_extended_lambda(s, unit->name)) {
        s.hit("R-EXTLAM-17-TRAITS", k);
        break;
      }
  }
}

namespace {

bool introspection_trait(std::string_view name) {
  if (name.ends_with("_t") || name.ends_with("_v")) name.remove_suffix(2);
  return in_list(name, {"result_of", "invoke_result", "is_invocable", "is_invocable_r", "is_nothrow_invocable",
                        "is_nothrow_invocable_r"});
}

} // namespace

void check_lambda_rules_without_diagnostics(const Scan& s) {
  for (std::size_t id = 0; id < s.m.units.size(); ++id) {
    const Unit& l = s.m.units[id];
    if (!l.lambda || !l.annotated || l.parent < 0) continue;
    // (13) whether the lambda exists depends on __CUDA_ARCH__
    if (s.m.tokens[l.head].arch_conditional) s.hit("U-EXTLAM-DIAG-COVERAGE", l.head);
    // (15) what it captures depends on __CUDA_ARCH__
    const CaptureList captures = capture_list(s.m, l);
    if (!captures.default_copy || s.m.tokens[l.head].arch_conditional) continue;
    for (std::size_t k = l.body_begin; k < l.body_end; ++k) {
      if (!s.m.tokens[k].arch_conditional || !s.a.plain_name(k)) continue;
      const Variable* v = s.a.variable_at(s.m.text(k), k);
      if (v && v->unit >= 0 && v->unit != static_cast<int>(id) && s.a.encloses(v->unit, l.parent))
        s.hit("U-EXTLAM-DIAG-COVERAGE", k);
    }
  }
  for (std::size_t k = 0; k + 1 < s.m.size(); ++k) {
    // (14) a __device__ lambda's operator() introspected in host code
    if (!s.a.host_pass(k) || !introspection_trait(s.m.text(k)) || !s.m.is(k + 1, "<")) continue;
    const std::size_t end = angle_group_end(s.m, k + 1);
    const int lambda = end == npos ? -1 : decltype_of_extended_lambda(s.m, k + 2, end - 1);
    if (lambda >= 0 && s.m.units[lambda].space == Space::device) s.hit("U-EXTLAM-DIAG-COVERAGE", k);
  }
  for (const Unit& u : s.m.units) {
    // (16) a __device__ lambda converted to a function pointer in host code
    if (!u.has_body || !host_side(u.space)) continue;
    for (const Variable& v : u.locals) {
      std::size_t first = v.init_begin;
      if (s.m.is(first, "+")) ++first;
      const auto name = s.a.lone_name(first, v.init_end);
      const int lambda = name ? extended_lambda_named(s.m, s.m.text(*name)) : -1;
      if (v.pointer && lambda >= 0 && s.m.units[lambda].space == Space::device)
        s.hit("U-EXTLAM-DIAG-COVERAGE", v.name_token);
    }
  }
}

// ============================================================================================
// U-NVFUNC-NO-TRANSFER: nvstd::function objects stay on the side that made them.
// ============================================================================================

namespace {

bool nvstd_function(const Variable* v) {
  return v && !v->pointer && v->full_type.find("nvstd :: function") != std::string::npos;
}

} // namespace

void check_nvstd_functions(const Scan& s) {
  for (const Unit& u : s.m.units)
    if (u.space == Space::global)
      for (const Variable& p : u.params)
        if (p.full_type.find("nvstd :: function") != std::string::npos) s.hit("U-NVFUNC-NO-TRANSFER", p.head);
  for (const Variable& g : s.m.globals)
    if (g.space == MemorySpace::managed && nvstd_function(&g)) s.hit("U-NVFUNC-NO-TRANSFER", g.name_token);
  for (const Launch& launch : s.a.launches)
    for (const auto& [first, last] : launch.args)
      if (const auto name = s.a.lone_name(first, last); name && nvstd_function(s.a.variable_at(s.m.text(*name), *name)))
        s.hit("U-NVFUNC-NO-TRANSFER", first);
  for (const Call& call : s.a.calls) {
    if (!call.name.starts_with("cudaMemcpy") || !s.a.host_pass(call.token)) continue;
    for (const auto& [first, last] : s.a.arguments(call.open))
      if (const auto name = s.a.lone_name(first, last); name && nvstd_function(s.a.variable_at(s.m.text(*name), *name)))
        s.hit("U-NVFUNC-NO-TRANSFER", first);
  }
}

} // namespace cudiff::ubscan::detail
