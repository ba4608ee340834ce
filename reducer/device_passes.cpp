// reducer: the edit lists of the passes that know CUDA's split of a file and inline PTX —
// `host` (every host-only function at once) and `asm` (an inline-PTX template's instructions,
// each cut taking the instructions nothing reads any more with it).
#include "reducer/passes.h"

#include <algorithm>
#include <map>
#include <set>

namespace cudiff::reducer {
namespace {

/// `namespace N {`, `namespace {` and `extern "C" {`: a block whose declarations are at
/// namespace scope.
bool wraps_declarations(std::string_view text, const std::vector<Token>& tokens, const Pair& pair) {
  if (pair.kind != '{') return false;
  const auto before = previous_code(tokens, pair.open);
  if (!before) return false;
  if (spelling(text, tokens[*before]) == "namespace") return true;
  const auto head = previous_code(tokens, *before);
  if (!head) return false;
  const std::string_view word = spelling(text, tokens[*head]);
  return (word == "extern" && tokens[*before].kind == TokenKind::string) ||
         (word == "namespace" && tokens[*before].kind == TokenKind::identifier);
}

} // namespace

std::vector<Edit> host_function_edits(std::string_view text) {
  const std::vector<Token> tokens = tokenize(text);
  const std::vector<Pair> pairs = balanced_pairs(text, tokens);
  std::map<std::size_t, std::size_t> open_of_close;  // ')' -> '('
  for (const Pair& pair : pairs)
    if (pair.kind == '(') open_of_close[pair.close] = pair.open;
  std::vector<Range> host;
  for (const Pair& body : pairs) {
    if (body.kind != '{') continue;
    // At namespace scope: every brace pair around it wraps declarations.
    const bool namespace_scope = std::ranges::all_of(pairs, [&](const Pair& outer) {
      return outer.kind != '{' || !(outer.open < body.open && outer.close > body.close) ||
             wraps_declarations(text, tokens, outer);
    });
    if (!namespace_scope) continue;
    // A function body follows its parameter list (and qualifiers), which follows its name.
    auto paren = previous_code(tokens, body.open);
    while (paren && one_of(spelling(text, tokens[*paren]), {"const", "noexcept", "override", "final", "volatile"}))
      paren = previous_code(tokens, *paren);
    if (!paren || spelling(text, tokens[*paren]) != ")" || !open_of_close.contains(*paren)) continue;
    const auto name = previous_code(tokens, open_of_close[*paren]);
    if (!name || tokens[*name].kind != TokenKind::identifier || is_keyword(spelling(text, tokens[*name]))) continue;
    // The declaration's head: back to the end of the previous declaration.
    std::size_t start = *name;
    bool device = false, other = false;
    for (auto i = previous_code(tokens, *name); i; i = previous_code(tokens, *i)) {
      const std::string_view word = spelling(text, tokens[*i]);
      if (tokens[*i].kind == TokenKind::directive || one_of(word, {";", "{", "}"})) break;
      if (one_of(word, {"__device__", "__global__"})) device = true;
      if (one_of(word, {"=", "class", "struct", "union", "enum", "namespace", "operator"})) other = true;
      start = *i;
    }
    if (device || other) continue;
    host.push_back({tokens[start].begin, tokens[body.close].end});
  }
  if (host.empty()) return {};
  return {removal(std::move(host))};
}

// ---- inline PTX -------------------------------------------------------------------------

namespace {

/// PTX instructions that do more than write their first operand: never dead.
bool has_side_effect(std::string_view opcode) {
  const std::string_view base = opcode.substr(0, opcode.find('.'));
  return one_of(base, {"st",         "stcs",          "red",     "atom",      "bar",       "barrier",
                       "bra",        "brx",           "call",    "ret",       "exit",      "membar",
                       "fence",      "trap",          "brkpt",   "prefetch",  "prefetchu", "cp",
                       "mbarrier",   "stmatrix",      "discard", "nanosleep", "pmevent",   "griddepcontrol",
                       "setmaxnreg", "tensormap",     "sust",    "sured",     "wgmma",     "tcgen05",
                       "multimem",   "applypriority", "suq"});
}

bool register_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '$'; }
bool register_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '$'; }

/// The registers a piece of PTX names (`%%ct0` in an asm template with operands, `%r1` in one
/// without), without their `%`.
std::vector<std::string> registers_in(std::string_view body) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < body.size(); ++i) {
    if (body[i] != '%') continue;
    std::size_t j = i + 1;
    if (j < body.size() && body[j] == '%') ++j;
    if (j >= body.size() || !register_start(body[j])) {
      i = j - 1;
      continue;
    }
    std::size_t end = j;
    while (end < body.size() && register_char(body[end])) ++end;
    names.emplace_back(body.substr(j, end - j));
    i = end - 1;
  }
  return names;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

