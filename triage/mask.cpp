// triage: masking crash text — what differs between two crashes of the same bug (the test's
// file name, line numbers, addresses, temporary names, identifiers) becomes a placeholder.
#include "triage/triage.h"

#include <array>
#include <cctype>

namespace cudiff::triage {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_hex_digit(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool is_word(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// Files of the compiler itself (an assertion's SemaExpr.cpp) name where the bug is and are
/// kept; the test's own file and temporaries differ from run to run and are masked.
bool compiler_source(std::string_view name) {
  constexpr std::array<std::string_view, 8> extensions{".cpp", ".cc", ".c", ".h", ".hpp", ".inc", ".def", ".td"};
  for (std::string_view extension : extensions)
    if (name.size() > extension.size() && name.ends_with(extension)) return true;
  return false;
}

bool looks_like_file(std::string_view token) {
  constexpr std::array<std::string_view, 9> extensions{".cu",    ".cuh",    ".ptx", ".s", ".o",
                                                       ".cubin", ".fatbin", ".sh",  ".ii"};
  for (std::string_view extension : extensions)
    if (token.size() > extension.size() && token.ends_with(extension)) return true;
  return false;
}

/// A path-like token: its directory dropped, and its name masked unless it is a compiler
/// source file outside /tmp. `token` is the path without trailing ":line:col" punctuation.
std::string mask_path(std::string_view path) {
  const std::size_t slash = path.rfind('/');
  std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  if (compiler_source(name) && !path.starts_with("/tmp/")) return std::string(name);
  if (slash == std::string_view::npos && !looks_like_file(name)) return std::string(name);
  return "<file>";
}

/// Paths first, token by token: a path ends at whitespace, a quote, a paren or a ':'.
std::string mask_paths(std::string_view text) {
  std::string out;
  std::size_t i = 0;
  auto path_char = [](char c) {
    return !std::isspace(static_cast<unsigned char>(c)) && c != ':' && c != '\'' && c != '"' && c != '(' && c != ')' &&
           c != ',' && c != '`';
  };
  while (i < text.size()) {
    if (!path_char(text[i])) {
      out.push_back(text[i++]);
      continue;
    }
    std::size_t end = i;
    while (end < text.size() && path_char(text[end])) ++end;
    std::string_view token = text.substr(i, end - i);
    const bool path = token.find('/') != std::string_view::npos || looks_like_file(token);
    out += path ? mask_path(token) : std::string(token);
    i = end;
  }
  return out;
}

} // namespace

std::string mask_crash_text(std::string_view text) {
  const std::string paths = mask_paths(text);
  std::string out;
  out.reserve(paths.size());
  for (std::size_t i = 0; i < paths.size();) {
    const char c = paths[i];
    // 0x7f3c11ab8786 -> 0x_ : addresses differ on every run.
    if (c == '0' && i + 2 < paths.size() && (paths[i + 1] == 'x' || paths[i + 1] == 'X') &&
        is_hex_digit(paths[i + 2]) && (i == 0 || !is_word(paths[i - 1]))) {
      i += 2;
      while (i < paths.size() && is_hex_digit(paths[i])) ++i;
      out += "0x_";
      continue;
    }
    // Numbers (lines, columns, sizes, temp-name suffixes) -> N.
    if (is_digit(c)) {
      while (i < paths.size() && is_digit(paths[i])) ++i;
      out += 'N';
      continue;
    }
    // 'name' -> '_' : the test's identifiers; backtick-quoted assertion text is kept.
    if (c == '\'' && (i == 0 || paths[i - 1] != '`')) {
      const std::size_t close = paths.find('\'', i + 1);
      if (close != std::string::npos && close - i < 200 && paths.find('\n', i) > close) {
        out += "'_'";
        i = close + 1;
        continue;
      }
    }
    out.push_back(c);
    ++i;
  }
  return out;
}

} // namespace cudiff::triage
