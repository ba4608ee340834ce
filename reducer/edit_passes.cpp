// reducer: the edit lists of the single-edit passes — comments, whitespace, balanced blocks,
// list elements, unused declarations, constants.
#include "reducer/passes.h"

#include <algorithm>
#include <charconv>
#include <map>

namespace cudiff::reducer {
namespace {

/// A plain decimal integer literal (no suffix, no separators) and its value.
std::optional<std::int64_t> decimal_value(std::string_view literal) {
  if (literal.empty() || literal.size() > 18) return std::nullopt;
  if (literal.size() > 1 && literal[0] == '0') return std::nullopt;  // octal
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(literal.data(), literal.data() + literal.size(), value);
  if (error != std::errc() || end != literal.data() + literal.size()) return std::nullopt;
  return value;
}

std::optional<std::int64_t> fold(std::int64_t a, std::string_view op, std::int64_t b) {
  constexpr std::int64_t limit = std::int64_t{1} << 31;  // stay far from overflow in any int type
  if (a >= limit || b >= limit) return std::nullopt;
  if (op == "+") return a + b;
  if (op == "-") return a - b;
  if (op == "*") return a * b;
  if (op == "/" && b != 0) return a / b;
  if (op == "%" && b != 0) return a % b;
  if (op == "<<" && b < 31) return a << b;
  if (op == ">>" && b < 63) return a >> b;
  if (op == "&") return a & b;
  if (op == "|") return a | b;
  if (op == "^") return a ^ b;
  return std::nullopt;
}

} // namespace

std::vector<Edit> comment_edits(std::string_view text) {
  const std::vector<Token> tokens = tokenize(text);
  std::vector<Range> comments;
  for (const Token& token : tokens)
    if (token.kind == TokenKind::comment) comments.push_back({token.begin, token.end});
  std::vector<Edit> edits;
  if (comments.empty()) return edits;
  edits.push_back(removal(comments));  // all at once: nearly always fine
  if (comments.size() > 1)
    for (const Range& comment : comments) edits.push_back(removal({comment}));
  return edits;
}

std::vector<Edit> whitespace_edits(std::string_view text) {
  // Indentation, trailing blanks and empty lines go; newlines stay (directives need them).
  std::string out;
  for (const Range& line : line_units(text)) {
    std::string_view content = text.substr(line.begin, line.end - line.begin);
    while (!content.empty() &&
           (content.back() == '\n' || content.back() == ' ' || content.back() == '\t' || content.back() == '\r'))
      content.remove_suffix(1);
    content.remove_prefix(std::min(content.find_first_not_of(" \t"), content.size()));
    out.append(content);
    out.push_back('\n');
  }
  if (out.size() >= text.size()) return {};
  return {replacing({{0, text.size(), out}})};
}

namespace {

/// Whether dropping a pair's brackets (keeping what is inside) can leave valid code: not for
/// a call's or a declarator's parentheses (`f(x)` -> `f x`), nor for a function's or a
/// class's body; yes for grouping parentheses, compound statements, the body of a control
/// statement and braced initializers.
bool brackets_may_go(std::string_view text, const std::vector<Token>& tokens, const std::vector<Pair>& pairs,
                     const Pair& pair) {
  const auto before = previous_code(tokens, pair.open);
  const std::string_view previous = before ? spelling(text, tokens[*before]) : ";";
  if (pair.kind == '(') return !before || tokens[*before].kind != TokenKind::identifier || is_keyword(previous);
  if (pair.kind != '{') return false;
  if (one_of(previous, {";", "{", "}", "else", "do", "=", "return", ",", "("})) return true;
  if (previous != ")") return false;
  // `if (...) {`, `for (...) {`, `while (...) {`: the header's '(' follows the keyword.
  for (const Pair& header : pairs)
    if (header.close == *before) {
      const auto keyword = previous_code(tokens, header.open);
      return keyword && one_of(spelling(text, tokens[*keyword]), {"if", "for", "while", "switch"});
    }
  return false;
}

/// `extern "C" {` and `namespace N {`: where the head that wraps the block starts, so the
/// block can be unwrapped (head and braces gone, the declarations inside kept).
std::optional<std::size_t> wrapper_head(std::string_view text, const std::vector<Token>& tokens, const Pair& pair) {
  if (pair.kind != '{') return std::nullopt;
  const auto before = previous_code(tokens, pair.open);
  if (!before) return std::nullopt;
  if (spelling(text, tokens[*before]) == "namespace") return *before;
  const auto head = previous_code(tokens, *before);
  if (!head) return std::nullopt;
  const std::string_view word = spelling(text, tokens[*head]);
  if ((word == "extern" && tokens[*before].kind == TokenKind::string) ||
      (word == "namespace" && tokens[*before].kind == TokenKind::identifier))
    return *head;
  return std::nullopt;
}

} // namespace

std::vector<Edit> block_edits(std::string_view text) {
  const std::vector<Token> tokens = tokenize(text);
  const std::vector<Pair> pairs = balanced_pairs(text, tokens);
  std::vector<Edit> edits;
  for (const Pair& pair : pairs) {
    if (pair.kind == 'L') continue;  // a launch without its configuration is never valid
    const Range whole = range_of(tokens, pair.open, pair.close);
    edits.push_back(removal({whole}));
    if (pair.close > pair.open + 1) edits.push_back(replacing({{tokens[pair.open].end, tokens[pair.close].begin, ""}}));
    if (brackets_may_go(text, tokens, pairs, pair))  // keep the contents, drop the brackets
      edits.push_back(removal({range_of(tokens, pair.open, pair.open), range_of(tokens, pair.close, pair.close)}));
    if (const auto head = wrapper_head(text, tokens, pair))  // unwrap: `namespace N {` ... `}` gone
      edits.push_back(
          removal({range_of(tokens, *head, pair.open), range_of(tokens, pair.close, pair.close)}, whole.begin));
  }
  return edits;
}

std::vector<Edit> comma_edits(std::string_view text) {
  const std::vector<Token> tokens = tokenize(text);
  const std::vector<Pair> pairs = balanced_pairs(text, tokens);
  std::vector<Edit> edits;
  for (const Pair& pair : pairs) {
    if (pair.kind == '[') continue;
    const std::vector<Statement> elements = list_elements(text, tokens, pair, pairs);
    if (elements.size() < 2) continue;  // a single element is the blocks pass's "contents"
    // First each element alone (ddmin's subsets before its complements): of a probe list
    // `{sizeof(T), alignof(T), offsetof(T, m)}` the first that still differs may need far
    // less of T than what one-by-one removal, front first, happens to keep. With two
    // elements these are the removals below, answered from the cache.
    const std::size_t list_start = tokens[elements.front().first].begin;
    if (elements.size() > 2)
      for (std::size_t i = 0; i < elements.size(); ++i) {
        std::vector<Range> others;
        if (i > 0) others.push_back({list_start, tokens[elements[i].first].begin});
        if (i + 1 < elements.size()) others.push_back({tokens[elements[i].last].end, tokens[elements.back().last].end});
        edits.push_back(removal(std::move(others), list_start));
      }
    for (std::size_t i = 0; i < elements.size(); ++i) {
      // An element takes its comma with it: the one after it, or before it for the last one.
      const Range range = i + 1 < elements.size()
                              ? Range{tokens[elements[i].first].begin, tokens[elements[i + 1].first].begin}
                              : Range{tokens[elements[i - 1].last].end, tokens[elements[i].last].end};
      edits.push_back(removal({range}, tokens[elements[i].first].begin));
    }
  }
  return edits;
}

std::vector<UnusedDeclaration> unused_declarations(std::string_view text, const std::vector<Token>& tokens) {
  // Every use of every name, by token: identifiers, and the words inside directives (macros).
  std::map<std::string, std::size_t, std::less<>> total;
  std::vector<std::vector<std::string>> names_in(tokens.size());
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].kind == TokenKind::identifier) names_in[i].emplace_back(spelling(text, tokens[i]));
    if (tokens[i].kind == TokenKind::directive) {
      const std::string line = " " + std::string(spelling(text, tokens[i]).substr(1));
      for (const Token& word : tokenize(line))
        if (word.kind == TokenKind::identifier) names_in[i].emplace_back(word.text(line));
    }
    for (const std::string& name : names_in[i]) ++total[name];
  }
  auto used_elsewhere = [&](const std::string& name, const Statement& statement) {
    std::size_t inside = 0;
    for (std::size_t i = statement.first; i <= statement.last; ++i) inside += std::ranges::count(names_in[i], name);
    return total[name] > inside;
  };
  std::vector<UnusedDeclaration> unused;
  const std::size_t depths = max_depth(text, tokens);
  for (std::size_t depth = 0; depth <= depths; ++depth)
    for (const Statement& statement : statements_at(text, tokens, depth)) {
      const auto name = declared_name(text, tokens, statement);
      if (!name || used_elsewhere(*name, statement)) continue;
      bool kernel = false;
      for (std::size_t i = statement.first; i <= statement.last && !kernel; ++i)
        kernel = spelling(text, tokens[i]) == "__global__";
      unused.push_back({statement, range_of(tokens, statement.first, statement.last), kernel});
    }
  return unused;
}

