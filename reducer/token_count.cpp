// reducer: count_tokens, the size in C tokens that bench/ measures reductions by (over common's
// tokens, common/cpp_lexer.h).
#include "reducer/reducer.h"

namespace cudiff::reducer {

std::size_t count_tokens(std::string_view text) {
  std::size_t count = 0;
  for (const Token& token : tokenize(text)) {
    if (token.kind == TokenKind::comment) continue;
    if (token.kind != TokenKind::directive) {
      ++count;
      continue;
    }
    // "#include <x>": '#' and then the tokens of the line, continuations joined.
    std::string line(token.text(text).substr(1));
    for (std::size_t at = line.find("\\\n"); at != std::string::npos; at = line.find("\\\n", at))
      line.replace(at, 2, "  ");
    // The rest of the line continues it: a '#' there is punctuation, not a directive. (Counting
    // it with count_tokens again recursed once per leading '#', copying the line each time:
    // "####..." took memory quadratic in its length.)
    ++count;
    for (const Token& inner : tokenize(line, cpp::LexOptions{.at_line_start = false}))
      if (inner.kind != TokenKind::comment) ++count;
  }
  return count;
}

} // namespace cudiff::reducer
