// reducer: statement simplifications that no contiguous removal reaches (clang_delta's
// simplify-if and remove-unused-var in spirit, on tokens): a control statement replaced by its
// body, and a variable declaration replaced by its initializer.
#include "reducer/passes.h"

namespace cudiff::reducer {
namespace {

struct Code {
  std::string_view text;
  const std::vector<Token>& tokens;
  std::vector<std::size_t> index;  ///< token indices without comments
  std::string_view word(std::size_t k) const { return k < index.size() ? tokens[index[k]].text(text) : ""; }
};

/// The code position of the bracket closing the one at `k`, or none.
std::optional<std::size_t> closing(const Code& code, std::size_t k) {
  const std::string_view open = code.word(k);
  const std::string_view close = open == "(" ? ")" : open == "{" ? "}" : "]";
  int depth = 0;
  for (std::size_t j = k; j < code.index.size(); ++j) {
    if (code.word(j) == open) ++depth;
    if (code.word(j) == close && --depth == 0) return j;
  }
  return std::nullopt;
}

/// The last code position of the statement that starts at `k`: a block, or up to its `;`.
std::optional<std::size_t> statement_end(const Code& code, std::size_t k) {
  if (code.word(k) == "{") return closing(code, k);
  int depth = 0;
  for (std::size_t j = k; j < code.index.size(); ++j) {
    const std::string_view w = code.word(j);
    if (w == "(" || w == "[" || w == "{") ++depth;
    if (w == ")" || w == "]" || w == "}") {
      if (depth == 0) return std::nullopt;
      --depth;
    }
    if (w == ";" && depth == 0) return j;
  }
  return std::nullopt;
}

Range bytes(const Code& code, std::size_t first, std::size_t last) {
  return {code.tokens[code.index[first]].begin, code.tokens[code.index[last]].end};
}

/// `if (c) A else B` -> `A` and -> `B`; `for (...) A`, `while (c) A` -> `A`.
void control_edits(const Code& code, std::size_t k, std::vector<Edit>& edits) {
  const std::string_view keyword = code.word(k);
  if ((keyword != "if" && keyword != "for" && keyword != "while") || code.word(k + 1) != "(") return;
  const auto header_end = closing(code, k + 1);
  if (!header_end) return;
  const auto body_end = statement_end(code, *header_end + 1);
  if (!body_end) return;
  const Range header = bytes(code, k, *header_end);
  if (keyword == "if" && code.word(*body_end + 1) == "else") {
    const auto else_end = statement_end(code, *body_end + 2);
    if (!else_end) return;
    edits.push_back(removal({header, bytes(code, *body_end + 1, *else_end)}));  // keep the then-branch
    edits.push_back(removal({bytes(code, k, *body_end + 1)}));                  // keep the else-branch
    return;
  }
  edits.push_back(removal({header}));
}

/// `T x = e;` -> `e;`: the value without the variable.
void declaration_edits(const Code& code, std::size_t first, std::size_t last, std::vector<Edit>& edits) {
  for (std::size_t k = first; k + 1 <= last; ++k) {
    const std::string_view w = code.word(k);
    if (w == "(" || w == "{" || w == ";" || w == "[") return;
    if (w != "=") continue;
    if (k == first || code.tokens[code.index[k - 1]].kind != TokenKind::identifier || k - 1 == first) return;
    edits.push_back(removal({bytes(code, first, k)}));
    return;
  }
}

} // namespace

std::vector<Edit> simplify_edits(std::string_view text) {
  const std::vector<Token> tokens = tokenize(text);
  Code code{text, tokens, {}};
  std::vector<std::size_t> position(tokens.size(), 0);  // token index -> code position
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].kind == TokenKind::comment) continue;
    position[i] = code.index.size();
    code.index.push_back(i);
  }
  std::vector<Edit> edits;
  const std::size_t depths = max_depth(text, tokens);
  for (std::size_t depth = 1; depth <= depths; ++depth)
    for (const Statement& statement : statements_at(text, tokens, depth)) {
      if (tokens[statement.first].kind == TokenKind::directive) continue;
      const std::size_t first = position[statement.first], last = position[statement.last];
      control_edits(code, first, edits);
      if (declared_name(text, tokens, statement)) declaration_edits(code, first, last, edits);
    }
  return edits;
}

} // namespace cudiff::reducer
