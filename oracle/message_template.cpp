// oracle: message_template — a diagnostic message with its code-specific parts masked.
//
// The template is the id of every diagnostic that has no warning number or flag (nvcc does
// not number its errors), and so part of triage bucket keys (docs/architecture.md, "Triage"): the same
// diagnostic about different code must give the same template. One left-to-right pass, no
// regex: compiler output is untrusted and may be megabytes long.
#include "oracle/lines.h"
#include "oracle/oracle.h"

#include <array>

namespace cudiff::oracle {
namespace {

using detail::is_digit;
using detail::is_space;
using detail::is_word;

/// The quoting styles compilers use around names and types: clang and gcc 'x', nvcc (EDG)
/// "x", ld and older tools `x', gcc in a UTF-8 locale ‘x’ (U+2018/U+2019).
struct QuoteStyle {
  std::string_view open;
  std::string_view close;
  std::string_view other_close;  ///< accepted too (ld writes `x' and newer binutils 'x')
  bool open_after_word = true;   ///< false: an opener right after a letter is an apostrophe
  std::string_view placeholder;
};

constexpr std::array<QuoteStyle, 4> quote_styles{{
    {"'", "'", "", false, "'_'"},
    {"\"", "\"", "", true, "\"_\""},
    {"`", "'", "`", true, "`_'"},
    {"\xE2\x80\x98", "\xE2\x80\x99", "", true, "\xE2\x80\x98_\xE2\x80\x99"},
}};

class Masker {
public:
  explicit Masker(std::string_view text) : text_(text) { out_.reserve(text.size()); }

  std::string run() {
    while (pos_ < text_.size()) {
      if (mask_quote() || mask_number()) continue;
      append_char(text_[pos_++]);
    }
    while (!out_.empty() && out_.back() == ' ') out_.pop_back();
    return std::move(out_);
  }

private:
  char previous() const { return pos_ == 0 ? ' ' : text_[pos_ - 1]; }

  /// Whitespace runs collapse to one space, leading whitespace goes: line wrapping and
  /// indentation are presentation, not content.
  void append_char(char c) {
    if (is_space(c) || c == '\n' || c == '\r') {
      if (!out_.empty() && out_.back() != ' ') out_.push_back(' ');
      return;
    }
    out_.push_back(c);
  }

  /// The first `needle` at or after `from`. The answer of the last search is kept per
  /// needle: searches start at increasing positions, so a kept hit at or after `from` is
  /// still the answer, and no span of text is searched twice for the same needle.
  std::size_t find_from(std::size_t slot, std::string_view needle, std::size_t from) {
    Found& found = found_[slot];
    if (found.valid && (found.at == std::string_view::npos || found.at >= from)) return found.at;
    found = {true, text_.find(needle, from)};
    return found.at;
  }

  /// A closing quote for style `i` at or after `from`, or npos. A straight single quote closes
  /// only where no letter follows ("'a' isn't" closes at the second quote, not in "isn't").
  std::size_t find_close(std::size_t i, std::size_t from) {
    const QuoteStyle& style = quote_styles[i];
    std::size_t at = from;
    while (at < text_.size()) {
      std::size_t close = find_from(2 * i, style.close, at);
      std::size_t other = style.other_close.empty() ? std::string_view::npos
                                                    : find_from(2 * i + 1, style.other_close, at);
      std::size_t hit = std::min(close, other);
      if (hit == std::string_view::npos) return hit;
      std::size_t after = hit + (hit == close ? style.close.size() : style.other_close.size());
      if (style.open != "'" || after >= text_.size() || !is_word(text_[after])) return hit;
      at = hit + 1;
    }
    return std::string_view::npos;
  }

  /// Replaces a quoted span by the style's placeholder. A search that found no closer means
  /// no later opener of that style can close either, so it is not repeated: that keeps the
  /// pass linear on text full of unmatched quotes.
  bool mask_quote() {
    for (std::size_t i = 0; i < quote_styles.size(); ++i) {
      const QuoteStyle& style = quote_styles[i];
      if (exhausted_[i] || !text_.substr(pos_).starts_with(style.open)) continue;
      if (!style.open_after_word && is_word(previous())) continue;
      std::size_t close = find_close(i, pos_ + style.open.size());
      if (close == std::string_view::npos) {
        exhausted_[i] = true;
        continue;
      }
      out_ += style.placeholder;
      pos_ = close + (text_.substr(close).starts_with(style.close) ? style.close.size() : style.other_close.size());
      if (i == 0) skip_aka();
      return true;
    }
    return false;
  }

  /// clang writes "'T' (aka 'int')" when T is a typedef: whether it does depends on the
  /// code, so the aka part goes with the masked type.
  void skip_aka() {
    constexpr std::string_view aka = " (aka '";
    if (aka_exhausted_ || !text_.substr(pos_).starts_with(aka)) return;
    std::size_t end = text_.find("')", pos_ + aka.size());
    if (end == std::string_view::npos) {
      aka_exhausted_ = true;
      return;
    }
    pos_ = end + 2;
  }

  /// Integer, hex and floating literals (a C pp-number: 42, 0x493e0, 1.5f, 1e-5, 2nd) become
  /// N. A digit inside a word (sm_90, x1) is part of a name and stays.
  bool mask_number() {
    if (!is_digit(text_[pos_]) || is_word(previous())) return false;
    std::size_t i = pos_;
    while (i < text_.size()) {
      char c = text_[i];
      bool sign_after_exponent = (c == '+' || c == '-') && i > pos_ &&
                                 (text_[i - 1] == 'e' || text_[i - 1] == 'E' || text_[i - 1] == 'p' ||
                                  text_[i - 1] == 'P') &&
                                 i + 1 < text_.size() && is_digit(text_[i + 1]);
      bool decimal_point = c == '.' && i + 1 < text_.size() && is_digit(text_[i + 1]);
      if (!is_word(c) && !sign_after_exponent && !decimal_point) break;
      ++i;
    }
    out_.push_back('N');
    pos_ = i;
    return true;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  std::string out_;
  struct Found {
    bool valid = false;
    std::size_t at = std::string_view::npos;
  };
  std::array<Found, 2 * quote_styles.size()> found_{};
  std::array<bool, quote_styles.size()> exhausted_{};
  bool aka_exhausted_ = false;
};

/// clang and gcc append "; did you mean 'x'?" when they find a near-miss name: whether they
/// do depends on the names around, not on the diagnostic.
std::string_view without_suggestion(std::string_view message) {
  std::size_t at = message.find("; did you mean ");
  return at == std::string_view::npos ? message : message.substr(0, at);
}

} // namespace

std::string message_template(std::string_view message) {
  return Masker(detail::trim_left(without_suggestion(message))).run();
}

} // namespace cudiff::oracle