/// One string literal of an asm template: what it holds, read as PTX.
struct Piece {
  enum Kind { structure, declaration, label, instruction, opaque } kind = opaque;
  Range range;
  std::string label_name;               ///< a label's name
  std::vector<std::string> declared;    ///< a `.reg` line's names; `ct<` for `%%ct<8>`
  std::vector<std::string> writes;      ///< an instruction's destination registers
  std::vector<std::string> reads;       ///< every other register it names, and the words (labels) it names
  bool writes_output = false;           ///< its destination is an asm operand (`%0`)
};

/// The PTX of a string literal's contents: the escapes `\n` `\t` as blanks.
std::string unescaped(std::string_view literal) {
  std::string out;
  for (std::size_t i = 1; i + 1 < literal.size(); ++i) {
    if (literal[i] == '\\' && i + 2 < literal.size()) {
      out.push_back(' ');
      ++i;
      continue;
    }
    out.push_back(literal[i]);
  }
  return out;
}

std::vector<std::string> words_in(std::string_view body) {
  std::vector<std::string> words;
  for (std::size_t i = 0; i < body.size();) {
    if (register_start(body[i]) &&
        (i == 0 || (!register_char(body[i - 1]) && body[i - 1] != '%' && body[i - 1] != '.'))) {
      std::size_t end = i;
      while (end < body.size() && register_char(body[end])) ++end;
      words.emplace_back(body.substr(i, end - i));
      i = end;
    } else {
      ++i;
    }
  }
  return words;
}

Piece read_piece(std::string_view literal, Range range) {
  Piece piece;
  piece.range = range;
  const std::string contents = unescaped(literal);
  const std::string_view body = trim(contents);
  if (body == "{" || body == "}" || body.empty()) {
    piece.kind = Piece::structure;
    return piece;
  }
  if (std::ranges::count(body, ';') > 1 || body.find('{') != std::string_view::npos ||
      body.find('}') != std::string_view::npos)
    return piece;  // opaque: several statements in one literal
  if (body.starts_with(".reg")) {
    piece.kind = Piece::declaration;
    for (const std::string& name : registers_in(body)) {
      const bool range_form = body.find(name + "<") != std::string_view::npos;
      piece.declared.push_back(range_form ? name + "<" : name);
    }
    return piece;
  }
  if (body.back() == ':' && body.find(' ') == std::string_view::npos) {
    piece.kind = Piece::label;
    piece.label_name = std::string(body.substr(0, body.size() - 1));
    return piece;
  }
  if (body.back() != ';' || body.front() == '.') return piece;
  std::string_view statement = body.substr(0, body.size() - 1);
  std::string_view guard;
  if (statement.starts_with("@")) {
    const std::size_t space = statement.find(' ');
    if (space == std::string_view::npos) return piece;
    guard = statement.substr(0, space);
    statement = trim(statement.substr(space));
  }
  const std::size_t space = statement.find(' ');
  const std::string_view opcode = statement.substr(0, space);
  const std::string_view operands = space == std::string_view::npos ? "" : statement.substr(space);
  piece.kind = Piece::instruction;
  piece.reads = registers_in(guard);
  const std::size_t comma = operands.find(',');
  const std::string_view first = trim(operands.substr(0, comma));
  const std::string_view rest = comma == std::string_view::npos ? "" : operands.substr(comma);
  const std::vector<std::string> first_registers = registers_in(first);
  // A destination is registers alone (`%%p|%%q` for setp's pair).
  const bool only_registers = !first_registers.empty() && first.find('[') == std::string_view::npos &&
                              first.find('{') == std::string_view::npos;
  if (!has_side_effect(opcode) && only_registers && comma != std::string_view::npos) {
    piece.writes = first_registers;
  } else {
    for (std::string& name : registers_in(first)) piece.reads.push_back(std::move(name));
    if (!has_side_effect(opcode) && first.starts_with("%") && first.size() > 1 &&
        (std::isdigit(static_cast<unsigned char>(first[1])) != 0 || first[1] == '['))
      piece.writes_output = true;
  }
  for (std::string& name : registers_in(rest)) piece.reads.push_back(std::move(name));
  // Labels a branch names are read like registers.
  for (std::string& word : words_in(operands)) piece.reads.push_back(std::move(word));
  return piece;
}

/// An asm statement's template: its string literals, in order.
std::vector<std::vector<Piece>> asm_templates(std::string_view text, const std::vector<Token>& tokens) {
  std::vector<std::vector<Piece>> templates;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (!one_of(spelling(text, tokens[i]), {"asm", "__asm__", "__asm"})) continue;
    auto next = next_code(tokens, i);
    while (next && one_of(spelling(text, tokens[*next]), {"volatile", "__volatile__", "goto", "inline"}))
      next = next_code(tokens, *next);
    if (!next || spelling(text, tokens[*next]) != "(") continue;
    std::vector<Piece> pieces;
    for (auto string = next_code(tokens, *next); string && tokens[*string].kind == TokenKind::string;
         string = next_code(tokens, *string))
      pieces.push_back(read_piece(spelling(text, tokens[*string]), {tokens[*string].begin, tokens[*string].end}));
    if (!pieces.empty()) templates.push_back(std::move(pieces));
  }
  return templates;
}

