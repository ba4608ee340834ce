// ubscan other_rules: the checks of no larger family: U-GNU-CONST-PURE-CONTRACT,
// U-ARCH-NODIAG, U-CXX11-GC, U-CXX11-CONCURRENCY, U-CXX14-ALLOC, U-FLOAT128-CONSTEXPR and
// U-MEM-OPT-CACHING.
#include "ubscan/parts.h"

namespace cudiff::ubscan::detail {

// ============================================================================================
// U-GNU-CONST-PURE-CONTRACT: a function declared __attribute__((pure)) writes no memory the
// caller can see; one declared __attribute__((const)) does not read it either.
// ============================================================================================

namespace {

void check_const_pure_body(const Scan& s, int id, bool is_const) {
  const Unit& u = s.m.units[id];
  for (std::size_t k = u.body_begin; k < u.body_end; ++k) {
    if (s.m.unit_of[k] != id || !s.a.plain_name(k)) continue;
    if (device_only_intrinsic(s.m.text(k)) && s.m.text(k).starts_with("atomic")) {
      s.hit("U-GNU-CONST-PURE-CONTRACT", k);
      continue;
    }
    const Variable* v = s.a.variable_at(s.m.text(k), k);
    if (!v) continue;
    const bool is_param = v >= u.params.data() && v < u.params.data() + u.params.size();
    const bool shared_state = (s.a.is_global(v) && !v->is_const) || (v->unit == id && v->is_static && !v->is_const) ||
                              (is_param && v->reference && !v->is_const);
    const bool through_pointer = v->pointer && dereferenced(s.a, k);
    const bool write = written(s.m, k);
    if (is_const ? (shared_state || through_pointer || (is_param && v->reference))
                 : (write && (shared_state || through_pointer)))
      s.hit("U-GNU-CONST-PURE-CONTRACT", k);
  }
}

} // namespace

void check_const_pure(const Scan& s) {
  std::map<std::string, std::set<std::string>> declared;  // a prototype's attributes hold for the definition
  for (const Unit& u : s.m.units)
    for (const char* attribute : {"const", "pure"})
      if (u.attributes.count(attribute)) declared[u.name].insert(attribute);
  for (std::size_t id = 0; id < s.m.units.size(); ++id) {
    const Unit& u = s.m.units[id];
    const auto found = declared.find(u.name);
    if (!u.has_body || u.lambda || found == declared.end()) continue;
    check_const_pure_body(s, static_cast<int>(id), found->second.count("const") != 0);
  }
}

// ============================================================================================
// U-ARCH-NODIAG: kernels' and device variables' declarations, and which kernel templates the
// host instantiates, do not depend on __CUDA_ARCH__ (compilers need not diagnose it).
// ============================================================================================

namespace {

bool any_arch_conditional(const Model& m, std::size_t a, std::size_t b) {
  for (std::size_t j = a; j < std::min(b, m.size()); ++j)
    if (m.tokens[j].arch_conditional) return true;
  return false;
}

} // namespace

void check_arch_dependent_declarations(const Scan& s) {
  for (const Unit& u : s.m.units) {
    if (u.lambda || u.space != Space::global || u.params_open == npos) continue;
    if (any_arch_conditional(s.m, u.head, s.m.after(u.params_open))) s.hit("U-ARCH-NODIAG", u.name_token);
  }
  for (const Variable& g : s.m.globals)
    if (g.space != MemorySpace::none && any_arch_conditional(s.m, g.head, g.name_token + 1))
      s.hit("U-ARCH-NODIAG", g.name_token);
  for (const Launch& launch : s.a.launches) {
    if (!s.a.host_pass(launch.chevrons) || !s.m.tokens[launch.chevrons].arch_conditional) continue;
    const auto found = s.m.units_by_name.find(std::string(s.m.text(launch.name_token)));
    if (found == s.m.units_by_name.end()) continue;
    for (int id : found->second)
      if (s.m.units[id].space == Space::global && s.m.units[id].is_template) {
        s.hit("U-ARCH-NODIAG", launch.chevrons);
        break;
      }
  }
}

// ============================================================================================
// U-CXX11-GC, U-CXX11-CONCURRENCY, U-CXX14-ALLOC: library and language rows with no device
// support (garbage-collection support, std:: threads/atomics/fences, sized deallocation).
// ============================================================================================

namespace {

bool std_concurrency_name(std::string_view name) {
  return name.starts_with("atomic") || name.starts_with("memory_order") ||
         in_list(name, {"thread",
                        "jthread",
                        "mutex",
                        "recursive_mutex",
                        "timed_mutex",
                        "shared_mutex",
                        "lock_guard",
                        "unique_lock",
                        "scoped_lock",
                        "shared_lock",
                        "condition_variable",
                        "condition_variable_any",
                        "future",
                        "shared_future",
                        "promise",
                        "async",
                        "packaged_task",
                        "call_once",
                        "once_flag",
                        "this_thread",
                        "kill_dependency",
                        "exception_ptr",
                        "current_exception",
                        "rethrow_exception",
                        "make_exception_ptr",
                        "counting_semaphore",
                        "binary_semaphore",
                        "latch",
                        "barrier",
                        "stop_token"});
}

} // namespace

void check_device_library_support(const Scan& s) {
  for (std::size_t k = 0; k + 2 < s.m.size(); ++k) {
    if (!s.a.device_pass(k)) continue;
    const std::string_view t = s.m.text(k);
    if (in_list(t, {"declare_reachable", "undeclare_reachable", "declare_no_pointers", "undeclare_no_pointers",
                    "get_pointer_safety", "pointer_safety"}) &&
        !s.a.after_member_access(k))
      s.hit("U-CXX11-GC", k);
    const bool cuda_std = k >= 2 && s.m.is(k - 1, "::") && s.m.is(k - 2, "cuda");  // libcu++'s cuda::std is fine
    if (t == "std" && s.m.is(k + 1, "::") && std_concurrency_name(s.m.text(k + 2)) && !cuda_std)
      s.hit("U-CXX11-CONCURRENCY", k);
    if (t == "operator" && s.m.is(k + 1, "delete")) {
      std::size_t open = k + 2;
      if (s.m.is(open, "[") && s.m.is(open + 1, "]")) open += 2;
      if (s.m.is(open, "(") && s.m.unit_of[k] >= 0 && s.a.arguments(open).size() >= 2) s.hit("U-CXX14-ALLOC", k);
    }
  }
  for (const Unit& u : s.m.units)
    if ((u.name == "operator delete" || u.name == "operator delete[]") && device_side(u.space) &&
        u.params.size() >= 2 && u.params[1].type == "size_t" && !u.params[1].pointer)
      s.hit("U-CXX14-ALLOC", u.name_token);
}

// ============================================================================================
// U-FLOAT128-CONSTEXPR: no constant expression of type __float128 (it may be evaluated at a
// lower precision than at run time).
// ============================================================================================

namespace {

bool float128_token(const Token& t) {
  if (t.text == "__float128" || t.text == "_Float128") return true;
  if (t.kind != TokenKind::number || t.text.starts_with("0x") || t.text.starts_with("0X")) return false;
  const bool floating = t.text.find('.') != std::string_view::npos || t.text.find('e') != std::string_view::npos;
  return floating && (t.text.ends_with("q") || t.text.ends_with("Q"));
}

} // namespace

void check_float128_constants(const Scan& s) {
  for (std::size_t k = 0; k < s.m.size(); ++k) {
    if (!float128_token(s.m.tokens[k])) continue;
    const Unit* unit = s.a.unit_at(k);
    bool constant = unit && unit->is_constexpr;
    const auto [a, b] = s.a.statement_around(k);
    for (std::size_t j = a; j < b && !constant; ++j)
      constant = in_list(s.m.text(j), {"constexpr", "consteval", "constinit", "static_assert"});
    if (constant) s.hit("U-FLOAT128-CONSTEXPR", k);
  }
}

// ============================================================================================
// U-MEM-OPT-CACHING: the compiler may keep a global or shared value in a register, so device
// code does not spin on a plain (non-volatile, non-atomic) global or shared location that only
// another thread changes.
// ============================================================================================

namespace {

bool has_call_or_fence(const Model& m, std::size_t a, std::size_t b) {
  for (std::size_t j = a; j < b; ++j) {
    const std::string_view t = m.text(j);
    if (t == "volatile" || t == "asm" || t == "__asm__") return true;
    if (m.identifier(j) && m.is(j + 1, "(") && !is_non_call_word(t)) return true;
  }
  return false;
}

bool has_write(const Model& m, std::size_t a, std::size_t b) {
  for (std::size_t j = a; j < b; ++j)
    if (is_assignment(m.text(j)) || m.is(j, "++") || m.is(j, "--")) return true;
  return false;
}

/// Whether the token names memory other threads may write: a non-volatile global or shared
/// variable, or a location reached through a non-volatile pointer.
bool shared_location(const Analysis& a, std::size_t k) {
  if (!a.plain_name(k)) return false;
  const Variable* v = a.variable_at(a.m.text(k), k);
  if (!v || v->is_volatile || v->is_const) return false;
  if (v->pointer) return dereferenced(a, k);
  return (a.is_global(v) && v->space != MemorySpace::none) || v->space == MemorySpace::shared;
}

} // namespace

void check_spin_waits(const Scan& s) {
  for (std::size_t k = 0; k + 1 < s.m.size(); ++k) {
    if (!s.a.device_pass(k) || !s.m.is(k, "while") || !s.m.is(k + 1, "(") || s.m.partner(k + 1) == npos) continue;
    const std::size_t cond_end = s.m.partner(k + 1);
    std::size_t body_begin = cond_end + 1, body_end = cond_end + 1;
    const bool do_while = k > 0 && s.m.is(k - 1, "}") && s.m.partner(k - 1) != npos && s.m.partner(k - 1) > 0 &&
                          s.m.is(s.m.partner(k - 1) - 1, "do");
    if (do_while) {
      body_begin = s.m.partner(k - 1) + 1;
      body_end = k - 1;
    } else if (s.m.is(body_begin, "{")) {
      body_end = s.m.after(body_begin);
    } else {
      while (body_end < s.m.size() && !s.m.is(body_end, ";")) ++body_end;
    }
    // A spin wait: the loop itself changes nothing, so only another thread can end it.
    if (has_call_or_fence(s.m, k + 2, cond_end) || has_call_or_fence(s.m, body_begin, body_end) ||
        has_write(s.m, k + 2, cond_end) || has_write(s.m, body_begin, body_end))
      continue;
    for (std::size_t j = k + 2; j < cond_end; ++j)
      if (shared_location(s.a, j)) {
        s.hit("U-MEM-OPT-CACHING", k);
        break;
      }
  }
}

} // namespace cudiff::ubscan::detail
