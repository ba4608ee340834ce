// ubscan parts: what the checks share (internal to ubscan/; the entry points scan_undefined and
// undefined_rules_scanned are in scan.cpp): the model (model.h), the queries and findings every
// check uses, and the checks themselves.
#pragma once

#include "ubscan/model.h"

#include <algorithm>
#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cudiff::ubscan::detail {

// ============================================================================================
// Queries the checks share: passes, lookups, calls, launches, constants, type sizes.
// (analysis.cpp; constants and type sizes: constants.cpp)
// ============================================================================================

/// A call `name(...)`, `a.name(...)`, `q::name(...)` or `name<...>(...)`.
struct Call {
  std::size_t token = 0;
  std::size_t open = 0, close = 0;  ///< the argument list's parentheses
  std::string_view name;
  std::string qualifier;  ///< the name before `::`, "" when unqualified
  bool member = false;    ///< after `.` or `->`
  int unit = -1;
};

/// A kernel launch `k<<<config>>>(args)` or `k<T><<<...>>>(...)`.
struct Launch {
  std::size_t name_token = 0;
  std::size_t chevrons = 0;  ///< the `<<<` token
  std::size_t open = 0, close = 0;
  std::vector<std::pair<std::size_t, std::size_t>> args;  ///< each argument's tokens [first, last)
  int unit = -1;
};

std::optional<std::pair<int, int>> size_and_alignment(std::string_view type);
bool is_symbol_api(std::string_view name);

class Analysis {
public:
  explicit Analysis(const Model& model);

  const Model& m;
  std::vector<Call> calls;
  std::vector<Launch> launches;

  const Unit* unit_at(std::size_t k) const {
    const int u = k < m.unit_of.size() ? m.unit_of[k] : -1;
    return u >= 0 ? &m.units[u] : nullptr;
  }
  /// Whether the device compilation sees token k inside a function or lambda body.
  bool device_pass(std::size_t k) const {
    const Unit* u = unit_at(k);
    return u && device_side(u->space) && m.tokens[k].branch != ArchBranch::host_only;
  }
  bool host_pass(std::size_t k) const {
    const Unit* u = unit_at(k);
    return u && host_side(u->space) && m.tokens[k].branch != ArchBranch::device_only;
  }
  bool is_global(const Variable* v) const {
    return v && !m.globals.empty() && v >= m.globals.data() && v < m.globals.data() + m.globals.size();
  }
  bool after_member_access(std::size_t k) const { return k > 0 && (m.is(k - 1, ".") || m.is(k - 1, "->")); }
  bool qualified(std::size_t k) const { return k > 0 && m.is(k - 1, "::"); }
  /// A plain use of the name at k: not `x.k`, `x->k` or `q::k`.
  bool plain_name(std::size_t k) const { return m.identifier(k) && !after_member_access(k) && !qualified(k); }
  /// The '*' or '&' at k is a unary operator.
  bool unary(std::size_t k) const { return k == 0 || !ends_operand(m, k - 1); }

  static bool visible(const std::string& declared_ns, const std::string& context_ns) {
    return declared_ns.empty() || declared_ns == context_ns || context_ns.starts_with(declared_ns + "::");
  }

  const Variable* variable_at(std::string_view name, std::size_t k) const;
  std::string context_ns(std::size_t k) const;
  const Variable* global(std::string_view name, const std::string& ns) const;
  const ClassInfo* class_named(std::string_view name, const std::string& ns) const;
  const Variable* data_member(const std::string& cls, const std::string& ns, std::string_view name,
                              int depth = 0) const;
  std::vector<int> callees(const Call& call) const;
  bool encloses(int outer, int inner) const;
  std::vector<std::size_t> enclosing_parens(std::size_t k) const;
  bool unevaluated(std::size_t k) const;

  /// Whether any call around token k (innermost first) is named by `pick`.
  template <typename Pick>
  bool inside_call(std::size_t k, Pick pick) const {
    for (std::size_t open : enclosing_parens(k))
      if (open > 0 && m.identifier(open - 1) && pick(m.text(open - 1))) return true;
    return false;
  }

  std::pair<std::size_t, std::size_t> statement_around(std::size_t k) const;
  std::vector<std::pair<std::size_t, std::size_t>> arguments(std::size_t open) const;
  std::optional<std::size_t> lone_name(std::size_t a, std::size_t b, bool* address = nullptr) const;
  std::string namespace_at(std::size_t k) const;
  std::optional<long long> constant(std::size_t a, std::size_t b) const;  // constants.cpp
  std::string_view cast_around(std::size_t k) const;

private:
  void find_calls();
  std::size_t template_arguments_end(std::size_t i) const;
  void find_launches();
};

// ============================================================================================
// Findings
// ============================================================================================

class Findings {
public:
  explicit Findings(std::string_view source) : source_(source) {
    line_starts_.push_back(0);
    for (std::size_t i = 0; i < source.size(); ++i)
      if (source[i] == '\n') line_starts_.push_back(i + 1);
  }

