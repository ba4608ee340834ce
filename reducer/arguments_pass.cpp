// reducer: removing the i-th parameter of a function together with the i-th argument of
// every call (clang_delta's remove-unused-param, on tokens). Declarations and calls look the
// same to it — a name followed by a parenthesized list — so both lose their i-th element in
// one edit; a kernel launch `k<<<...>>>(args)` counts as a call of `k`.
#include "reducer/passes.h"

#include <map>

namespace cudiff::reducer {
namespace {

struct ListUse {
  std::vector<Statement> elements;
  std::size_t open = 0;   ///< token index of '('
  std::size_t close = 0;  ///< token index of ')'
};

/// The edit removing element `i` of every list: an element takes its comma with it.
Edit remove_element(const std::vector<Token>& tokens, const std::vector<ListUse>& uses, std::size_t i) {
  Edit edit;
  for (const ListUse& use : uses) {
    if (i >= use.elements.size()) continue;
    const auto& e = use.elements;
    if (e.size() == 1) edit.remove.push_back({tokens[e[0].first].begin, tokens[e[0].last].end});
    else if (i + 1 < e.size()) edit.remove.push_back({tokens[e[i].first].begin, tokens[e[i + 1].first].begin});
    else edit.remove.push_back({tokens[e[i - 1].last].end, tokens[e[i].last].end});
  }
  return edit;
}

} // namespace

std::vector<Edit> argument_edits(std::string_view text) {
  const std::vector<Token> tokens = tokenize(text);
  const std::vector<Pair> pairs = balanced_pairs(text, tokens);
  std::map<std::size_t, const Pair*> pair_at;  // opening token -> its pair
  for (const Pair& pair : pairs) pair_at.emplace(pair.open, &pair);
  auto next_code = [&](std::size_t i) {
    for (++i; i < tokens.size(); ++i)
      if (tokens[i].kind != TokenKind::comment) return i;
    return tokens.size();
  };

  // Every `name (` and `name <<<...>>> (`, by name, in order of first appearance.
  std::vector<std::string> order;
  std::map<std::string, std::vector<ListUse>, std::less<>> uses;
  std::map<std::string, std::size_t, std::less<>> first_seen;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].kind != TokenKind::identifier || is_keyword(tokens[i].text(text))) continue;
    std::size_t open = next_code(i);
    if (open < tokens.size() && tokens[open].text(text) == "<<<") {
      auto launch = pair_at.find(open);
      if (launch == pair_at.end()) continue;
      open = next_code(launch->second->close);
    }
    if (open >= tokens.size() || tokens[open].text(text) != "(") continue;
    auto pair = pair_at.find(open);
    if (pair == pair_at.end() || pair->second->kind != '(') continue;
    const std::string name(tokens[i].text(text));
    if (first_seen.emplace(name, tokens[i].begin).second) order.push_back(name);
    uses[name].push_back({list_elements(text, tokens, *pair->second, pairs), open, pair->second->close});
  }

  std::vector<Edit> edits;
  for (const std::string& name : order) {
    const std::vector<ListUse>& lists = uses[name];
    std::size_t arity = 0;
    for (const ListUse& use : lists) arity = std::max(arity, use.elements.size());
    for (std::size_t i = 0; i < arity; ++i) {
      Edit edit = remove_element(tokens, lists, i);
      edit.anchor = first_seen[name];
      if (!edit.remove.empty()) edits.push_back(std::move(edit));
    }
  }
  return edits;
}

} // namespace cudiff::reducer
