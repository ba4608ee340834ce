// reducer: cutting a text into the units the passes remove, and applying edits.
#include "reducer/text_units.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace cudiff::reducer {
namespace {

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }

bool operator_char(char c) { return std::string_view("+-*/%<>=&|!^:.#").find(c) != std::string_view::npos; }

/// Removing text between two characters must not glue two tokens into one ("a b" -> "ab").
bool would_merge(std::string_view text, std::size_t begin, std::size_t end) {
  if (begin == 0 || end >= text.size()) return false;
  const char left = text[begin - 1], right = text[end];
  return (word_char(left) && word_char(right)) || (operator_char(left) && operator_char(right));
}

std::size_t line_start(std::string_view text, std::size_t pos) {
  while (pos > 0 && text[pos - 1] != '\n') --pos;
  return pos;
}

bool blank(std::string_view text) {
  return std::ranges::all_of(text, [](char c) { return c == ' ' || c == '\t' || c == '\r'; });
}

/// A range alone on its line(s) grows to cover them, newline included.
Range whole_lines(std::string_view text, Range range) {
  const std::size_t begin = line_start(text, range.begin);
  std::size_t end = text.find('\n', range.end);
  if (end == std::string_view::npos) end = text.size();
  if (!blank(text.substr(begin, range.begin - begin)) || !blank(text.substr(range.end, end - range.end))) return range;
  return {begin, std::min(end + 1, text.size())};
}

/// The index after a leading `template < ... >`, or `i` itself.
std::size_t skip_template_header(std::string_view text, const std::vector<Token>& tokens, std::size_t i,
                                 std::size_t last) {
  if (i > last || spelling(text, tokens[i]) != "template") return i;
  int depth = 0;
  for (std::size_t j = i + 1; j <= last; ++j) {
    const std::string_view t = spelling(text, tokens[j]);
    if (t == "<") ++depth;
    if (t == ">") --depth;
    if (t == ">>") depth -= 2;
    if (depth <= 0 && j > i + 1) return j + 1;
  }
  return i;
}

enum class BlockEnd { at_brace, at_semicolon };

/// What the `}` of a block opened at `open` means for the statement that began at `first`.
BlockEnd block_end(std::string_view text, const std::vector<Token>& tokens, std::size_t first, std::size_t open) {
  if (open == first) return BlockEnd::at_brace;  // a compound statement: `{ ... }`
  const std::size_t head = skip_template_header(text, tokens, first, open);
  if (head < open) {
    const std::string_view word = spelling(text, tokens[head]);
    if (one_of(word, {"struct", "class", "union", "enum", "typedef"})) return BlockEnd::at_semicolon;
    if (one_of(word, {"namespace", "extern"})) return BlockEnd::at_brace;
  }
  const auto before = previous_code(tokens, open);
  if (!before) return BlockEnd::at_brace;
  const std::string_view previous = spelling(text, tokens[*before]);
  if (one_of(previous, {")", "else", "do", "try", "const", "noexcept", "override", "final", "mutable", "volatile"}))
    return BlockEnd::at_brace;
  return BlockEnd::at_semicolon;  // an initializer: `= {...};`, `T x{...};`
}

} // namespace

