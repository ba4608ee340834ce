// reducer: the pre-check that spares a test — a candidate that took away the last declaration
// of a name it still uses is a compile error, whatever the bug; the statement passes make many
// (a variable's declaration cut from the statements that read it).
#include "reducer/passes.h"

namespace cudiff::reducer {

std::set<std::string, std::less<>> declared_names(std::string_view text) {
  const std::vector<Token> tokens = tokenize(text);
  std::set<std::string, std::less<>> names;
  const std::size_t depths = max_depth(text, tokens);
  for (std::size_t depth = 0; depth <= depths; ++depth)
    for (const Statement& statement : statements_at(text, tokens, depth))
      if (auto name = declared_name(text, tokens, statement)) names.insert(std::move(*name));
  // Parameters too, read loosely: a name after a type-like token and before `,` or `)`. More
  // names than there are only makes the check say less (a parameter `t` of one function must
  // not make the last declaration of another function's local `t` look still used).
  // So is a name before `(` after a type-like token or a `)`: a function declarator that
  // declared_name reads past (`__global__ void __launch_bounds__(64) k(...)` declares k).
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].kind != TokenKind::identifier || is_keyword(spelling(text, tokens[i]))) continue;
    const auto after = next_code(tokens, i);
    const auto before = previous_code(tokens, i);
    if (!after || !before) continue;
    const std::string_view next = spelling(text, tokens[*after]);
    const std::string_view type = spelling(text, tokens[*before]);
    const bool type_like = (tokens[*before].kind == TokenKind::identifier &&
                            !one_of(type, {"return", "case", "else", "do", "throw", "goto", "co_return", "co_yield",
                                           "co_await"})) ||
                           one_of(type, {"*", "&", "&&", ">"});
    if ((one_of(next, {",", ")"}) && type_like) || (next == "(" && (type_like || type == ")")))
      names.emplace(spelling(text, tokens[i]));
  }
  return names;
}

bool uses_a_lost_declaration(const std::set<std::string, std::less<>>& declared, std::string_view candidate) {
  const std::set<std::string, std::less<>> still = declared_names(candidate);
  const std::vector<Token> tokens = tokenize(candidate);
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].kind != TokenKind::identifier || is_keyword(spelling(candidate, tokens[i]))) continue;
    // A member after `.` or `->` is another scope's name (`threadIdx.x` is no parameter `x`).
    if (const auto before = previous_code(tokens, i);
        before && one_of(spelling(candidate, tokens[*before]), {".", "->"}))
      continue;
    const std::string_view name = spelling(candidate, tokens[i]);
    if (!still.contains(name) && declared.contains(name)) return true;
  }
  return false;
}

} // namespace cudiff::reducer