  void add(std::string_view rule, int line) {
    if (line < 1 || !seen_.insert({std::string(rule), line}).second) return;
    out_.push_back(UndefinedUse{std::string(rule), line, excerpt(line)});
  }

  std::vector<UndefinedUse> take() {
    std::sort(out_.begin(), out_.end(), [](const UndefinedUse& a, const UndefinedUse& b) {
      return a.line != b.line ? a.line < b.line : a.rule_id < b.rule_id;
    });
    return std::move(out_);
  }

private:
  std::string excerpt(int line) const {
    if (static_cast<std::size_t>(line) > line_starts_.size()) return {};
    const std::size_t begin = line_starts_[line - 1];
    const std::size_t end = source_.find('\n', begin);
    return std::string(
        trim(source_.substr(begin, end == std::string_view::npos ? std::string_view::npos : end - begin)));
  }

  std::string_view source_;
  std::vector<std::size_t> line_starts_;
  std::set<std::pair<std::string, int>> seen_;
  std::vector<UndefinedUse> out_;
};

/// What every check gets: the program and where to report.
struct Scan {
  const Analysis& a;
  const Model& m;
  Findings& findings;
  void hit(std::string_view rule, std::size_t token) const {
    if (token < m.size()) findings.add(rule, m.tokens[token].line);
  }
};

// ============================================================================================
// Helpers more than one family of checks uses
// ============================================================================================

// kernel_parameters.cpp
/// Per class (by index): copying runs a user-provided copy constructor, destroying runs a
/// user-provided destructor, it has virtual functions; each also through bases and by-value
/// members (their implicit special members call the user's).
struct ClassTraits {
  std::vector<bool> user_copy, user_destructor, polymorphic;
};

int class_index(const Analysis& a, std::string_view name, const std::string& ns);
ClassTraits class_traits(const Analysis& a);
int value_class(const Analysis& a, const Variable& v);
bool written(const Model& m, std::size_t k);

// managed.cpp
bool names_managed(const Analysis& a, std::size_t k);
std::map<std::string, std::size_t, std::less<>> allocated_pointers(const Analysis& a, int unit,
                                                                   std::initializer_list<std::string_view> allocators);
bool dereferenced(const Analysis& a, std::size_t k);

// cross_space.cpp
bool device_only_intrinsic(std::string_view name);

// ============================================================================================
// The checks (scan_undefined runs them all)
// ============================================================================================

// barriers.cpp: U-SYNC-DIVERGENT, U-SYNCWARP-MASK
void check_barriers(const Scan& s);
// kernel_parameters.cpp: U-GRIDCONST-MODIFY, U-KPARAM-*
void check_grid_constant(const Scan& s);
void check_kernel_parameters(const Scan& s, const ClassTraits& traits);
// managed.cpp: U-MANAGED-RUNTIME-STATE, U-MANAGED-COHERENCE
void check_static_lifetimes(const Scan& s);
void check_exit_handlers(const Scan& s);
void check_managed_coherence(const Scan& s);
// pointers.cpp: U-PTR-DEVADDR-IN-HOST, U-PTR-DEREF-CROSS, U-FNPTR-KERNEL-CROSS,
// U-VIRT-CROSS-SPACE
void check_device_addresses(const Scan& s);
void check_host_derefs_of_device_pointers(const Scan& s);
void check_host_pointers_to_kernels(const Scan& s);
void check_device_derefs_of_host_memory(const Scan& s);
void check_kernel_pointers_on_host(const Scan& s);
void check_kernel_pointers_on_device(const Scan& s);
void check_virtual_objects(const Scan& s, const ClassTraits& traits);
// cross_space.cpp: U-XSPACE-HOST-FROM-DEV, U-XSPACE-DEV-FROM-HOST
void check_cross_space_calls(const Scan& s);
// shared_alignment.cpp: U-SHARED-MISALIGNED
void check_shared_alignment(const Scan& s);
// lambdas.cpp: U-THISCAP-HOSTPTR, U-EXTLAM-12-CAPTURE-COPY, R-EXTLAM-17-TRAITS,
// U-EXTLAM-DIAG-COVERAGE, U-NVFUNC-NO-TRANSFER
void check_this_capture(const Scan& s);
void check_capture_copies(const Scan& s, const ClassTraits& traits);
void check_closure_traits(const Scan& s);
void check_lambda_rules_without_diagnostics(const Scan& s);
void check_nvstd_functions(const Scan& s);
// other_rules.cpp: U-GNU-CONST-PURE-CONTRACT, U-ARCH-NODIAG, U-CXX11-GC,
// U-CXX11-CONCURRENCY, U-CXX14-ALLOC, U-FLOAT128-CONSTEXPR, U-MEM-OPT-CACHING
void check_const_pure(const Scan& s);
void check_arch_dependent_declarations(const Scan& s);
void check_device_library_support(const Scan& s);
void check_float128_constants(const Scan& s);
void check_spin_waits(const Scan& s);

} // namespace cudiff::ubscan::detail
