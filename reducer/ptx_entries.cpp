// reducer: a PTX module's `.entry` blocks (its kernels), found by reading the text: what the
// `focus` pass searches over, under ptxas alone, for the kernels a ptxas failure needs.
#include "reducer/passes.h"

#include <cctype>

namespace cudiff::reducer {
namespace {

bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '$' || c == '.'; }

/// Where the comment or string starting at `i` ends (one past it); `i` itself when none starts
/// there. Braces inside either are no block's.
std::size_t skip_opaque(std::string_view ptx, std::size_t i) {
  if (ptx.compare(i, 2, "//") == 0) {
    const std::size_t end = ptx.find('\n', i);
    return end == std::string_view::npos ? ptx.size() : end;
  }
  if (ptx.compare(i, 2, "/*") == 0) {
    const std::size_t end = ptx.find("*/", i + 2);
    return end == std::string_view::npos ? ptx.size() : end + 2;
  }
  if (ptx[i] == '"') {
    std::size_t j = i + 1;
    while (j < ptx.size() && ptx[j] != '"' && ptx[j] != '\n') j += ptx[j] == '\\' ? 2 : 1;
    return std::min(j + 1, ptx.size());
  }
  return i;
}

/// Whether `.entry` at `at` is the directive itself (not part of a longer word, not in a comment).
bool directive_at(std::string_view ptx, std::size_t at) {
  if (at > 0 && name_char(ptx[at - 1])) return false;
  const std::size_t after = at + 6;
  return after >= ptx.size() || !name_char(ptx[after]);
}

std::size_t line_start(std::string_view ptx, std::size_t at) {
  const std::size_t newline = ptx.rfind('\n', at == 0 ? 0 : at - 1);
  return at == 0 || newline == std::string_view::npos ? 0 : newline + 1;
}

/// The start of the lines before `begin` that belong to the entry: nvcc's `// .globl NAME`
/// comment right above it.
std::size_t with_globl_comment(std::string_view ptx, std::size_t begin, std::string_view name) {
  if (begin == 0) return begin;
  const std::size_t previous = line_start(ptx, begin - 1);
  std::string_view line = ptx.substr(previous, begin - previous);
  while (!line.empty() && std::isspace(static_cast<unsigned char>(line.front())) != 0) line.remove_prefix(1);
  while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back())) != 0) line.remove_suffix(1);
  if (!line.starts_with("//") || !line.ends_with(name)) return begin;
  return line.find(".globl") == std::string_view::npos ? begin : previous;
}

} // namespace

std::vector<PtxEntry> ptx_entries(std::string_view ptx) {
  std::vector<PtxEntry> entries;
  std::size_t i = 0;
  while (i < ptx.size()) {
    if (const std::size_t skipped = skip_opaque(ptx, i); skipped != i) {
      i = skipped;
      continue;
    }
    if (ptx.compare(i, 6, ".entry") != 0 || !directive_at(ptx, i)) {
      ++i;
      continue;
    }
    PtxEntry entry;
    std::size_t j = i + 6;
    while (j < ptx.size() && std::isspace(static_cast<unsigned char>(ptx[j])) != 0) ++j;
    const std::size_t name_begin = j;
    while (j < ptx.size() && name_char(ptx[j])) ++j;
    entry.name = std::string(ptx.substr(name_begin, j - name_begin));
    // The directive's line starts the block: `.visible`, `.weak` or `.extern` come before it.
    std::size_t begin = line_start(ptx, i);
    // The parameter list, then the performance directives (`.maxntid 64, 1, 1`, `.pragma
    // "nounroll";`), then the body, or a `;` that makes it a declaration.
    int parens = 0;
    bool after_params = false;
    std::size_t statement = j;  // where the text since the last `;` or `)` begins
    std::size_t end = std::string_view::npos;
    while (j < ptx.size() && end == std::string_view::npos) {
      if (const std::size_t skipped = skip_opaque(ptx, j); skipped != j) {
        j = skipped;
        continue;
      }
      const char c = ptx[j];
      if (c == '(') ++parens;
      if (c == ')' && --parens == 0) {
        after_params = true;
        statement = j + 1;
      }
      if (parens == 0 && c == ';') {
        std::string_view words = ptx.substr(statement, j - statement);
        while (!words.empty() && std::isspace(static_cast<unsigned char>(words.front())) != 0) words.remove_prefix(1);
        if (!words.starts_with(".pragma")) end = j + 1;  // a declaration: no body
        statement = j + 1;
      }
      if (parens == 0 && c == '{' && (after_params || entry.name.empty())) {
        // The body, to its matching brace: scoping blocks nest inside it.
        int depth = 0;
        for (std::size_t k = j; k < ptx.size(); ++k) {
          if (const std::size_t skipped = skip_opaque(ptx, k); skipped != k) {
            k = skipped - 1;
            continue;
          }
          if (ptx[k] == '{') ++depth;
          if (ptx[k] == '}' && --depth == 0) {
            end = k + 1;
            entry.defined = true;
            break;
          }
        }
        if (end == std::string_view::npos) end = ptx.size();  // unterminated: to the end
      }
      ++j;
    }
    if (end == std::string_view::npos) end = ptx.size();
    if (end < ptx.size() && ptx[end] == '\n') ++end;  // the block's line with it
    entry.begin = with_globl_comment(ptx, begin, entry.name);
    entry.end = end;
    entries.push_back(std::move(entry));
    i = end;
  }
  return entries;
}

} // namespace cudiff::reducer
