// oracle: which instruction kinds and directives a compiler's PTX uses, as feedback for guided
// generation (cli/guided.h): a program that makes a compiler emit an instruction it never
// emitted before has reached code in its back end that earlier programs did not.
#include "oracle/lines.h"
#include "oracle/oracle.h"

namespace cudiff::oracle {
namespace {

using detail::is_alpha;
using detail::is_digit;
using detail::is_word;

bool is_space_or_newline(char c) { return detail::is_space(c) || c == '\n' || c == '\r'; }

std::string_view trim_all(std::string_view text) {
  while (!text.empty() && is_space_or_newline(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space_or_newline(text.back())) text.remove_suffix(1);
  return text;
}

/// The text without `//` and `/* */` comments (a comment becomes one space). String literals
/// (only in `.pragma "..."` and `.file`) never hold comment markers in compiler output; an
/// unclosed block comment runs to the end.
std::string without_comments(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    if (text[i] == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      i = text.find('\n', i);
      if (i == std::string_view::npos) break;
    } else if (text[i] == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      const std::size_t end = text.find("*/", i + 2);
      out += ' ';
      if (end == std::string_view::npos) break;
      i = end + 2;
    } else {
      out += text[i++];
    }
  }
  return out;
}

/// Leading labels ("$L__BB0_2:", "LBB3_1:", clang's "prototype_7 : .callprototype ...")
/// removed.
std::string_view strip_labels(std::string_view statement) {
  for (;;) {
    statement = trim_all(statement);
    std::size_t i = 0;
    while (i < statement.size() && (is_word(statement[i]) || statement[i] == '$')) ++i;
    std::size_t colon = i;
    while (colon < statement.size() && detail::is_space(statement[colon])) ++colon;
    if (i == 0 || colon >= statement.size() || statement[colon] != ':') return statement;
    statement.remove_prefix(colon + 1);
  }
}

/// The first token: up to a space, a newline, '(' or ','.
std::string_view first_token(std::string_view text) {
  std::size_t end = 0;
  while (end < text.size() && !is_space_or_newline(text[end]) && text[end] != '(' && text[end] != ',') ++end;
  return text.substr(0, end);
}

/// An opcode is letters first, then letters, digits, '_' and '.': "mad.lo.s32", "bar.sync".
/// Anything else (an initializer's "97", a symbol "_Z3fooi", a register list) is not one.
bool is_opcode(std::string_view token) {
  if (token.empty() || !(token.front() >= 'a' && token.front() <= 'z')) return false;
  for (char c : token)
    if (!is_alpha(c) && !is_digit(c) && c != '_' && c != '.') return false;
  return true;
}

bool is_state_space(std::string_view token) {
  return token == ".global" || token == ".shared" || token == ".local" || token == ".const" || token == ".param" ||
         token == ".tex" || token == ".reg";
}

void count(std::map<std::string, std::uint32_t>& map, std::string key) {
  std::uint32_t& value = map[std::move(key)];
  if (value != ~std::uint32_t{0}) ++value;
}

void read_statement(std::string_view statement, PtxFeatures& features) {
  statement = strip_labels(statement);
  if (statement.empty()) return;
  if (statement.front() == '.') {
    // A directive statement can span lines with one directive each (".entry k(" then its
    // ".param" lines, ")" and ".maxntid 256, 1, 1" before the '{'): every line that starts
    // with '.' names one, and the leading dotted tokens of that line its state space.
    detail::for_each_line(statement, [&](std::string_view line) {
      line = trim_all(line);
      if (line.empty() || line.front() != '.') return;
      const std::string_view directive = first_token(line);
      count(features.directives, "directive " + std::string(directive));
      std::string_view rest = line;
      for (int tokens = 0; tokens < 6 && !rest.empty() && rest.front() == '.'; ++tokens) {
        const std::string_view token = first_token(rest);
        if (token.empty()) break;
        if (token != directive && is_state_space(token)) count(features.directives, "space " + std::string(token));
        rest = trim_all(rest.substr(token.size()));
      }
    });
    return;
  }
  if (statement.front() == '@') {  // a guard: "@%p1 bra $L__BB0_2", "@!%p2 ret"
    std::size_t end = 0;
    while (end < statement.size() && !is_space_or_newline(statement[end])) ++end;
    statement = trim_all(statement.substr(end));
  }
  const std::string_view opcode = first_token(statement);
  if (is_opcode(opcode)) count(features.instructions, std::string(opcode));
}

} // namespace

PtxFeatures read_ptx_features(std::string_view ptx) {
  PtxFeatures features;
  const std::string text = without_comments(ptx);
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] != ';' && text[i] != '{' && text[i] != '}') continue;
    read_statement(std::string_view(text).substr(start, i - start), features);
    start = i + 1;
  }
  return features;
}

} // namespace cudiff::oracle