bool is_keyword(std::string_view word) {
  static constexpr std::string_view keywords[] = {"alignas",
                                                  "alignof",
                                                  "asm",
                                                  "auto",
                                                  "bool",
                                                  "break",
                                                  "case",
                                                  "catch",
                                                  "char",
                                                  "char8_t",
                                                  "char16_t",
                                                  "char32_t",
                                                  "class",
                                                  "concept",
                                                  "const",
                                                  "consteval",
                                                  "constexpr",
                                                  "constinit",
                                                  "const_cast",
                                                  "continue",
                                                  "co_await",
                                                  "co_return",
                                                  "co_yield",
                                                  "decltype",
                                                  "default",
                                                  "delete",
                                                  "do",
                                                  "double",
                                                  "dynamic_cast",
                                                  "else",
                                                  "enum",
                                                  "explicit",
                                                  "export",
                                                  "extern",
                                                  "false",
                                                  "float",
                                                  "for",
                                                  "friend",
                                                  "goto",
                                                  "if",
                                                  "inline",
                                                  "int",
                                                  "long",
                                                  "mutable",
                                                  "namespace",
                                                  "new",
                                                  "noexcept",
                                                  "nullptr",
                                                  "operator",
                                                  "private",
                                                  "protected",
                                                  "public",
                                                  "register",
                                                  "reinterpret_cast",
                                                  "requires",
                                                  "return",
                                                  "short",
                                                  "signed",
                                                  "sizeof",
                                                  "static",
                                                  "static_assert",
                                                  "static_cast",
                                                  "struct",
                                                  "switch",
                                                  "template",
                                                  "this",
                                                  "thread_local",
                                                  "throw",
                                                  "true",
                                                  "try",
                                                  "typedef",
                                                  "typeid",
                                                  "typename",
                                                  "union",
                                                  "unsigned",
                                                  "using",
                                                  "virtual",
                                                  "void",
                                                  "volatile",
                                                  "wchar_t",
                                                  "while",
                                                  "final",
                                                  "override",
                                                  "__global__",
                                                  "__device__",
                                                  "__host__",
                                                  "__shared__",
                                                  "__constant__",
                                                  "__managed__",
                                                  "__forceinline__",
                                                  "__noinline__",
                                                  "__restrict__",
                                                  "__launch_bounds__",
                                                  "__grid_constant__",
                                                  "__inline__",
                                                  "__attribute__",
                                                  "__declspec",
                                                  "__builtin_va_list",
                                                  "__int128",
                                                  "__restrict",
                                                  "_Bool",
                                                  "__align__",
                                                  "__cudart_builtin__",
                                                  "__device_builtin__",
                                                  "__volatile__"};
  return std::ranges::find(keywords, word) != std::end(keywords);
}

std::string replace(std::string_view text, std::vector<Replacement> edit) {
  std::ranges::sort(edit, [](const Replacement& a, const Replacement& b) { return a.begin < b.begin; });
  std::string out;
  out.reserve(text.size());
  std::size_t pos = 0;
  for (const Replacement& r : edit) {
    if (r.begin < pos || r.end > text.size() || r.end < r.begin) continue;  // overlapping: skipped
    out.append(text.substr(pos, r.begin - pos));
    out.append(r.text);
    pos = r.end;
  }
  out.append(text.substr(pos));
  return out;
}

std::string remove_ranges(std::string_view text, std::vector<Range> ranges) {
  for (Range& range : ranges) range = whole_lines(text, range);
  std::ranges::sort(ranges, [](const Range& a, const Range& b) { return a.begin < b.begin; });
  std::vector<Range> merged;
  for (const Range& range : ranges) {
    if (!merged.empty() && range.begin <= merged.back().end) merged.back().end = std::max(merged.back().end, range.end);
    else merged.push_back(range);
  }
  std::vector<Replacement> edit;
  for (const Range& range : merged)
    edit.push_back({range.begin, range.end, would_merge(text, range.begin, range.end) ? " " : ""});
  return replace(text, std::move(edit));
}

std::string apply(std::string_view text, const Edit& edit) {
  return edit.remove.empty() ? replace(text, edit.replacements) : remove_ranges(text, edit.remove);
}

std::vector<Range> line_units(std::string_view text) {
  std::vector<Range> lines;
  std::size_t begin = 0;
  while (begin < text.size()) {
    std::size_t end = text.find('\n', begin);
    end = end == std::string_view::npos ? text.size() : end + 1;
    if (!blank(text.substr(begin, end - begin - (text[end - 1] == '\n' ? 1 : 0)))) lines.push_back({begin, end});
    begin = end;
  }
  return lines;
}

std::vector<Range> token_units(std::string_view, const std::vector<Token>& tokens) {
  std::vector<Range> units;
  for (const Token& token : tokens)
    if (token.kind != TokenKind::comment) units.push_back({token.begin, token.end});
  return units;
}

