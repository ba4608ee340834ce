// ubscan model: the program as the scanner sees it (internal to ubscan/): preprocessed tokens,
// namespaces, classes, functions and lambdas (units), variables, and the parser that fills it.
#pragma once

#include "common/common.h"
#include "common/cpp_lexer.h"
#include "ubscan/ubscan.h"

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

namespace cudiff::ubscan::detail {

constexpr std::size_t npos = static_cast<std::size_t>(-1);

// ============================================================================================
// Tokens: common's (common/cpp_lexer.h) as the preprocessor reads them, comments and
// directives dropped, #if branches on __CUDA_ARCH__ remembered. (preprocess.cpp)
// ============================================================================================

/// Never directive or comment here: preprocess.cpp drops those.
using cpp::TokenKind;

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

/// Lexes and preprocesses a source text: the tokens each pass sees and the macros it defines.
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
  bool array = false, pointer = false, reference = false, is_extern = false, is_const = false, is_constexpr = false,
       is_static = false, is_volatile = false, grid_constant = false;
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

// ---- word lists (parser.cpp) ---------------------------------------------------

inline bool in_list(std::string_view word, std::initializer_list<std::string_view> list) {
  return std::find(list.begin(), list.end(), word) != list.end();
}

bool is_builtin_type_word(std::string_view w);
bool is_specifier_word(std::string_view w);
bool is_non_call_word(std::string_view w);
bool is_attribute_word(std::string_view w);
bool is_assignment(std::string_view t);
bool ends_operand(const Model& m, std::size_t i);

// ---- the parser (parser.cpp, declarators.cpp,
// bodies.cpp) -------------------------------------------------------------------

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

  // parser.cpp: brackets, namespaces, templates, aliases, classes
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

  // declarators.cpp: functions and variables
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

  // bodies.cpp: lambdas, locals, the name index
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

} // namespace cudiff::ubscan::detail
