// undefined_scan_lexer: the undefined-behaviour scan's tokenizer and preprocessor model:
// comments and directives dropped, #if 0 branches skipped, #define'd macros remembered, and for
// each token which compilation pass sees it (#if branches on __CUDA_ARCH__).
#include "generator/undefined_scan_parts.h"

#include <array>
#include <cctype>

namespace cudiff::generator::undefined_scan {
namespace {

bool identifier_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }
bool identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }

std::string without_spaces(std::string_view text) {
  std::string out;
  for (char c : text)
    if (!std::isspace(static_cast<unsigned char>(c))) out += c;
  return out;
}

/// One #if/#ifdef/#elif condition as far as the scan cares: a test of __CUDA_ARCH__ (which pass
/// keeps the branch; `exact` when #else is then the other pass) or a literal 0/1.
struct Condition {
  bool arch = false;
  ArchBranch branch = ArchBranch::both;
  bool exact = false;
  std::optional<bool> constant;
};

Condition classify_condition(std::string_view directive, std::string_view expression) {
  const std::string e = without_spaces(expression);
  Condition c;
  if (directive == "ifdef" || directive == "elifdef" || directive == "ifndef" || directive == "elifndef") {
    if (e != "__CUDA_ARCH__") return c;
    const bool negated = directive == "ifndef" || directive == "elifndef";
    return Condition{true, negated ? ArchBranch::host_only : ArchBranch::device_only, true, std::nullopt};
  }
  if (e.find("__CUDA_ARCH__") != std::string::npos) {
    const bool negated = e.find("!defined") != std::string::npos || e.find("!__CUDA_ARCH__") != std::string::npos;
    c.arch = true;
    c.branch = negated ? ArchBranch::host_only : ArchBranch::device_only;
    c.exact = e == "defined(__CUDA_ARCH__)" || e == "defined__CUDA_ARCH__" || e == "__CUDA_ARCH__" ||
              e == "!defined(__CUDA_ARCH__)" || e == "!defined__CUDA_ARCH__" || e == "!__CUDA_ARCH__";
    return c;
  }
  if (e == "0") c.constant = false;
  if (e == "1") c.constant = true;
  return c;
}

ArchBranch other_pass(ArchBranch branch) {
  return branch == ArchBranch::device_only ? ArchBranch::host_only
         : branch == ArchBranch::host_only ? ArchBranch::device_only
                                           : ArchBranch::both;
}

class Lexer {
public:
  explicit Lexer(std::string_view source) : src_(source) {}

  Lexed run() {
    bool line_start = true;
    while (pos_ < src_.size()) {
      const char c = src_[pos_];
      if (c == '\n') {
        ++line_;
        ++pos_;
        line_start = true;
      } else if (std::isspace(static_cast<unsigned char>(c))) {
        ++pos_;
      } else if (c == '/' && peek(1) == '/') {
        skip_line_comment();
      } else if (c == '/' && peek(1) == '*') {
        skip_block_comment();
      } else if (c == '#' && line_start) {
        directive();
      } else {
        line_start = false;
        token();
      }
    }
    return std::move(out_);
  }

private:
  struct Frame {
    bool live = true;        ///< this branch is compiled at all (not #if 0)
    bool any_taken = false;  ///< a constant-true branch came earlier (#if 1 ... #else)
    Condition condition;
  };

  char peek(std::size_t ahead) const { return pos_ + ahead < src_.size() ? src_[pos_ + ahead] : '\0'; }

  void skip_line_comment() {
    while (pos_ < src_.size() && src_[pos_] != '\n') ++pos_;
  }

  void skip_block_comment() {
    pos_ += 2;
    while (pos_ < src_.size() && !(src_[pos_] == '*' && peek(1) == '/')) {
      if (src_[pos_] == '\n') ++line_;
      ++pos_;
    }
    pos_ = std::min(src_.size(), pos_ + 2);
  }

  /// The directive's logical line (continuations joined, comments dropped), up to its newline.
  std::string directive_text() {
    std::string text;
    ++pos_;  // '#'
    while (pos_ < src_.size()) {
      const char c = src_[pos_];
      if (c == '\\' && peek(1) == '\n') {
        pos_ += 2;
        ++line_;
        text += ' ';
      } else if (c == '\\' && peek(1) == '\r' && peek(2) == '\n') {
        pos_ += 3;
        ++line_;
        text += ' ';
      } else if (c == '\n') {
        break;
      } else if (c == '/' && peek(1) == '*') {
        skip_block_comment();
        text += ' ';
      } else if (c == '/' && peek(1) == '/') {
        skip_line_comment();
      } else {
        text += c;
        ++pos_;
      }
    }
    return text;
  }

  void directive() {
    const std::string text = directive_text();
    std::size_t i = 0;
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    std::size_t j = i;
    while (j < text.size() && identifier_char(text[j])) ++j;
    const std::string name = text.substr(i, j - i);
    const std::string_view rest = std::string_view(text).substr(j);
    if (name == "if" || name == "ifdef" || name == "ifndef") {
      Frame frame;
      frame.condition = classify_condition(name, rest);
      frame.live = frame.condition.constant.value_or(true);
      frame.any_taken = frame.condition.constant.value_or(false);
      frames_.push_back(frame);
    } else if ((name == "elif" || name == "elifdef" || name == "elifndef") && !frames_.empty()) {
      Frame& frame = frames_.back();
      const Condition next = classify_condition(name, rest);
      frame.live = !frame.any_taken && next.constant.value_or(true);
      frame.any_taken = frame.any_taken || next.constant.value_or(false);
      frame.condition.branch = next.arch ? next.branch : ArchBranch::both;
      frame.condition.exact = next.exact;
      frame.condition.arch = frame.condition.arch || next.arch;
    } else if (name == "else" && !frames_.empty()) {
      Frame& frame = frames_.back();
      frame.live = !frame.any_taken;
      frame.condition.branch = frame.condition.exact ? other_pass(frame.condition.branch) : ArchBranch::both;
    } else if (name == "endif" && !frames_.empty()) {
      frames_.pop_back();
    } else if (name == "define" && live()) {
      define(rest);
    }
    refresh_state();
  }

