// preprocess: ubscan's preprocessor model over common's tokens: comments and directives dropped,
// #if 0 branches skipped, #define'd macros remembered, and for each token which compilation pass
// sees it (#if branches on __CUDA_ARCH__).
#include "ubscan/model.h"

#include "common/cpp_lexer.h"

#include <algorithm>
#include <cctype>

namespace cudiff::ubscan::detail {
namespace {

bool identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }

std::string without_spaces(std::string_view text) {
  std::string out;
  for (char c : text)
    if (!std::isspace(static_cast<unsigned char>(c))) out += c;
  return out;
}

/// A directive's logical line after its '#': continuations joined and comments dropped, each a
/// space, as the preprocessor reads it.
std::string directive_text(std::string_view directive) {
  std::string text;
  std::size_t pos = 1;  // '#'
  auto peek = [&](std::size_t ahead) { return pos + ahead < directive.size() ? directive[pos + ahead] : '\0'; };
  while (pos < directive.size()) {
    const char c = directive[pos];
    if (c == '\\' && peek(1) == '\n') {
      pos += 2;
      text += ' ';
    } else if (c == '\\' && peek(1) == '\r' && peek(2) == '\n') {
      pos += 3;
      text += ' ';
    } else if (c == '/' && peek(1) == '*') {
      const std::size_t end = directive.find("*/", pos + 2);
      pos = end == std::string_view::npos ? directive.size() : end + 2;
      text += ' ';
    } else if (c == '/' && peek(1) == '/') {
      break;
    } else {
      text += c;
      ++pos;
    }
  }
  return text;
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

class Preprocessor {
public:
  explicit Preprocessor(std::string_view source) : src_(source) {}

  Lexed run() {
    for (const cpp::Token& token : cpp::tokenize(src_, cpp::LexOptions{.preprocessor = true})) {
      if (token.kind == cpp::TokenKind::comment) continue;
      if (token.kind == cpp::TokenKind::directive) {
        directive(token.text(src_));
        continue;
      }
      if (live_) out_.tokens.push_back(Token{token.kind, token.text(src_), token.line, branch_, arch_});
    }
    return std::move(out_);
  }

private:
  struct Frame {
    bool live = true;        ///< this branch is compiled at all (not #if 0)
    bool any_taken = false;  ///< a constant-true branch came earlier (#if 1 ... #else)
    Condition condition;
  };

  void directive(std::string_view spelled) {
    const std::string text = directive_text(spelled);
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

  std::string_view src_;
  std::vector<Frame> frames_;
  bool live_ = true;
  bool arch_ = false;
  ArchBranch branch_ = ArchBranch::both;
  Lexed out_;
};

} // namespace

Lexed lex(std::string_view source) { return Preprocessor(source).run(); }

} // namespace cudiff::ubscan::detail
