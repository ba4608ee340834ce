// ubscan managed: checks on __managed__ memory and object lifetimes:
// U-MANAGED-RUNTIME-STATE (no managed variable touched before the CUDA runtime starts or after
// exit()) and U-MANAGED-COHERENCE (the host leaves managed memory alone while a kernel runs).
#include "ubscan/parts.h"

namespace cudiff::ubscan::detail {

// ============================================================================================
// U-MANAGED-RUNTIME-STATE: __managed__ variables are not touched before the CUDA runtime
// starts or after exit(): no constructor/destructor-attribute functions, no namespace-scope
// object whose initializer, constructor or destructor touches one, no atexit handler that does.
// ============================================================================================

bool names_managed(const Analysis& a, std::size_t k) {
  if (!a.plain_name(k) && !(a.qualified(k) && a.m.identifier(k))) return false;
  const Variable* v = a.variable_at(a.m.text(k), k);
  return v && v->space == MemorySpace::managed;
}

namespace {

bool touches_managed(const Analysis& a, int unit, std::set<int>& seen) {
  if (unit < 0 || !seen.insert(unit).second || seen.size() > 64) return false;
  const Unit& u = a.m.units[unit];
  if (!u.has_body) return false;
  for (std::size_t k = u.body_begin; k < u.body_end; ++k)
    if (names_managed(a, k)) return true;
  for (const Call& call : a.calls)
    if (call.token >= u.body_begin && call.token < u.body_end)
      for (int callee : a.callees(call))
        if (touches_managed(a, callee, seen)) return true;
  return false;
}

/// Whether constructing or destroying an object of the class touches a managed variable.
bool lifetime_touches_managed(const Analysis& a, int cls) {
  if (cls < 0) return false;
  const ClassInfo& info = a.m.classes[cls];
  for (std::size_t u = 0; u < a.m.units.size(); ++u) {
    const Unit& unit = a.m.units[u];
    if (unit.owner != info.name || (unit.name != info.name && unit.name != "~" + info.name)) continue;
    std::set<int> seen;
    if (touches_managed(a, static_cast<int>(u), seen)) return true;
  }
  return false;
}

} // namespace

void check_static_lifetimes(const Scan& s) {
  for (const Variable& g : s.m.globals) {
    if (g.space != MemorySpace::none) continue;
    for (std::size_t k = g.init_begin; k < g.init_end; ++k)
      if (names_managed(s.a, k)) s.hit("U-MANAGED-RUNTIME-STATE", k);
    if (lifetime_touches_managed(s.a, value_class(s.a, g))) s.hit("U-MANAGED-RUNTIME-STATE", g.name_token);
  }
  for (const Unit& u : s.m.units)
    if (host_side(u.space))
      for (const Variable& v : u.locals)  // a static local is destroyed after exit()
        if (v.is_static && lifetime_touches_managed(s.a, value_class(s.a, v)))
          s.hit("U-MANAGED-RUNTIME-STATE", v.name_token);
}

void check_exit_handlers(const Scan& s) {
  for (std::size_t u = 0; u < s.m.units.size(); ++u) {
    const Unit& unit = s.m.units[u];
    if (unit.attributes.count("constructor") || unit.attributes.count("destructor"))
      s.hit("U-MANAGED-RUNTIME-STATE", unit.name_token);
  }
  for (const Call& call : s.a.calls) {
    if (call.name != "atexit" && call.name != "at_quick_exit") continue;
    for (const auto& [first, last] : s.a.arguments(call.open)) {
      std::set<int> seen;
      bool touches = false;
      if (const auto name = s.a.lone_name(first, last)) {
        const auto found = s.m.units_by_name.find(std::string(s.m.text(*name)));
        if (found != s.m.units_by_name.end())
          for (int id : found->second) touches = touches || touches_managed(s.a, id, seen);
      }
      for (std::size_t k = first; k < last; ++k) touches = touches || names_managed(s.a, k);
      if (touches) s.hit("U-MANAGED-RUNTIME-STATE", call.token);
    }
  }
}

// ============================================================================================
// U-MANAGED-COHERENCE: managed memory behaves like cudaMallocManaged memory: the host does not
// touch it between a launch and the synchronization that ends it.
// ============================================================================================

namespace {

bool synchronizes(std::string_view name) {
  return in_list(name, {"cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaEventSynchronize",
                        "cudaThreadSynchronize", "cudaMemcpy", "cudaMemcpy2D", "cudaMemcpy3D", "cudaMemcpyFromSymbol",
                        "cudaMemcpyToSymbol", "cudaFree", "cudaDeviceReset"});
}

bool launches_work(std::string_view name) {
  return in_list(name, {"cudaLaunchKernel", "cudaLaunchCooperativeKernel", "cudaLaunchKernelEx", "cudaGraphLaunch"});
}

} // namespace

/// Pointers a unit gets from an allocation call `f(&p, ...)` for f in `allocators`.
std::map<std::string, std::size_t, std::less<>> allocated_pointers(const Analysis& a, int unit,
                                                                   std::initializer_list<std::string_view> allocators) {
  std::map<std::string, std::size_t, std::less<>> out;
  for (const Call& call : a.calls) {
    if (call.unit != unit || !in_list(call.name, allocators)) continue;
    const auto args = a.arguments(call.open);
    if (args.empty()) continue;
    for (std::size_t k = args[0].first; k + 1 < args[0].second; ++k)
      if (a.m.is(k, "&") && a.m.identifier(k + 1)) out.emplace(std::string(a.m.text(k + 1)), call.close);
  }
  return out;
}

/// Whether the pointer named at k is dereferenced there: `p[i]` (not `&p[i]`), `*p`, `p->m`.
bool dereferenced(const Analysis& a, std::size_t k) {
  const Model& m = a.m;
  const bool address_of = k > 0 && m.is(k - 1, "&") && a.unary(k - 1);
  if (m.is(k + 1, "[") && !address_of) return true;
  if (m.is(k + 1, "->")) return true;
  return k > 0 && m.is(k - 1, "*") && a.unary(k - 1);
}

void check_managed_coherence(const Scan& s) {
  for (std::size_t u = 0; u < s.m.units.size(); ++u) {
    const Unit& unit = s.m.units[u];
    if (!unit.has_body || !host_side(unit.space)) continue;
    const auto managed_pointers = allocated_pointers(s.a, static_cast<int>(u), {"cudaMallocManaged"});
    bool in_flight = false;
    std::size_t quiet_until = 0;  // a launch's own arguments are read before it starts
    for (std::size_t k = unit.body_begin; k < unit.body_end; ++k) {
      if (s.m.unit_of[k] != static_cast<int>(u) || s.m.tokens[k].branch == ArchBranch::device_only) continue;
      if (s.m.is(k, "<<<")) {
        in_flight = true;
        quiet_until = k;
        while (quiet_until < unit.body_end && !s.m.is(quiet_until, ";")) ++quiet_until;
        continue;
      }
      if (!s.m.identifier(k) || k < quiet_until) continue;
      const std::string_view t = s.m.text(k);
      if (synchronizes(t) && s.m.is(k + 1, "(")) in_flight = false;
      if (launches_work(t) && s.m.is(k + 1, "(")) {
        in_flight = true;
        quiet_until = s.m.after(k + 1);
      }
      if (!in_flight || !s.a.plain_name(k) || s.a.unevaluated(k)) continue;
      const bool managed_variable = names_managed(s.a, k) && !(k > 0 && s.m.is(k - 1, "&") && s.a.unary(k - 1));
      const bool managed_pointer = managed_pointers.count(t) && dereferenced(s.a, k);
      const bool api_argument = s.a.inside_call(k, [](std::string_view n) { return n.starts_with("cuda"); });
      if ((managed_variable || managed_pointer) && !api_argument) s.hit("U-MANAGED-COHERENCE", k);
    }
  }
}

} // namespace cudiff::ubscan::detail