std::vector<Statement> statements_at(std::string_view text, const std::vector<Token>& tokens, std::size_t depth) {
  std::vector<Statement> out;
  std::size_t brace = 0, paren = 0;
  std::optional<std::size_t> start;
  BlockEnd block = BlockEnd::at_brace;
  auto finish = [&](std::size_t last) {
    out.push_back({*start, last});
    start.reset();
  };
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const Token& token = tokens[i];
    if (token.kind == TokenKind::comment) continue;
    const std::string_view t = spelling(text, token);
    if (token.kind == TokenKind::directive) {
      if (brace == depth && !start) out.push_back({i, i});
      continue;
    }
    if (brace == depth && paren == 0 && !start && t != "}") start = i;
    if (t == "(" || t == "[") {
      if (brace == depth) ++paren;
    } else if (t == ")" || t == "]") {
      if (brace == depth && paren > 0) --paren;
    } else if (t == "{") {
      if (brace == depth && paren == 0 && start) block = block_end(text, tokens, *start, i);
      ++brace;
    } else if (t == "}") {
      if (brace == 0) continue;
      --brace;
      if (brace + 1 == depth) {  // the block holding this depth's statements ends
        if (start) finish(*previous_code(tokens, i));
        paren = 0;
      } else if (brace == depth && paren == 0 && start && block == BlockEnd::at_brace) {
        const auto next = next_code(tokens, i);
        const std::string_view following = next ? spelling(text, tokens[*next]) : "";
        const bool continues = following == "else" || following == "catch" ||
                               (following == "while" && spelling(text, tokens[*start]) == "do");
        if (!continues) finish(following == ";" ? *next : i);
        if (!continues && following == ";") i = *next;
      }
    } else if (t == ";" && brace == depth && paren == 0 && start) {
      finish(i);
    }
  }
  if (start) finish(*previous_code(tokens, tokens.size()));
  return out;
}

std::size_t max_depth(std::string_view text, const std::vector<Token>& tokens) {
  std::size_t depth = 0, deepest = 0;
  for (const Token& token : tokens) {
    const std::string_view t = spelling(text, token);
    if (t == "{") deepest = std::max(deepest, ++depth);
    if (t == "}" && depth > 0) --depth;
  }
  return deepest;
}

namespace {

/// `<` after an identifier or `template`, closed by a `>` before any ; { } && || or an
/// unbalanced ) ], within max_angle_tokens tokens.
std::optional<std::size_t> angle_close(std::string_view text, const std::vector<Token>& tokens, std::size_t open) {
  // balanced_pairs asks for every '<', so an unbounded walk made text full of '<' with no ';'
  // ("a<a<a<...") quadratic: 2.5 s for 64 KiB, 10 s for 128 KiB. No template argument list
  // is this long.
  constexpr std::size_t max_angle_tokens = 1024;
  const auto before = previous_code(tokens, open);
  if (!before || tokens[*before].kind != TokenKind::identifier) return std::nullopt;
  const std::string_view name = spelling(text, tokens[*before]);
  if (is_keyword(name) && name != "template") return std::nullopt;
  int angles = 0, parens = 0;
  for (std::size_t j = open; j < tokens.size() && j - open < max_angle_tokens; ++j) {
    const std::string_view t = spelling(text, tokens[j]);
    if (one_of(t, {";", "{", "}", "&&", "||"}) || tokens[j].kind == TokenKind::directive) return std::nullopt;
    if (t == "(" || t == "[") ++parens;
    if (t == ")" || t == "]") {
      if (parens == 0) return std::nullopt;
      --parens;
    }
    if (parens > 0) continue;
    if (t == "<") ++angles;
    if (t == ">" && --angles == 0) return j;
    if (t == ">>" && (angles -= 2) <= 0) return std::nullopt;  // cannot split the token
  }
  return std::nullopt;
}

} // namespace

std::vector<Pair> balanced_pairs(std::string_view text, const std::vector<Token>& tokens) {
  std::vector<Pair> pairs;
  std::vector<std::pair<std::size_t, char>> stack;
  std::vector<std::size_t> launches;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].kind != TokenKind::punctuation) continue;
    const std::string_view t = spelling(text, tokens[i]);
    if (t == "(" || t == "[" || t == "{") stack.push_back({i, t[0]});
    if (t == "<<<") launches.push_back(i);
    if (t == ">>>" && !launches.empty()) {
      pairs.push_back({launches.back(), i, 'L'});
      launches.pop_back();
    }
    if (t == "<")
      if (auto close = angle_close(text, tokens, i)) pairs.push_back({i, *close, '<'});
    if (t == ")" || t == "]" || t == "}") {
      const char open = t == ")" ? '(' : t == "]" ? '[' : '{';
      // A stray closer does not unwind the stack; a missing closer drops the unmatched opener.
      auto match = std::find_if(stack.rbegin(), stack.rend(), [&](const auto& entry) { return entry.second == open; });
      if (match == stack.rend()) continue;
      pairs.push_back({match->first, i, open});
      stack.erase(std::prev(match.base()), stack.end());
    }
  }
  std::ranges::sort(pairs, [](const Pair& a, const Pair& b) { return a.open < b.open; });
  return pairs;
}

