// cpp_lexer: the one C++/CUDA tokenizer of cudiff, for the stages that read program text (the
// reducer cuts text at its tokens, ubscan parses them).
//
// Contract: never throws and never rejects input (a reducer and a scanner see broken programs
// all the time): unterminated comments and literals end at the end of the text or line, unknown
// bytes are one-byte punctuation. No globals.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace cudiff::cpp {

enum class TokenKind : std::uint8_t { identifier, number, string, character, punctuation, directive, comment };

/// One token: the bytes [begin, end) of the text. Whitespace is not a token; a preprocessor
/// directive (with its continuation lines) is one token; comments are tokens of their own.
struct Token {
  TokenKind kind = TokenKind::punctuation;
  std::size_t begin = 0;
  std::size_t end = 0;
  int line = 1;  ///< 1-based line of the token's first byte
  std::string_view text(std::string_view source) const { return source.substr(begin, end - begin); }
};

struct LexOptions {
  /// False for text that continues a line, where '#' starts no directive.
  bool at_line_start = true;
  /// Read directives as the preprocessor does (ubscan, which models #if and #define): a
  /// directive runs to the end of its logical line, across a block comment that spans lines and
  /// a `\` before CRLF; a comment before '#' leaves it a directive; `.*` and `##` are single
  /// tokens. Off, a directive ends at the first newline not after a `\`, any token before '#'
  /// makes it punctuation, and `.*` and `##` are two tokens each: the reading the reducer's
  /// size measure uses, which bench/count_tokens.py mirrors.
  bool preprocessor = false;
};

/// C++/CUDA tokens of `text`, in order, each non-empty and inside the text. `<<<` and `>>>`
/// (kernel launches) are single tokens.
std::vector<Token> tokenize(std::string_view text, const LexOptions& options = {});

} // namespace cudiff::cpp
