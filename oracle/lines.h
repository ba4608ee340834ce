// oracle (private): line-by-line scanning of compiler output without copying it.
#pragma once

#include <string_view>

namespace cudiff::oracle::detail {

/// Calls visit(line) for every line of `text`, split on '\n', a trailing '\r' dropped, no
/// empty last line for text ending in '\n'. Linear; never allocates.
template <typename Visit>
void for_each_line(std::string_view text, Visit&& visit) {
  while (!text.empty()) {
    std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    visit(line);
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
}

/// ASCII-only helpers: compiler output is bytes, not necessarily valid UTF-8, and the
/// <cctype> functions are undefined for negative chars.
constexpr bool is_digit(char c) { return c >= '0' && c <= '9'; }
constexpr bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
constexpr bool is_word(char c) { return is_digit(c) || is_alpha(c) || c == '_'; }
constexpr bool is_space(char c) { return c == ' ' || c == '\t'; }

/// The line without leading spaces and tabs.
constexpr std::string_view trim_left(std::string_view line) {
  while (!line.empty() && is_space(line.front())) line.remove_prefix(1);
  return line;
}

/// The last path component: "/usr/bin/ld" -> "ld".
constexpr std::string_view basename(std::string_view path) {
  std::size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

} // namespace cudiff::oracle::detail
