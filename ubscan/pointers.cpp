// ubscan pointers: checks on memory spaces and pointers crossing between host and device:
// U-PTR-DEVADDR-IN-HOST, U-PTR-DEREF-CROSS, U-FNPTR-KERNEL-CROSS and U-VIRT-CROSS-SPACE.
#include "ubscan/parts.h"

namespace cudiff::ubscan::detail {

// ============================================================================================
// U-PTR-DEVADDR-IN-HOST: host code never takes the address of a __device__, __constant__ or
// __shared__ variable (`&x`, or an array decaying or indexed); the symbol APIs take the
// variable itself, and sizeof and the like do not evaluate it.
// ============================================================================================

namespace {

bool device_address_space(MemorySpace space) {
  return space == MemorySpace::device || space == MemorySpace::constant || space == MemorySpace::shared;
}

/// Token k is the symbol argument of cudaMemcpyToSymbol, cudaGetSymbolAddress and the like.
bool symbol_argument(const Analysis& a, std::size_t k) {
  const std::vector<std::size_t> opens = a.enclosing_parens(k);
  if (opens.empty() || opens.front() == 0 || !is_symbol_api(a.m.text(opens.front() - 1))) return false;
  const std::string_view api = a.m.text(opens.front() - 1);
  const std::size_t position = api.find("ToSymbol") != std::string_view::npos ? 0 : 1;
  const auto args = a.arguments(opens.front());
  return position < args.size() && args[position].first <= k && k < args[position].second;
}

void check_device_address(const Scan& s, std::size_t k) {
  const Model& m = s.m;
  if (!m.identifier(k) || s.a.after_member_access(k)) return;
  const Variable* v = s.a.variable_at(m.text(k), k);
  if (!s.a.is_global(v) || !device_address_space(v->space)) return;
  if (s.a.unevaluated(k) || symbol_argument(s.a, k)) return;
  const bool address = k > 0 && m.is(k - 1, "&") && s.a.unary(k - 1);
  const bool addressof = s.a.inside_call(k, [](std::string_view n) { return n == "addressof"; });
  if (address || addressof || v->array) s.hit("U-PTR-DEVADDR-IN-HOST", k);
}

} // namespace

void check_device_addresses(const Scan& s) {
  for (std::size_t k = 0; k < s.m.size(); ++k)
    if (s.a.host_pass(k)) check_device_address(s, k);
  for (const Variable& g : s.m.globals)  // host variables' initializers run on the host
    if (g.space == MemorySpace::none)
      for (std::size_t k = g.init_begin; k < g.init_end; ++k)
        if (s.m.unit_of[k] < 0) check_device_address(s, k);
}

// ============================================================================================
// U-PTR-DEREF-CROSS: the host never dereferences a device pointer (from cudaMalloc or
// cudaGetSymbolAddress), and device code never a host one (a host array, a pointer from
// malloc/new or to a host variable, passed to a kernel or captured by an extended lambda).
// ============================================================================================

namespace {

bool host_memory_variable(const Analysis& a, const Variable* v) {
  if (!v || v->space != MemorySpace::none || v->reference) return false;
  return v->unit >= 0 || a.is_global(v);
}

/// A pointer variable initialized to host memory: malloc/new, a host array, `&host_variable`.
bool host_pointer(const Analysis& a, const Variable* v) {
  if (!v || !v->pointer || v->space != MemorySpace::none) return false;
  for (std::size_t k = v->init_begin; k < v->init_end; ++k) {
    const std::string_view t = a.m.text(k);
    if (in_list(t, {"malloc", "calloc", "realloc", "new", "aligned_alloc"})) return true;
    if (!a.m.identifier(k) || a.after_member_access(k)) continue;
    const Variable* target = a.variable_at(t, k);
    if (!host_memory_variable(a, target) || target == v) continue;
    if (target->array || (k > 0 && a.m.is(k - 1, "&") && a.unary(k - 1))) return true;
  }
  return false;
}

bool pinned_for_device(const Analysis& a, int unit, std::string_view name) {
  for (const Call& call : a.calls)
    if (call.unit == unit && call.name == "cudaHostRegister" && a.m.text(call.open + 1) == name) return true;
  return false;
}

} // namespace

void check_host_derefs_of_device_pointers(const Scan& s) {
  for (std::size_t u = 0; u < s.m.units.size(); ++u) {
    const Unit& unit = s.m.units[u];
    if (!unit.has_body || !host_side(unit.space)) continue;
    auto device_pointers = allocated_pointers(s.a, static_cast<int>(u),
                                              {"cudaMalloc", "cudaMallocAsync", "cudaMallocPitch",
                                               "cudaMallocFromPoolAsync", "cudaGetSymbolAddress"});
    for (std::size_t k = unit.body_begin; k < unit.body_end && !device_pointers.empty(); ++k) {
      if (!s.a.host_pass(k) || s.m.unit_of[k] != static_cast<int>(u) || !s.a.plain_name(k)) continue;
      const auto found = device_pointers.find(s.m.text(k));
      if (found == device_pointers.end() || k <= found->second) continue;
      if (s.m.is(k + 1, "=") && !(k > 0 && s.m.is(k - 1, "*"))) {
        device_pointers.erase(found);  // it points somewhere else now
        continue;
      }
      if (dereferenced(s.a, k) && !s.a.unevaluated(k)) s.hit("U-PTR-DEREF-CROSS", k);
    }
  }
}

void check_host_pointers_to_kernels(const Scan& s) {
  for (const Launch& launch : s.a.launches) {
    if (!s.a.host_pass(launch.chevrons)) continue;
    for (const auto& [first, last] : launch.args) {
      bool address = false;
      const auto name = s.a.lone_name(first, last, &address);
      if (!name) continue;
      const Variable* v = s.a.variable_at(s.m.text(*name), *name);
      if (!host_memory_variable(s.a, v)) continue;
      const bool host_memory = address || v->array ||
                               (host_pointer(s.a, v) && !pinned_for_device(s.a, launch.unit, v->name));
      if (host_memory) s.hit("U-PTR-DEREF-CROSS", first);
    }
  }
}

void check_device_derefs_of_host_memory(const Scan& s) {
  for (std::size_t k = 0; k < s.m.size(); ++k) {
    if (!s.a.device_pass(k) || !s.a.plain_name(k)) continue;
    const Variable* v = s.a.variable_at(s.m.text(k), k);
    if (!v || v->space != MemorySpace::none) continue;
    const int unit = s.m.unit_of[k];
    if (s.a.is_global(v)) {
      // A host array or pointer at namespace scope (constexpr values may be used on the device).
      if ((v->array || v->pointer) && !v->is_constexpr && (dereferenced(s.a, k) || v->array) && !s.a.unevaluated(k))
        s.hit("U-PTR-DEREF-CROSS", k);
    } else if (v->unit >= 0 && v->unit != unit && host_side(s.m.units[v->unit].space) &&
               !device_side(s.m.units[v->unit].space) && host_pointer(s.a, v) && dereferenced(s.a, k)) {
      s.hit("U-PTR-DEREF-CROSS", k);  // a host pointer captured by an extended lambda
    }
  }
}

// ============================================================================================
// U-FNPTR-KERNEL-CROSS: a kernel's address taken on one side is not used on the other: the
// host does not pass one to a kernel or copy it to the device, device code does not store one
// where the host reads it.
// ============================================================================================

namespace {

/// Whether the identifier at k names a __global__ function used as a value (not launched).
bool kernel_value(const Analysis& a, std::size_t k) {
  const Model& m = a.m;
  if (!m.identifier(k) || a.after_member_access(k) || m.is(k + 1, "<<<") || m.is(k + 1, "(")) return false;
  if (m.is(k + 1, "<")) return false;  // `k<T><<<...>>>` or a comparison
  const auto found = m.units_by_name.find(std::string(m.text(k)));
  if (found == m.units_by_name.end()) return false;
  const std::string ns = a.context_ns(k);
  return std::any_of(found->second.begin(), found->second.end(), [&](int id) {
    return m.units[id].space == Space::global && Analysis::visible(m.units[id].ns, ns);
  });
}

bool inside_launch_arguments(const Analysis& a, std::size_t k) {
  return std::any_of(a.launches.begin(), a.launches.end(), [&](const Launch& l) { return l.open < k && k < l.close; });
}

bool copies_to_device(std::string_view name) {
  return name.starts_with("cudaMemcpy") || name.starts_with("cudaMemset");
}

} // namespace

void check_kernel_pointers_on_host(const Scan& s) {
  std::set<const Variable*> tainted;  // host locals holding a kernel's host-side address
  for (const Unit& u : s.m.units)
    for (const Variable& v : u.locals)
      for (std::size_t k = v.init_begin; k < v.init_end; ++k)
        if (host_side(u.space) && kernel_value(s.a, k)) tainted.insert(&v);
  for (std::size_t k = 0; k < s.m.size(); ++k) {
    if (!s.a.host_pass(k) || !s.m.identifier(k)) continue;
    const bool crosses = inside_launch_arguments(s.a, k) || s.a.inside_call(k, copies_to_device);
    if (!crosses) continue;
    const Variable* v = s.a.plain_name(k) ? s.a.variable_at(s.m.text(k), k) : nullptr;
    if (kernel_value(s.a, k) || (v && tainted.count(v))) s.hit("U-FNPTR-KERNEL-CROSS", k);
  }
}

void check_kernel_pointers_on_device(const Scan& s) {
  std::set<const Variable*> device_held;  // device variables initialized with a kernel's address
  for (const Variable& g : s.m.globals)
    for (std::size_t k = g.init_begin; k < g.init_end; ++k) {
      if (!kernel_value(s.a, k)) continue;
      if (g.space == MemorySpace::managed) s.hit("U-FNPTR-KERNEL-CROSS", k);
      if (device_address_space(g.space)) device_held.insert(&g);
    }
  for (std::size_t k = 0; k < s.m.size(); ++k) {
    if (s.a.host_pass(k) && s.m.identifier(k) && symbol_argument(s.a, k)) {
      const Variable* v = s.a.variable_at(s.m.text(k), k);
      if (v && device_held.count(v) &&
          s.a.inside_call(k, [](std::string_view n) { return n.find("FromSymbol") != n.npos; }))
        s.hit("U-FNPTR-KERNEL-CROSS", k);
    }
    if (!s.a.device_pass(k) || !kernel_value(s.a, k)) continue;
    // Stored through a pointer or into a managed variable: where the host can read it.
    const auto [a, b] = s.a.statement_around(k);
    std::size_t equals = npos;
    for (std::size_t j = a; j < k; j = (s.m.is(j, "(") || s.m.is(j, "[")) ? s.m.after(j) : j + 1)
      if (s.m.is(j, "=")) equals = j;
    if (equals == npos) continue;
    bool escapes = s.m.is(a, "*");
    for (std::size_t j = a; j < equals; ++j)
      escapes = escapes || s.m.is(j, "[") || s.m.is(j, "->") || names_managed(s.a, j);
    if (escapes) s.hit("U-FNPTR-KERNEL-CROSS", k);
  }
}

// ============================================================================================
// U-VIRT-CROSS-SPACE: an object with virtual functions is used only on the side that created
// it: none goes to a kernel by value, none is built by the host in managed memory, none is
// copied between host and device with cudaMemcpy.
// ============================================================================================

namespace {

bool polymorphic_variable(const Analysis& a, const ClassTraits& traits, const Variable* v, bool allow_pointer) {
  if (!v || v->reference || (v->pointer && !allow_pointer)) return false;
  const int cls = class_index(a, v->type, v->unit >= 0 ? a.m.units[v->unit].ns : v->ns);
  return cls >= 0 && traits.polymorphic[cls];
}

/// `new (p) T` on the host with p in managed memory: the object's vtable pointer is the host's.
void check_virtual_objects_in_managed_memory(const Scan& s, const ClassTraits& traits) {
  for (std::size_t u = 0; u < s.m.units.size(); ++u) {
    const Unit& unit = s.m.units[u];
    if (!unit.has_body || !host_side(unit.space)) continue;
    const auto managed = allocated_pointers(s.a, static_cast<int>(u), {"cudaMallocManaged"});
    for (std::size_t k = unit.body_begin; k < unit.body_end; ++k) {
      if (!s.m.is(k, "new") || !s.m.is(k + 1, "(") || !s.a.host_pass(k)) continue;
      const std::size_t close = std::min(unit.body_end, s.m.partner(k + 1));
      bool in_managed = false;
      for (std::size_t j = k + 2; j < close; ++j)
        in_managed = in_managed || (s.m.identifier(j) && (managed.count(s.m.text(j)) || names_managed(s.a, j)));
      std::string type;
      for (std::size_t j = close + 1; j < unit.body_end && (s.m.identifier(j) || s.m.is(j, "::")); ++j)
        if (s.m.identifier(j) && !is_specifier_word(s.m.text(j))) type = s.m.text(j);
      const int cls = class_index(s.a, type, unit.ns);
      if (in_managed && cls >= 0 && traits.polymorphic[cls]) s.hit("U-VIRT-CROSS-SPACE", k);
    }
  }
}

} // namespace

void check_virtual_objects(const Scan& s, const ClassTraits& traits) {
  for (const Unit& u : s.m.units)
    if (u.space == Space::global)
      for (const Variable& p : u.params)
        if (polymorphic_variable(s.a, traits, &p, false))
          s.hit("U-VIRT-CROSS-SPACE", p.name_token != npos ? p.name_token : p.head);
  for (const Launch& launch : s.a.launches)
    for (const auto& [first, last] : launch.args) {
      bool address = false;
      const auto name = s.a.lone_name(first, last, &address);
      const Variable* v = name ? s.a.variable_at(s.m.text(*name), *name) : nullptr;
      const bool host_object = host_memory_variable(s.a, v) && polymorphic_variable(s.a, traits, v, false);
      const bool host_built = v && v->pointer && polymorphic_variable(s.a, traits, v, true) && host_pointer(s.a, v);
      if (s.a.host_pass(launch.chevrons) && (host_object || host_built)) s.hit("U-VIRT-CROSS-SPACE", first);
    }
  for (const Call& call : s.a.calls) {
    if (!call.name.starts_with("cudaMemcpy") || !s.a.host_pass(call.token)) continue;
    for (const auto& [first, last] : s.a.arguments(call.open)) {
      const auto name = s.a.lone_name(first, last);
      const Variable* v = name ? s.a.variable_at(s.m.text(*name), *name) : nullptr;
      if (host_memory_variable(s.a, v) && polymorphic_variable(s.a, traits, v, false))
        s.hit("U-VIRT-CROSS-SPACE", first);
    }
  }
  check_virtual_objects_in_managed_memory(s, traits);
}

} // namespace cudiff::ubscan::detail
