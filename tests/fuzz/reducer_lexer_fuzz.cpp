// libFuzzer harness: program text through common's tokenizer as the reducer reads it (and as
// the preprocessor does), the reducer's text units (lines, statements, pairs, list elements,
// declared names, removals) and the first candidates of one pass (picked by the size) — all
// pure functions of the text; nothing is compiled.
//
/// Input: any bytes, read as a (possibly broken) C++/CUDA program. The contracts
/// (common/cpp_lexer.h, reducer/text_units.h): tokenize never throws and its tokens are
/// ordered, non-empty and inside the text; the units and passes never throw on any text.
#include "reducer/reducer.h"
#include "reducer/text_units.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace {

using namespace cudiff::reducer;

/// A pass's first few candidates, taking every other one as a success, as the driver would.
void walk(const Pass& pass, std::string text) {
  std::optional<Cursor> cursor = pass.start(text);
  for (int step = 0; cursor && step < 6; ++step) {
    std::optional<std::string> candidate = pass.apply(text, *cursor);
    if (candidate && step % 2 == 1) {
      text = std::move(*candidate);
      cursor = pass.advance_on_success(text, *cursor);
    } else {
      cursor = pass.advance(text, *cursor);
    }
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  const std::vector<Token> tokens = tokenize(text);
  for (const std::vector<Token>& read : {tokens, tokenize(text, cudiff::cpp::LexOptions{.preprocessor = true})}) {
    std::size_t previous_end = 0;
    int previous_line = 1;
    for (const Token& token : read) {
      if (token.begin < previous_end || token.end <= token.begin || token.end > text.size()) __builtin_trap();
      if (token.line < previous_line) __builtin_trap();
      previous_end = token.end;
      previous_line = token.line;
    }
  }
  if (count_tokens(text) > 2 * text.size() + 1) __builtin_trap();

  const std::vector<Range> lines = line_units(text);
  const std::vector<Range> units = token_units(text, tokens);
  const std::size_t deepest = max_depth(text, tokens);
  for (std::size_t depth = 0; depth <= std::min<std::size_t>(deepest, 4); ++depth)
    for (const Statement& statement : statements_at(text, tokens, depth)) {
      if (statement.first > statement.last || statement.last >= tokens.size()) __builtin_trap();
      static_cast<void>(declared_name(text, tokens, statement));
    }
  const std::vector<Pair> pairs = balanced_pairs(text, tokens);
  for (std::size_t i = 0; i < pairs.size() && i < 32; ++i) {
    if (pairs[i].open >= pairs[i].close || pairs[i].close >= tokens.size()) __builtin_trap();
    static_cast<void>(list_elements(text, tokens, pairs[i], pairs));
  }

  // Removals and replacements over real units, overlapping ones included.
  std::vector<Range> every_other_line, every_third_token;
  for (std::size_t i = 0; i < lines.size(); i += 2) every_other_line.push_back(lines[i]);
  for (std::size_t i = 0; i < units.size(); i += 3) every_third_token.push_back(units[i]);
  if (remove_ranges(text, every_other_line).size() > text.size()) __builtin_trap();
  if (remove_ranges(text, every_third_token).size() > text.size()) __builtin_trap();
  std::vector<Replacement> replacements;
  for (std::size_t i = 0; i < units.size() && i < 16; ++i) replacements.push_back({units[i].begin, units[i].end, "0"});
  static_cast<void>(replace(text, replacements));

  // One pass per input, picked by its size, so that an input costs one walk and not fourteen
  // (every pass tokenizes again at each step): the fuzzer reaches every pass through sizes.
  const std::vector<std::string> names = pass_names();
  walk(*make_pass(names[text.size() % names.size()]), std::string(text));
  return 0;
}