/// The pieces that go with `removed`: instructions whose every destination nothing left reads,
/// labels no branch left names, `.reg` lines none of whose registers is named any more. Returns
/// every piece to remove, `removed` included.
std::vector<bool> with_dead_code(const std::vector<Piece>& pieces, std::vector<bool> removed) {
  std::map<std::string, std::size_t, std::less<>> reads;  // by live instructions
  for (std::size_t i = 0; i < pieces.size(); ++i)
    if (!removed[i])
      for (const std::string& name : pieces[i].reads) ++reads[name];
  // Last to first: a value is read after it is written, so one sweep takes most chains whole
  // (a loop's back edge may need another).
  bool changed = true;
  while (changed) {
    changed = false;
    for (std::size_t i = pieces.size(); i-- > 0;) {
      const Piece& piece = pieces[i];
      if (removed[i] || piece.kind != Piece::instruction || piece.writes.empty()) continue;
      const bool dead = std::ranges::all_of(piece.writes, [&](const std::string& name) {
        const std::size_t own = static_cast<std::size_t>(std::ranges::count(piece.reads, name));
        const auto found = reads.find(name);
        return found == reads.end() || found->second <= own;
      });
      if (!dead) continue;
      removed[i] = true;
      changed = true;
      for (const std::string& name : piece.reads) --reads[name];
    }
  }
  std::set<std::string, std::less<>> named;  // by what is left
  for (std::size_t i = 0; i < pieces.size(); ++i)
    if (!removed[i] && pieces[i].kind == Piece::instruction) {
      named.insert(pieces[i].reads.begin(), pieces[i].reads.end());
      named.insert(pieces[i].writes.begin(), pieces[i].writes.end());
    }
  const auto is_named = [&](const std::string& declared) {
    if (!declared.ends_with('<')) return named.contains(declared);
    const std::string prefix = declared.substr(0, declared.size() - 1);
    for (auto it = named.lower_bound(prefix); it != named.end() && it->starts_with(prefix); ++it)
      if (it->size() > prefix.size() && std::ranges::all_of(it->substr(prefix.size()), [](char c) {
            return std::isdigit(static_cast<unsigned char>(c));
          }))
        return true;
    return false;
  };
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    if (removed[i]) continue;
    if (pieces[i].kind == Piece::label && !named.contains(pieces[i].label_name)) removed[i] = true;
    if (pieces[i].kind == Piece::declaration && std::ranges::none_of(pieces[i].declared, is_named)) removed[i] = true;
  }
  return removed;
}

std::optional<Edit> removal_of(const std::vector<Piece>& pieces, const std::vector<bool>& removed, std::size_t anchor) {
  std::vector<Range> ranges;
  for (std::size_t i = 0; i < pieces.size(); ++i)
    if (removed[i]) ranges.push_back(pieces[i].range);
  if (ranges.empty()) return std::nullopt;
  return removal(std::move(ranges), anchor);
}

} // namespace

std::vector<Edit> asm_edits(std::string_view text) {
  const std::vector<Token> tokens = tokenize(text);
  std::vector<Edit> edits;
  for (const std::vector<Piece>& pieces : asm_templates(text, tokens)) {
    const std::size_t start = pieces.front().range.begin;
    const std::vector<bool> none(pieces.size(), false);
    // The dead code alone, then each write of an asm output with what only it needed.
    if (auto edit = removal_of(pieces, with_dead_code(pieces, none), start)) edits.push_back(std::move(*edit));
    for (std::size_t i = 0; i < pieces.size(); ++i) {
      if (!pieces[i].writes_output) continue;
      std::vector<bool> removed = none;
      removed[i] = true;
      if (auto edit = removal_of(pieces, with_dead_code(pieces, removed), start)) edits.push_back(std::move(*edit));
    }
    // Aligned runs of instructions, halves first down to one, each with what it leaves dead.
    // Each belongs where its run starts; the dead code it takes may lie before that (the
    // producers of what the run read), which moves the text after it up, so the walk may
    // resume a few instructions behind: the main phase's next round runs the pass again.
    std::vector<std::size_t> units;
    for (std::size_t i = 0; i < pieces.size(); ++i)
      if (pieces[i].kind == Piece::instruction || pieces[i].kind == Piece::opaque) units.push_back(i);
    std::size_t size = 1;
    while (size * 2 <= units.size() / 2) size *= 2;
    for (std::size_t first = 0; first < units.size(); ++first)
      for (std::size_t chunk = size; chunk >= 1; chunk /= 2) {
        if (first % chunk != 0) continue;
        std::vector<bool> removed = none;
        for (std::size_t k = first; k < std::min(units.size(), first + chunk); ++k) removed[units[k]] = true;
        if (auto edit = removal_of(pieces, with_dead_code(pieces, removed), pieces[units[first]].range.begin))
          edits.push_back(std::move(*edit));
      }
  }
  return edits;
}

} // namespace cudiff::reducer
