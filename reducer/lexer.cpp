// reducer: a C++/CUDA tokenizer good enough to cut text at token boundaries. It never
// rejects input: a reducer sees broken programs all the time.
#include "reducer/reducer.h"

#include <array>
#include <cctype>

namespace cudiff::reducer {
namespace {

bool identifier_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }
bool identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }
bool digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

/// Longest first, so that the first match is the longest one.
constexpr std::array<std::string_view, 27> multi_char_punctuation = {
    "<<<", ">>>", "<<=", ">>=", "...", "->*", "<=>", "::", "->", "++", "--", "<<", ">>", "<=",
    ">=",  "==",  "!=",  "&&",  "||",  "+=",  "-=",  "*=", "/=", "%=", "&=", "|=", "^="};

/// A string literal's prefix: u8, u, U, L, optionally followed by R (raw).
bool string_prefix(std::string_view word) {
  return word == "u8" || word == "u" || word == "U" || word == "L" || word == "R" || word == "u8R" || word == "uR" ||
         word == "UR" || word == "LR";
}

class Lexer {
public:
  /// `at_line_start`: false for text that continues a line, where '#' starts no directive.
  explicit Lexer(std::string_view text, bool at_line_start = true) : text_(text), at_line_start_(at_line_start) {}

  std::vector<Token> run() {
    while (skip_space(), pos_ < text_.size()) {
      const std::size_t begin = pos_;
      const TokenKind kind = next(begin);
      tokens_.push_back(Token{kind, begin, pos_});
      at_line_start_ = false;
    }
    return std::move(tokens_);
  }

private:
  char at(std::size_t i) const { return i < text_.size() ? text_[i] : '\0'; }

  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) {
      if (text_[pos_] == '\n') at_line_start_ = true;
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

  /// Up to the end of the line, across backslash continuations.
  TokenKind directive() {
    while (pos_ < text_.size() && text_[pos_] != '\n') {
      if (text_[pos_] == '\\' && at(pos_ + 1) == '\n') ++pos_;
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
      if ((c == '+' || c == '-') && pos_ > 0 && std::string_view("eEpP").find(text_[pos_ - 1]) != std::string_view::npos) {
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

  TokenKind quoted(char quote, TokenKind kind) {
    ++pos_;
    while (pos_ < text_.size() && text_[pos_] != quote && text_[pos_] != '\n') pos_ += text_[pos_] == '\\' ? 2 : 1;
    pos_ = std::min(pos_ + 1, text_.size());
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
  bool at_line_start_;
  std::vector<Token> tokens_;
};

} // namespace

std::vector<Token> tokenize(std::string_view text) { return Lexer(text).run(); }

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
    for (const Token& inner : Lexer(line, false).run())
      if (inner.kind != TokenKind::comment) ++count;
  }
  return count;
}

std::uint64_t text_hash(std::string_view text) {
  std::uint64_t hash = 1469598103934665603ull;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return hash;
}

} // namespace cudiff::reducer
