// reducer (internal): the pieces of a text the passes cut — lines, statements by nesting
// depth, balanced pairs, list elements, declared names — and the edits that cut them.
#pragma once

#include "reducer/reducer.h"

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cudiff::reducer {

/// Bytes [begin, end) of a text.
struct Range {
  std::size_t begin = 0;
  std::size_t end = 0;
  bool operator==(const Range&) const = default;
};

/// Replace bytes [begin, end) by `text`.
struct Replacement {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::string text;
};

/// A token's text.
inline std::string_view spelling(std::string_view text, const Token& token) { return token.text(text); }
/// Whether `word` is one of `words`.
inline bool one_of(std::string_view word, std::initializer_list<std::string_view> words) {
  for (std::string_view candidate : words)
    if (candidate == word) return true;
  return false;
}
/// The index of the first non-comment token after (before) `i`, if any.
inline std::optional<std::size_t> next_code(const std::vector<Token>& tokens, std::size_t i) {
  for (++i; i < tokens.size(); ++i)
    if (tokens[i].kind != TokenKind::comment) return i;
  return std::nullopt;
}
inline std::optional<std::size_t> previous_code(const std::vector<Token>& tokens, std::size_t i) {
  while (i > 0)
    if (tokens[--i].kind != TokenKind::comment) return i;
  return std::nullopt;
}

/// The text with every replacement applied (an overlapping one is skipped).
std::string replace(std::string_view text, std::vector<Replacement> replacements);

/// The text without the ranges. A range that is alone on its line(s) takes the line with it,
/// so removed statements leave no blank lines behind; ranges may overlap; a removal that
/// would glue two tokens together ("a b" -> "ab") leaves one space.
std::string remove_ranges(std::string_view text, std::vector<Range> ranges);

/// One candidate edit: ranges removed (as remove_ranges does), or else replacements made.
struct Edit {
  std::vector<Range> remove;
  std::vector<Replacement> replacements;
  /// Where the edit belongs, for ordering and resuming (none: where its first range starts).
  /// The last element of a list is removed with the comma before it, yet belongs after it.
  std::optional<std::size_t> anchor;
};
std::string apply(std::string_view text, const Edit& edit);
inline Edit removal(std::vector<Range> ranges, std::optional<std::size_t> anchor = std::nullopt) {
  return Edit{std::move(ranges), {}, anchor};
}
inline Edit replacing(std::vector<Replacement> replacements) { return Edit{{}, std::move(replacements), std::nullopt}; }

/// The non-blank lines, each with its newline.
std::vector<Range> line_units(std::string_view text);

/// The tokens (comments excluded) as ranges.
std::vector<Range> token_units(std::string_view text, const std::vector<Token>& tokens);

/// Statements and declarations whose enclosing brace depth is `depth` (0: top level): each
/// ends at its `;`, or at the `}` of its body (a function, namespace, if/for/while; `else`
/// and `catch` continue it; a class body continues to its `;`). Directives are units of
/// their own. Token indices [first, last].
struct Statement {
  std::size_t first = 0;
  std::size_t last = 0;
};
std::vector<Statement> statements_at(std::string_view text, const std::vector<Token>& tokens, std::size_t depth);
/// The deepest brace nesting of the text.
std::size_t max_depth(std::string_view text, const std::vector<Token>& tokens);

/// A matched pair of brackets, by token index: ( ) [ ] { }, template < > (heuristic: after an
/// identifier or `template`, closed before any ; { }), and kernel launches <<< >>>.
struct Pair {
  std::size_t open = 0;
  std::size_t close = 0;
  char kind = '(';  ///< '(', '[', '{', '<', or 'L' for <<< >>>
};
/// Every pair, ordered by the position of the opening token (outer before inner).
std::vector<Pair> balanced_pairs(std::string_view text, const std::vector<Token>& tokens);

/// The comma-separated elements inside a pair, by token index [first, last]; an empty list
/// for an empty pair. Commas nested in inner pairs do not split.
std::vector<Statement> list_elements(std::string_view text, const std::vector<Token>& tokens, const Pair& pair,
                                     const std::vector<Pair>& pairs);

/// The name a statement declares (a function, variable, type, alias, namespace, macro);
/// none for statements that declare nothing recognizable or that are not declarations.
std::optional<std::string> declared_name(std::string_view text, const std::vector<Token>& tokens,
                                         const Statement& statement);

/// The byte range of a run of tokens [first, last].
inline Range range_of(const std::vector<Token>& tokens, std::size_t first, std::size_t last) {
  return {tokens[first].begin, tokens[last].end};
}

bool is_keyword(std::string_view word);

} // namespace cudiff::reducer
