// undefined_scan_parts: what the files of the undefined-behaviour scan (undefined_scan*.cpp;
// the entry points scan_undefined and undefined_rules_scanned are in undefined_scan.cpp) share:
// tokens, the program's model and its parser, the queries and findings every check uses, and
// the checks themselves. Internal to generator/.
#pragma once

#include "generator/generator.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace cudiff::generator::undefined_scan {

constexpr std::size_t npos = static_cast<std::size_t>(-1);

// ============================================================================================
// Tokens: comments and preprocessor lines dropped, #if branches on __CUDA_ARCH__ remembered.
// (undefined_scan_lexer.cpp)
// ============================================================================================

enum class TokenKind : std::uint8_t { identifier, number, string, character, punctuation };

/// Which compilation pass sees a token, from the #if directives on __CUDA_ARCH__ around it.
enum class ArchBranch : std::uint8_t { both, device_only, host_only };

struct Token {
  TokenKind kind = TokenKind::punctuation;
  std::string_view text;
  int line = 1;
  ArchBranch branch = ArchBranch::both;
  bool arch_conditional = false;  ///< inside an #if that tests __CUDA_ARCH__
};

struct Lexed {
  std::vector<Token> tokens;
  std::set<std::string, std::less<>> function_macros;
  std::map<std::string, std::string, std::less<>> object_macros;
};

/// Lexes a source text: its tokens and the macros it defines.
Lexed lex(std::string_view source);

// ============================================================================================
// The program's structure: namespaces, classes, functions and lambdas (units), variables.
// ============================================================================================

/// Where a function or lambda body runs.
enum class Space : std::uint8_t { host, device, host_device, global };

inline bool device_side(Space space) { return space != Space::host; }
inline bool host_side(Space space) { return space == Space::host || space == Space::host_device; }

enum class MemorySpace : std::uint8_t { none, device, constant, shared, managed };

/// A declared name with its type, as a parameter, local, member or namespace-scope variable.
struct Variable {
  std::string name;
  std::string type;       ///< the type's own name, qualifiers and template arguments dropped: "Foo", "int"
  std::string full_type;  ///< every type token, e.g. "const unsigned long long *"
  std::string ns;
  MemorySpace space = MemorySpace::none;
  bool array = false, pointer = false, reference = false, is_extern = false, is_const = false,
       is_constexpr = false, is_static = false, is_volatile = false, grid_constant = false;
  std::size_t head = 0;        ///< first token of the declaration
  std::size_t name_token = npos;
  std::size_t init_begin = 0, init_end = 0;  ///< the initializer's tokens, empty when none
  int unit = -1;               ///< the function or lambda that declares it; -1 at namespace scope
};

/// A function (with or without a body) or a lambda.
struct Unit {
  std::string name;   ///< "f", "~Foo", "operator()", "operator delete"; a lambda: the variable it initializes
  std::string owner;  ///< the class of a member function
  std::string ns;     ///< enclosing namespaces "a::b", inline ones left out
  Space space = Space::host;
  bool lambda = false, annotated = false, has_body = false, is_template = false, is_constexpr = false,
       is_static = false, is_virtual = false, defaulted = false, deleted = false;
  std::set<std::string, std::less<>> attributes;  ///< GNU attributes: "const", "pure", "constructor"...
  std::vector<std::string> template_params;
  std::vector<Variable> params;
  std::vector<Variable> locals;
  std::size_t head = 0;  ///< first token of the declaration, or a lambda's '['
  std::size_t name_token = 0;
  std::size_t params_open = npos;  ///< the '(' of the parameter list
  std::size_t initializers_begin = 0, initializers_end = 0;  ///< a constructor's `: a(x), b(y)`
  std::size_t body_begin = 0, body_end = 0;  ///< tokens strictly inside the braces
  std::size_t capture_begin = 0, capture_end = 0;  ///< lambdas: strictly inside the brackets
  int parent = -1;  ///< lambdas: the unit they are written in
};

struct ClassInfo {
  std::string name, ns;
  std::vector<std::string> bases;
  std::vector<Variable> data_members;
  std::vector<int> member_functions;  ///< unit ids
  bool has_virtual = false, user_copy = false, user_destructor = false;
  std::size_t head = 0;
};

struct Model {
  std::vector<Token> tokens;
  std::set<std::string, std::less<>> function_macros;
  std::map<std::string, std::string, std::less<>> object_macros;
  std::vector<std::size_t> match;  ///< for each bracket token its partner, npos if none
  std::vector<int> unit_of;        ///< innermost unit whose body holds the token; -1 outside bodies
  std::vector<Unit> units;
  std::vector<ClassInfo> classes;
  std::vector<Variable> globals;   ///< namespace-scope variables
  std::unordered_map<std::string, std::vector<int>> units_by_name, classes_by_name, globals_by_name;
  std::unordered_set<std::string> type_names;      ///< classes, enums, aliases, template parameters
  std::unordered_set<std::string> variable_names;  ///< every variable, parameter and member declared

