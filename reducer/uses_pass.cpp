// reducer: the `uses` pass's units — a top-level declaration together with the simple
// statements that use it (passes.h says why the other passes cannot remove such a pair).
#include "reducer/passes.h"

#include <limits>

namespace cudiff::reducer {
namespace {

constexpr std::size_t none = std::numeric_limits<std::size_t>::max();

/// A statement that ends at its own `;` and has no braces: `f(x);`, `int v = g(w);`. The
/// elements of a braced initializer, which also sit one brace deeper, are no statement:
/// cutting `sizeof(T), alignof(T)` out of `{...}` leaves an empty array, not a smaller program.
bool is_simple(std::string_view text, const std::vector<Token>& tokens, const Statement& statement) {
  if (tokens[statement.last].text(text) != ";") return false;
  for (std::size_t i = statement.first; i <= statement.last; ++i) {
    const std::string_view token = tokens[i].text(text);
    if (token == "{" || token == "}") return false;
  }
  return true;
}

} // namespace

std::vector<std::vector<Range>> declarations_with_uses(std::string_view text, std::size_t) {
  const std::vector<Token> tokens = tokenize(text);
  // The simple statement inside a body that holds each token, if any. Simple statements
  // have no braces, so they never nest in one another.
  std::vector<Statement> simple;
  std::vector<std::size_t> simple_of(tokens.size(), none);
  const std::size_t depths = max_depth(text, tokens);
  for (std::size_t depth = 1; depth <= depths; ++depth)
    for (const Statement& statement : statements_at(text, tokens, depth)) {
      if (!is_simple(text, tokens, statement)) continue;
      for (std::size_t i = statement.first; i <= statement.last; ++i) simple_of[i] = simple.size();
      simple.push_back(statement);
    }

  std::vector<std::vector<Range>> groups;
  for (const Statement& declaration : statements_at(text, tokens, 0)) {
    const std::optional<std::string> name = declared_name(text, tokens, declaration);
    if (!name) continue;
    std::vector<Range> group{range_of(tokens, declaration.first, declaration.last)};
    std::size_t last_use = none;
    bool removable = true;
    for (std::size_t i = 0; i < tokens.size() && removable; ++i) {
      if (i >= declaration.first && i <= declaration.last) continue;
      if (tokens[i].kind != TokenKind::identifier || tokens[i].text(text) != *name) continue;
      if (simple_of[i] == none) {
        removable = false;  // used in a declaration, a condition or a directive: not ours to cut
      } else if (simple_of[i] != last_use) {
        last_use = simple_of[i];
        group.push_back(range_of(tokens, simple[last_use].first, simple[last_use].last));
      }
    }
    // An unused declaration is the `unused` pass's; one used elsewhere cannot go with its uses.
    if (removable && group.size() > 1) groups.push_back(std::move(group));
  }
  return groups;
}

} // namespace cudiff::reducer