std::vector<Statement> list_elements(std::string_view text, const std::vector<Token>& tokens, const Pair& pair,
                                     const std::vector<Pair>& pairs) {
  std::vector<Statement> elements;
  std::optional<std::size_t> first;
  std::size_t last = 0;
  auto inner = pairs.begin();
  for (std::size_t i = pair.open + 1; i < pair.close; ++i) {
    if (tokens[i].kind == TokenKind::comment) continue;
    if (spelling(text, tokens[i]) == ",") {
      if (first) elements.push_back({*first, last});
      first.reset();
      continue;
    }
    if (!first) first = i;
    last = i;
    // Jump over a nested pair: its commas belong to it.
    while (inner != pairs.end() && inner->open < i) ++inner;
    if (inner != pairs.end() && inner->open == i && inner->close < pair.close) {
      i = inner->close;
      last = i;
    }
  }
  if (first) elements.push_back({*first, last});
  return elements;
}

std::optional<std::string> declared_name(std::string_view text, const std::vector<Token>& tokens,
                                         const Statement& statement) {
  const Token& head_token = tokens[statement.first];
  if (head_token.kind == TokenKind::directive) {
    // #define NAME ...: the macro's name.
    std::string_view line = spelling(text, head_token).substr(1);
    line = line.substr(std::min(line.find_first_not_of(" \t"), line.size()));
    if (!line.starts_with("define")) return std::nullopt;
    line = line.substr(6);
    line = line.substr(std::min(line.find_first_not_of(" \t"), line.size()));
    std::size_t end = 0;
    while (end < line.size() && word_char(line[end])) ++end;
    if (end == 0) return std::nullopt;
    return std::string(line.substr(0, end));
  }
  std::vector<std::size_t> code;  // token indices without comments
  for (std::size_t i = statement.first; i <= statement.last; ++i)
    if (tokens[i].kind != TokenKind::comment) code.push_back(i);
  auto word = [&](std::size_t k) { return k < code.size() ? spelling(text, tokens[code[k]]) : std::string_view(); };
  auto is_identifier = [&](std::size_t k) {
    return k < code.size() && tokens[code[k]].kind == TokenKind::identifier && !is_keyword(word(k));
  };
  std::size_t k = 0;
  if (word(0) == "template") {
    const std::size_t after = skip_template_header(text, tokens, code[0], statement.last);
    while (k < code.size() && code[k] < after) ++k;
  }
  if (one_of(word(k),
             {"return", "if",   "for", "while", "do",     "switch",        "case",   "default", "break",     "continue",
              "goto",   "else", "try", "throw", "delete", "static_assert", "public", "private", "protected", "friend"}))
    return std::nullopt;
  if (word(k) == "using") {
    if (is_identifier(k + 1) && word(k + 2) == "=") return std::string(word(k + 1));
    return std::nullopt;
  }
  if (word(k) == "namespace") return is_identifier(k + 1) ? std::optional<std::string>(word(k + 1)) : std::nullopt;
  if (one_of(word(k), {"struct", "class", "union", "enum"})) {
    std::size_t n = k + 1;
    if (word(n) == "class" || word(n) == "struct") ++n;  // enum class
    if (is_identifier(n) && one_of(word(n + 1), {"{", ":", ";", "final"})) return std::string(word(n));
  }
  if (word(k) == "typedef") {
    std::optional<std::string> name;
    for (std::size_t n = k + 1; n < code.size() && word(n) != ";"; ++n)
      if (is_identifier(n) && (word(n - 1) != "::")) name = std::string(word(n));
    return name;
  }
  // A function or variable: the identifier right before the first ( = ; [ { : , — with a
  // type in front of it, so that `f(x);` and `x = 1;` are not declarations.
  for (std::size_t n = k; n < code.size(); ++n) {
    if (!one_of(word(n), {"(", "=", ";", "[", "{", ":", ","})) continue;
    if (n == k || !is_identifier(n - 1)) return std::nullopt;
    if (n - 1 == k) return std::nullopt;  // nothing in front: an expression
    const std::string_view before = word(n - 2);
    if (one_of(before, {"::", ".", "->", "operator", "=", "(", ",", "return"})) return std::nullopt;
    if (word(n - 1) == "main") return std::nullopt;
    return std::string(word(n - 1));
  }
  return std::nullopt;
}

} // namespace cudiff::reducer