  std::size_t size() const { return tokens.size(); }
  std::string_view text(std::size_t i) const { return i < tokens.size() ? tokens[i].text : std::string_view(); }
  bool is(std::size_t i, std::string_view t) const { return i < tokens.size() && tokens[i].text == t; }
  bool identifier(std::size_t i) const { return i < tokens.size() && tokens[i].kind == TokenKind::identifier; }
  std::size_t partner(std::size_t i) const { return i < match.size() ? match[i] : npos; }
  /// The token after the bracket group opened at i (i + 1 when unmatched).
  std::size_t after(std::size_t i) const {
    const std::size_t p = partner(i);
    return p == npos ? i + 1 : p + 1;
  }
};

// ---- word lists (undefined_scan_parser.cpp) ---------------------------------------------------

inline bool in_list(std::string_view word, std::initializer_list<std::string_view> list) {
  return std::find(list.begin(), list.end(), word) != list.end();
}

bool is_builtin_type_word(std::string_view w);
bool is_specifier_word(std::string_view w);
bool is_non_call_word(std::string_view w);
bool is_attribute_word(std::string_view w);
bool is_assignment(std::string_view t);
bool ends_operand(const Model& m, std::size_t i);

// ---- the parser (undefined_scan_parser.cpp, undefined_scan_declarators.cpp,
// undefined_scan_bodies.cpp) -------------------------------------------------------------------

/// Fills a Model from its tokens. Everything it does not understand it skips to the next ';' or
/// past the next balanced group, so no input can make it fail.
class Parser {
public:
  explicit Parser(Model& model) : m_(model) {}
  void run();

private:
  struct Scope {
    std::string ns;
    int cls = -1;
  };
  struct TemplateHead {
    bool present = false;
    std::vector<std::string> params;
  };
  /// The name and '(' of a function declarator.
  struct FunctionDeclarator {
    std::size_t name_token = npos;
    std::size_t open = npos;
    std::string name;
  };

  // undefined_scan_parser.cpp: brackets, namespaces, templates, aliases, classes
  void match_brackets();
  std::size_t skip_angles(std::size_t i) const;
  std::size_t statement_end(std::size_t i, std::size_t end) const;
  std::size_t past_statement(std::size_t i, std::size_t end) const;
  void declarations(std::size_t begin, std::size_t end, const Scope& scope);
  std::size_t one_declaration(std::size_t i, std::size_t end, const Scope& scope, TemplateHead& head);
  std::size_t namespace_block(std::size_t i, std::size_t end, const Scope& scope);
  std::size_t template_head(std::size_t i, TemplateHead& head);
  void template_parameter(std::size_t a, std::size_t b, TemplateHead& head);
  std::size_t alias(std::size_t i, std::size_t end);
  std::size_t enum_definition(std::size_t i, std::size_t end);
  std::size_t skip_attributes(std::size_t j, std::size_t end) const;
  std::size_t class_definition(std::size_t i, std::size_t end, const Scope& scope);
  std::size_t base_list(std::size_t j, std::size_t end, std::vector<std::string>& bases) const;
  void local_classes(const Unit& function);
  bool memberwise_copy(const Unit& u) const;
  void finish_class(int index);

  // undefined_scan_declarators.cpp: functions and variables
  FunctionDeclarator function_declarator(std::size_t i, std::size_t end) const;
  FunctionDeclarator operator_declarator(std::size_t j, std::size_t end) const;
  std::size_t declaration(std::size_t i, std::size_t end, const Scope& scope, const TemplateHead& head);
  bool looks_like_constructor_call(const FunctionDeclarator& d) const;
  std::set<std::string, std::less<>> gnu_attributes(std::size_t a, std::size_t b) const;
  static Space space_of(bool global, bool device, bool host);
  std::size_t function_declaration(std::size_t i, std::size_t end, const Scope& scope, const TemplateHead& head,
                                   const FunctionDeclarator& d);
  std::size_t trailing_specifiers(std::size_t k, std::size_t end, Unit& u) const;
  std::size_t member_initializers(std::size_t k, std::size_t end) const;
  std::vector<Variable> parameters(std::size_t open, int unit) const;
  Variable declarator(std::size_t a, std::size_t b, std::size_t specifiers_from) const;
  void describe_type(std::size_t a, std::size_t b, Variable& v) const;
  std::size_t variable_declaration(std::size_t i, std::size_t end, const Scope& scope);
  std::vector<Variable> declarators(std::size_t a, std::size_t b, int unit) const;
  void describe_shared_specifiers(std::size_t a, std::size_t specifiers_end, std::size_t group, Variable& v) const;