  void define(std::string_view rest) {
    std::size_t i = 0;
    while (i < rest.size() && std::isspace(static_cast<unsigned char>(rest[i]))) ++i;
    std::size_t j = i;
    while (j < rest.size() && identifier_char(rest[j])) ++j;
    if (j == i) return;
    const std::string macro(rest.substr(i, j - i));
    if (j < rest.size() && rest[j] == '(') out_.function_macros.insert(macro);
    else out_.object_macros[macro] = std::string(trim(rest.substr(j)));
  }

  bool live() const {
    return std::all_of(frames_.begin(), frames_.end(), [](const Frame& f) { return f.live; });
  }

  void refresh_state() {
    live_ = live();
    branch_ = ArchBranch::both;
    arch_ = false;
    for (const Frame& frame : frames_) {
      arch_ = arch_ || frame.condition.arch;
      if (frame.condition.branch == ArchBranch::both) continue;
      if (branch_ != ArchBranch::both && branch_ != frame.condition.branch) live_ = false;  // no pass sees it
      branch_ = frame.condition.branch;
    }
  }

  void token() {
    const std::size_t start = pos_;
    const int line = line_;
    TokenKind kind = TokenKind::punctuation;
    const char c = src_[pos_];
    if (identifier_start(c)) {
      while (pos_ < src_.size() && identifier_char(src_[pos_])) ++pos_;
      const std::string_view word = src_.substr(start, pos_ - start);
      kind = TokenKind::identifier;
      if (pos_ < src_.size() && (src_[pos_] == '"' || src_[pos_] == '\'') && is_literal_prefix(word)) {
        kind = src_[pos_] == '"' ? TokenKind::string : TokenKind::character;
        if (word.back() == 'R' && src_[pos_] == '"') raw_string();
        else quoted(src_[pos_]);
      }
    } else if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && std::isdigit(static_cast<unsigned char>(peek(1))))) {
      kind = TokenKind::number;
      number();
    } else if (c == '"' || c == '\'') {
      kind = c == '"' ? TokenKind::string : TokenKind::character;
      quoted(c);
    } else {
      punctuation();
    }
    if (!live_) return;
    out_.tokens.push_back(Token{kind, src_.substr(start, pos_ - start), line, branch_, arch_});
  }

  static bool is_literal_prefix(std::string_view word) {
    return word == "u8" || word == "u" || word == "U" || word == "L" || word == "R" || word == "u8R" || word == "uR" ||
           word == "UR" || word == "LR";
  }

  void number() {
    while (pos_ < src_.size()) {
      const char c = src_[pos_];
      const char before = pos_ > 0 ? src_[pos_ - 1] : '\0';
      const bool exponent_sign = (c == '+' || c == '-') && (before == 'e' || before == 'E' || before == 'p' || before == 'P');
      if (!identifier_char(c) && c != '.' && c != '\'' && !exponent_sign) break;
      ++pos_;
    }
  }

  /// A "..." or '...' literal; stops at an unescaped newline so broken input cannot run away.
  void quoted(char quote) {
    ++pos_;
    while (pos_ < src_.size() && src_[pos_] != quote && src_[pos_] != '\n') {
      if (src_[pos_] == '\\' && pos_ + 1 < src_.size()) ++pos_;
      ++pos_;
    }
    if (pos_ < src_.size() && src_[pos_] == quote) ++pos_;
  }

  void raw_string() {
    ++pos_;  // '"'
    std::size_t open = pos_;
    while (open < src_.size() && src_[open] != '(' && src_[open] != '\n') ++open;
    const std::string close = ")" + std::string(src_.substr(pos_, open - pos_)) + "\"";
    const std::size_t end = src_.find(close, open);
    const std::size_t stop = end == std::string_view::npos ? src_.size() : end + close.size();
    line_ += static_cast<int>(std::count(src_.begin() + static_cast<std::ptrdiff_t>(pos_),
                                         src_.begin() + static_cast<std::ptrdiff_t>(stop), '\n'));
    pos_ = stop;
  }

  void punctuation() {
    static constexpr std::array<std::string_view, 7> three = {"<<<", ">>>", "<<=", ">>=", "->*", "...", "<=>"};
    static constexpr std::array<std::string_view, 22> two = {"::", "->", "++", "--", "<<", ">>", "<=", ">=",
                                                             "==", "!=", "&&", "||", "+=", "-=", "*=", "/=",
                                                             "%=", "&=", "|=", "^=", ".*", "##"};
    const std::string_view rest = src_.substr(pos_);
    for (std::string_view p : three)
      if (rest.starts_with(p)) {
        pos_ += 3;
        return;
      }
    for (std::string_view p : two)
      if (rest.starts_with(p)) {
        pos_ += 2;
        return;
      }
    ++pos_;
  }

  std::string_view src_;
  std::size_t pos_ = 0;
  int line_ = 1;
  std::vector<Frame> frames_;
  bool live_ = true;
  bool arch_ = false;
  ArchBranch branch_ = ArchBranch::both;
  Lexed out_;
};

} // namespace

Lexed lex(std::string_view source) { return Lexer(source).run(); }

} // namespace cudiff::generator::undefined_scan
