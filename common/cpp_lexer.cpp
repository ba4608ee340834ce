// cpp_lexer: the C++/CUDA tokenizer (common/cpp_lexer.h).
#include "common/cpp_lexer.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

namespace cudiff::cpp {
namespace {

bool identifier_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }
bool identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }
bool digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

/// Longest first, so that the first match is the longest one.
constexpr std::array<std::string_view, 27> multi_char_punctuation = {"<<<", ">>>", "<<=", ">>=", "...", "->*", "<=>",
                                                                     "::",  "->",  "++",  "--",  "<<",  ">>",  "<=",
                                                                     ">=",  "==",  "!=",  "&&",  "||",  "+=",  "-=",
                                                                     "*=",  "/=",  "%=",  "&=",  "|=",  "^="};
/// Two more the preprocessor's reading keeps whole (LexOptions::preprocessor); none is a prefix
/// of a three-character one, so trying them after the list above still finds the longest.
constexpr std::array<std::string_view, 2> preprocessor_punctuation = {".*", "##"};

/// A string literal's prefix: u8, u, U, L, optionally followed by R (raw).
bool string_prefix(std::string_view word) {
  return word == "u8" || word == "u" || word == "U" || word == "L" || word == "R" || word == "u8R" || word == "uR" ||
         word == "UR" || word == "LR";
}

class Lexer {
public:
  Lexer(std::string_view text, const LexOptions& options)
      : text_(text), at_line_start_(options.at_line_start), preprocessor_(options.preprocessor) {}

  std::vector<Token> run() {
    while (skip_space(), pos_ < text_.size()) {
      const std::size_t begin = pos_;
      const TokenKind kind = next(begin);
      tokens_.push_back(Token{kind, begin, pos_, line_});
      line_ += static_cast<int>(std::count(text_.begin() + static_cast<std::ptrdiff_t>(begin),
                                           text_.begin() + static_cast<std::ptrdiff_t>(pos_), '\n'));
      // To the preprocessor a comment is white space: '#' after one still starts a directive.
      if (!(preprocessor_ && kind == TokenKind::comment)) at_line_start_ = false;
    }
    return std::move(tokens_);
  }

private:
  char at(std::size_t i) const { return i < text_.size() ? text_[i] : '\0'; }

  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) {
      if (text_[pos_] == '\n') {
        at_line_start_ = true;
        ++line_;
      }
      ++pos_;
    }
  }

  TokenKind next(std::size_t begin) {
    const char c = text_[pos_];
    if (c == '/' && at(pos_ + 1) == '/') return line_comment();
    if (c == '/' && at(pos_ + 1) == '*') return block_comment();
    if (c == '#' && at_line_start_) return directive();
    if (identifier_start(c)) return word(begin);
    if (digit(c) || (c == '.' && digit(at(pos_ + 1)))) return number();
    if (c == '"') return quoted('"', TokenKind::string);
    if (c == '\'') return quoted('\'', TokenKind::character);
    for (std::string_view p : multi_char_punctuation)
      if (text_.substr(pos_, p.size()) == p) {
        pos_ += p.size();
        return TokenKind::punctuation;
      }
    if (preprocessor_)
      for (std::string_view p : preprocessor_punctuation)
        if (text_.substr(pos_, p.size()) == p) {
          pos_ += p.size();
          return TokenKind::punctuation;
        }
    ++pos_;
    return TokenKind::punctuation;
  }

  TokenKind line_comment() {
    while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
    return TokenKind::comment;
  }

  TokenKind block_comment() {
    const std::size_t end = text_.find("*/", pos_ + 2);
    pos_ = end == std::string_view::npos ? text_.size() : end + 2;
    return TokenKind::comment;
  }

  /// Up to the end of the line, across backslash continuations (and, to the preprocessor,
  /// across comments: a block comment may end on a later line).
  TokenKind directive() {
    while (pos_ < text_.size() && text_[pos_] != '\n') {
      if (preprocessor_ && text_[pos_] == '/' && at(pos_ + 1) == '*') {
        block_comment();
        continue;
      }
      if (preprocessor_ && text_[pos_] == '/' && at(pos_ + 1) == '/') {
        line_comment();
        break;
      }
      if (preprocessor_ && text_[pos_] == '\\' && at(pos_ + 1) == '\r' && at(pos_ + 2) == '\n') pos_ += 2;
      else if (text_[pos_] == '\\' && at(pos_ + 1) == '\n') ++pos_;
      ++pos_;
    }
    return TokenKind::directive;
  }

  TokenKind word(std::size_t begin) {
    while (pos_ < text_.size() && identifier_char(text_[pos_])) ++pos_;
    const std::string_view spelled = text_.substr(begin, pos_ - begin);
    if (at(pos_) == '"' && string_prefix(spelled)) {
      if (spelled.back() == 'R') return raw_string();
      return quoted('"', TokenKind::string);
    }
    if (at(pos_) == '\'' && string_prefix(spelled) && spelled.back() != 'R') return quoted('\'', TokenKind::character);
    return TokenKind::identifier;
  }

  /// A pp-number: digits, letters, '.', digit separators and signed exponents.
  TokenKind number() {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if ((c == '+' || c == '-') && pos_ > 0 &&
          std::string_view("eEpP").find(text_[pos_ - 1]) != std::string_view::npos) {
        ++pos_;
        continue;
      }
      if (identifier_char(c) || c == '.' || (c == '\'' && identifier_char(at(pos_ + 1)))) {
        ++pos_;
        continue;
      }
      break;
    }
    return TokenKind::number;
  }

  /// A "..." or '...' literal. One left open ends before its line's newline, so that a
  /// directive on the next line is still one (`#if 0` text with an apostrophe, then `#endif`).
  TokenKind quoted(char quote, TokenKind kind) {
    ++pos_;
    while (pos_ < text_.size() && text_[pos_] != quote && text_[pos_] != '\n') pos_ += text_[pos_] == '\\' ? 2 : 1;
    if (pos_ < text_.size() && text_[pos_] == quote) ++pos_;
    pos_ = std::min(pos_, text_.size());
    return kind;
  }

  /// R"delim( ... )delim"
  TokenKind raw_string() {
    const std::size_t open = text_.find('(', pos_);
    if (open == std::string_view::npos) return quoted('"', TokenKind::string);
    const std::string closing = ")" + std::string(text_.substr(pos_ + 1, open - pos_ - 1)) + "\"";
    const std::size_t end = text_.find(closing, open);
    pos_ = end == std::string_view::npos ? text_.size() : end + closing.size();
    return TokenKind::string;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  int line_ = 1;
  bool at_line_start_;
  bool preprocessor_;
  std::vector<Token> tokens_;
};

} // namespace

std::vector<Token> tokenize(std::string_view text, const LexOptions& options) { return Lexer(text, options).run(); }

} // namespace cudiff::cpp
