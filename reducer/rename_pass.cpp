// reducer: renaming the file's own identifiers to short names (a, b, ..., aa, ...). Only
// names the file itself declares are tried: a library name (printf, cudaMalloc, size_t) can
// never be renamed, and each try would cost a test.
#include "reducer/passes.h"

#include <algorithm>
#include <set>

namespace cudiff::reducer {
namespace {

/// Keywords that may stand right before a declared name.
bool declares_after(std::string_view word) {
  return one_of(word, {"void",         "int",          "char",       "short",        "long",        "float",
                       "double",       "bool",         "unsigned",   "signed",       "auto",        "const",
                       "constexpr",    "static",       "inline",     "struct",       "class",       "union",
                       "enum",         "typename",     "namespace",  "volatile",     "extern",      "__global__",
                       "__device__",   "__host__",     "__shared__", "__constant__", "__managed__", "__forceinline__",
                       "__noinline__", "__restrict__", "virtual",    "explicit",     "register",    "thread_local",
                       "mutable",      "using",        "typedef",    "char8_t",      "char16_t",    "char32_t",
                       "wchar_t",      "__inline__"});
}

/// Names the CUDA runtime, the compilers or the C library give meaning to.
bool reserved(std::string_view name) {
  return name == "main" || name.starts_with("__") || name.starts_with("cuda") || name.starts_with("cudiff_") ||
         one_of(name, {"std", "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize", "dim3", "size_t", "printf",
                       "malloc", "free", "memcpy", "memset", "atomicAdd"});
}

std::string short_name(std::size_t n) {
  std::string name;
  do {
    name.insert(name.begin(), static_cast<char>('a' + n % 26));
    n = n / 26;
  } while (n-- > 0);
  return name;
}

} // namespace

std::vector<Edit> rename_edits(std::string_view text) {
  const std::vector<Token> tokens = tokenize(text);
  std::vector<std::size_t> code;  // comments left out
  for (std::size_t i = 0; i < tokens.size(); ++i)
    if (tokens[i].kind != TokenKind::comment) code.push_back(i);
  auto word = [&](std::size_t k) { return tokens[code[k]].text(text); };

  std::set<std::string, std::less<>> taken;  // every identifier already in the text
  for (std::size_t k = 0; k < code.size(); ++k)
    if (tokens[code[k]].kind == TokenKind::identifier) taken.emplace(word(k));

  // Candidates in order of first appearance, each at a declaration: a type-like token before
  // it and one of ( = ; , ) [ { : > after it.
  std::vector<std::string> names;
  std::set<std::string, std::less<>> seen;
  for (std::size_t k = 1; k + 1 < code.size(); ++k) {
    if (tokens[code[k]].kind != TokenKind::identifier || is_keyword(word(k))) continue;
    const std::string name(word(k));
    if (!seen.insert(name).second || reserved(name)) continue;
    const Token& before = tokens[code[k - 1]];
    const std::string_view previous = word(k - 1);
    const bool typed = (before.kind == TokenKind::identifier && (!is_keyword(previous) || declares_after(previous))) ||
                       one_of(previous, {"*", "&", "&&", ">"});
    if (typed && one_of(word(k + 1), {"(", "=", ";", ",", ")", "[", "{", ":", ">"})) names.push_back(name);
  }

  std::vector<Edit> edits;
  std::size_t next = 0;
  for (const std::string& name : names) {
    std::string replacement;
    while (true) {
      replacement = short_name(next);
      if (!taken.contains(replacement) && !is_keyword(replacement)) break;
      ++next;
    }
    if (replacement.size() >= name.size()) continue;
    Edit edit;
    for (std::size_t k = 0; k < code.size(); ++k)
      if (tokens[code[k]].kind == TokenKind::identifier && word(k) == name)
        edit.replacements.push_back({tokens[code[k]].begin, tokens[code[k]].end, replacement});
    edits.push_back(std::move(edit));
  }
  return edits;
}

} // namespace cudiff::reducer