std::vector<Edit> unused_declaration_edits(std::string_view text) {
  const std::vector<Token> tokens = tokenize(text);
  std::vector<Edit> edits;
  // First every unused declaration but the kernels at once (a kernel is an entry point, as
  // main is: nothing names it once the host side is gone, yet it is what a device bug needs),
  // then each one alone.
  std::vector<Range> all;
  for (const UnusedDeclaration& unused : unused_declarations(text, tokens)) {
    edits.push_back(removal({unused.range}));
    if (!unused.kernel) all.push_back(unused.range);
  }
  if (all.size() > 1) edits.insert(edits.begin(), removal(all));
  return edits;
}

/// The tokens inside `__launch_bounds__(...)`: a bound is the launch's contract, and 0 there
/// (what nvcc and clang take without a word) is no reduction a compiler team accepts.
std::vector<bool> in_launch_bounds(std::string_view text, const std::vector<Token>& tokens) {
  std::vector<bool> inside(tokens.size(), false);
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (spelling(text, tokens[i]) != "__launch_bounds__") continue;
    int depth = 0;
    for (std::size_t j = i + 1; j < tokens.size(); ++j) {
      const std::string_view t = spelling(text, tokens[j]);
      if (t == "(") ++depth;
      else if (t == ")" && --depth == 0) break;
      inside[j] = depth > 0;
    }
  }
  return inside;
}