  // undefined_scan_bodies.cpp: lambdas, locals, the name index
  bool lambda_introducer(std::size_t k) const;
  std::size_t lambda(std::size_t k, int parent);
  void find_lambdas(std::size_t begin, std::size_t end, int parent);
  void mark_bodies();
  bool statement_start(std::size_t k, const Unit& u) const;
  void collect_locals(int id);
  bool local_declaration_start(std::size_t k) const;
  void index();

  Model& m_;
  std::unordered_set<std::size_t> function_bodies_;  ///< the '{' of every function body
};

// ============================================================================================
// Queries the checks share: passes, lookups, calls, launches, constants, type sizes.
// (undefined_scan_analysis.cpp; constants and type sizes: undefined_scan_constants.cpp)
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
  const Variable* data_member(const std::string& cls, const std::string& ns, std::string_view name, int depth = 0) const;
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
  std::optional<long long> constant(std::size_t a, std::size_t b) const;  // undefined_scan_constants.cpp
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
    return std::string(trim(source_.substr(begin, end == std::string_view::npos ? std::string_view::npos : end - begin)));
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

// undefined_scan_kernel_parameters.cpp
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

// undefined_scan_managed.cpp
bool names_managed(const Analysis& a, std::size_t k);
std::map<std::string, std::size_t, std::less<>> allocated_pointers(const Analysis& a, int unit,
                                                                   std::initializer_list<std::string_view> allocators);
bool dereferenced(const Analysis& a, std::size_t k);

// undefined_scan_cross_space.cpp
bool device_only_intrinsic(std::string_view name);

// ============================================================================================
// The checks (scan_undefined runs them all)
// ============================================================================================

// undefined_scan_barriers.cpp: U-SYNC-DIVERGENT, U-SYNCWARP-MASK
void check_barriers(const Scan& s);
// undefined_scan_kernel_parameters.cpp: U-GRIDCONST-MODIFY, U-KPARAM-*
void check_grid_constant(const Scan& s);
void check_kernel_parameters(const Scan& s, const ClassTraits& traits);
// undefined_scan_managed.cpp: U-MANAGED-RUNTIME-STATE, U-MANAGED-COHERENCE
void check_static_lifetimes(const Scan& s);
void check_exit_handlers(const Scan& s);
void check_managed_coherence(const Scan& s);
// undefined_scan_pointers.cpp: U-PTR-DEVADDR-IN-HOST, U-PTR-DEREF-CROSS, U-FNPTR-KERNEL-CROSS,
// U-VIRT-CROSS-SPACE
void check_device_addresses(const Scan& s);
void check_host_derefs_of_device_pointers(const Scan& s);
void check_host_pointers_to_kernels(const Scan& s);
void check_device_derefs_of_host_memory(const Scan& s);
void check_kernel_pointers_on_host(const Scan& s);
void check_kernel_pointers_on_device(const Scan& s);
void check_virtual_objects(const Scan& s, const ClassTraits& traits);
// undefined_scan_cross_space.cpp: U-XSPACE-HOST-FROM-DEV, U-XSPACE-DEV-FROM-HOST
void check_cross_space_calls(const Scan& s);
// undefined_scan_shared_alignment.cpp: U-SHARED-MISALIGNED
void check_shared_alignment(const Scan& s);
// undefined_scan_lambdas.cpp: U-THISCAP-HOSTPTR, U-EXTLAM-12-CAPTURE-COPY, R-EXTLAM-17-TRAITS,
// U-EXTLAM-DIAG-COVERAGE, U-NVFUNC-NO-TRANSFER
void check_this_capture(const Scan& s);
void check_capture_copies(const Scan& s, const ClassTraits& traits);
void check_closure_traits(const Scan& s);
void check_lambda_rules_without_diagnostics(const Scan& s);
void check_nvstd_functions(const Scan& s);
// undefined_scan_other_rules.cpp: U-GNU-CONST-PURE-CONTRACT, U-ARCH-NODIAG, U-CXX11-GC,
// U-CXX11-CONCURRENCY, U-CXX14-ALLOC, U-FLOAT128-CONSTEXPR, U-MEM-OPT-CACHING
void check_const_pure(const Scan& s);
void check_arch_dependent_declarations(const Scan& s);
void check_device_library_support(const Scan& s);
void check_float128_constants(const Scan& s);
void check_spin_waits(const Scan& s);

} // namespace cudiff::generator::undefined_scan