std::vector<Edit> constant_edits(std::string_view text) {
  const std::vector<Token> tokens = tokenize(text);
  const std::vector<bool> bound = in_launch_bounds(text, tokens);
  std::vector<Edit> edits;
  // `2 * 16` -> `32` where nothing around binds tighter than the operator could.
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].kind != TokenKind::number || bound[i]) continue;
    const auto op = next_code(tokens, i);
    const auto right = op ? next_code(tokens, *op) : std::nullopt;
    if (!right || tokens[*right].kind != TokenKind::number) continue;
    const auto before = previous_code(tokens, i);
    const auto after = next_code(tokens, *right);
    const std::string_view left_context = before ? spelling(text, tokens[*before]) : ";";
    const std::string_view right_context = after ? spelling(text, tokens[*after]) : ";";
    if (!one_of(left_context, {"(", ",", "=", "[", "{", ";", "return", "<<<", "?", ":"}) ||
        !one_of(right_context, {")", ",", ";", "]", "}", ">>>", "?", ":"}))
      continue;
    const auto a = decimal_value(spelling(text, tokens[i]));
    const auto b = decimal_value(spelling(text, tokens[*right]));
    if (!a || !b) continue;
    if (const auto value = fold(*a, spelling(text, tokens[*op]), *b))
      edits.push_back(replacing({{tokens[i].begin, tokens[*right].end, std::to_string(*value)}}));
  }
  // Every longer literal tried as 0, then as 1.
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const Token& token = tokens[i];
    if (token.kind != TokenKind::number || token.end - token.begin < 2 || bound[i]) continue;
    edits.push_back(replacing({{token.begin, token.end, "0"}}));
    edits.push_back(replacing({{token.begin, token.end, "1"}}));
  }
  // Every use of a name inside an expression tried as 0: it cuts the last tie between two
  // statements (`int c = (a, f(c));` keeps its declaration only for the `c` in it), which no
  // removal can, as C-Reduce's replace-var-with-0 does.
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].kind != TokenKind::identifier || is_keyword(spelling(text, tokens[i])) || bound[i]) continue;
    const auto before = previous_code(tokens, i);
    const auto after = next_code(tokens, i);
    if (!before || !after) continue;
    if (!one_of(spelling(text, tokens[*before]),
                {"(",  ",",  "=",  "[",  "return", "?",  ":",  "+",  "-",  "*",  "/",  "%",  "&",  "|",  "^",  "!", "~",
                 "<<", ">>", "<=", ">=", "==",     "!=", "&&", "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^="}) ||
        !one_of(spelling(text, tokens[*after]), {")", ",", ";",  "]",  "?", ":", "+",  "-",  "*",  "/",  "%",  "&",
                                                 "|", "^", "<<", ">>", "<", ">", "<=", ">=", "==", "!=", "&&", "||"}))
      continue;
    edits.push_back(replacing({{tokens[i].begin, tokens[i].end, "0"}}));
  }
  return edits;
}

} // namespace cudiff::reducer
