// reducer: the `focus` pass — the kernels a failure below the source needs, named by the
// caller's oracle (ptxas on the text's PTX, entry by entry), kept alone with what they use, in
// one candidate; and the ddmin over a PTX text's `.entry` blocks that finds them.
#include "reducer/passes.h"

#include "common/common.h"

#include <map>

namespace cudiff::reducer {
namespace {

/// Per token: the namespaces around it (`a::b`, "" at file scope) when every brace around it
/// opens a namespace or an `extern "C"` block; none inside a function, class or initializer.
std::vector<std::optional<std::string>> namespace_scopes(std::string_view text, const std::vector<Token>& tokens) {
  std::vector<std::optional<std::string>> scopes(tokens.size());
  // One entry per open brace: its name ("" for extern "C"), none for any other brace.
  std::vector<std::optional<std::string>> open;
  auto current = [&]() -> std::optional<std::string> {
    std::string path;
    for (const auto& level : open) {
      if (!level) return std::nullopt;
      if (level->empty()) continue;
      path += path.empty() ? *level : "::" + *level;
    }
    return path;
  };
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const std::string_view word = spelling(text, tokens[i]);
    if (word == "}" && !open.empty()) open.pop_back();
    scopes[i] = current();
    if (word != "{") continue;
    std::optional<std::string> level;
    const auto before = previous_code(tokens, i);
    if (before && spelling(text, tokens[*before]) == "namespace") {
      level = "(anonymous namespace)";  // how a demangler spells it
    } else if (before && tokens[*before].kind == TokenKind::string) {
      const auto head = previous_code(tokens, *before);
      if (head && spelling(text, tokens[*head]) == "extern") level = "";
    } else if (before && tokens[*before].kind == TokenKind::identifier) {
      // `namespace a::b {`: back over names and `::` to the keyword.
      std::string name;
      for (auto j = before; j; j = previous_code(tokens, *j)) {
        const std::string_view part = spelling(text, tokens[*j]);
        if (part == "namespace") {
          level = name;
          break;
        }
        if (part != "::" && tokens[*j].kind != TokenKind::identifier) break;
        name.insert(0, part);
      }
    }
    open.push_back(level);
  }
  return scopes;
}

/// A `__global__` declaration at namespace scope: its qualified name and its text.
struct Kernel {
  std::string scope;
  std::string name;  ///< empty when it could not be read (a template's explicit instantiation)
  Range range;
};

std::vector<Kernel> kernels_of(std::string_view text, const std::vector<Token>& tokens) {
  const auto scopes = namespace_scopes(text, tokens);
  std::vector<Kernel> kernels;
  const std::size_t depths = max_depth(text, tokens);
  for (std::size_t depth = 0; depth <= depths; ++depth)
    for (const Statement& statement : statements_at(text, tokens, depth)) {
      if (!scopes[statement.first]) continue;
      // The head, up to the body or the `;`: `__global__` there, and the name before the last
      // parenthesis at its top level (`__launch_bounds__(64)` comes before the parameters).
      bool global = false;
      std::optional<std::size_t> parameters;
      int parens = 0;
      for (std::size_t i = statement.first; i <= statement.last; ++i) {
        const std::string_view word = spelling(text, tokens[i]);
        if (word == "{" || word == ";") break;
        if (word == "__global__") global = true;
        if (word == "(" && parens++ == 0) parameters = i;
        if (word == ")") --parens;
      }
      if (!global) continue;
      Kernel kernel{*scopes[statement.first], {}, range_of(tokens, statement.first, statement.last)};
      if (parameters)
        if (const auto name = previous_code(tokens, *parameters);
            name && tokens[*name].kind == TokenKind::identifier && !is_keyword(spelling(text, tokens[*name])))
          kernel.name = std::string(spelling(text, tokens[*name]));
      kernels.push_back(std::move(kernel));
    }
  return kernels;
}

bool named(const std::vector<std::string>& names, const Kernel& kernel) {
  if (kernel.name.empty()) return false;
  const std::string qualified = kernel.scope.empty() ? kernel.name : kernel.scope + "::" + kernel.name;
  for (const std::string& name : names)
    if (name == qualified || (name.find("::") == std::string::npos && name == kernel.name)) return true;
  return false;
}

/// The text without the kernels `names` does not name; none when it names none of them.
std::optional<std::string> other_kernels_removed(std::string_view text, const std::vector<std::string>& names) {
  const std::vector<Kernel> kernels = kernels_of(text, tokenize(text));
  std::vector<Range> others;
  bool any = false;
  for (const Kernel& kernel : kernels) {
    if (named(names, kernel)) any = true;
    // An unreadable name is kept: it may be what the failure needs.
    else if (!kernel.name.empty()) others.push_back(kernel.range);
  }
  if (!any) return std::nullopt;
  return remove_ranges(text, others);
}

/// The `focus` pass: at most two candidates, the whole focus first, then the other kernels
/// alone removed. Stateless but for the memory of its oracle's answers: asking costs a
/// compile, and the driver asks for the same text's edits several times.
class FocusPass : public Pass {
public:
  explicit FocusPass(Culprits culprits) : culprits_(std::move(culprits)) {}
  std::string_view name() const override { return "focus"; }
  std::optional<Cursor> start(std::string_view text) const override {
    if (candidates(text).empty()) return std::nullopt;
    return Cursor{0, 1, 0, 0};
  }
  std::optional<std::string> apply(std::string_view text, const Cursor& cursor) const override {
    const std::vector<std::string>& list = candidates(text);
    if (cursor.index >= list.size()) return std::nullopt;
    return list[cursor.index];
  }
  std::optional<Cursor> advance(std::string_view text, const Cursor& cursor) const override {
    if (cursor.index + 1 >= candidates(text).size()) return std::nullopt;
    return Cursor{0, 1, cursor.index + 1, 0};
  }
  // One focus is the point: the text left has the culprits alone, and the passes go on.
  std::optional<Cursor> advance_on_success(std::string_view, const Cursor&) const override { return std::nullopt; }

private:
  const std::vector<std::string>& candidates(std::string_view text) const {
    const std::uint64_t key = fnv1a64(text);
    if (auto known = memory_.find(key); known != memory_.end()) return known->second;
    std::vector<std::string> list;
    const std::vector<std::string> names = culprits_ ? culprits_(std::string(text)) : std::vector<std::string>{};
    if (!names.empty()) {
      std::string whole = focus_on(text, names);
      if (whole != text) list.push_back(std::move(whole));
      if (auto fewer = other_kernels_removed(text, names);
          fewer && *fewer != text && (list.empty() || list.front() != *fewer))
        list.push_back(std::move(*fewer));
    }
    return memory_[key] = std::move(list);
  }

  Culprits culprits_;
  mutable std::map<std::uint64_t, std::vector<std::string>> memory_;
};

std::vector<std::vector<Range>> entry_units(std::string_view ptx, std::size_t) {
  std::vector<std::vector<Range>> units;
  for (const PtxEntry& entry : ptx_entries(ptx))
    if (entry.defined) units.push_back({{entry.begin, entry.end}});
  return units;
}

} // namespace

std::string focus_on(std::string_view text, const std::vector<std::string>& kernels) {
  std::optional<std::string> focused = other_kernels_removed(text, kernels);
  if (!focused) return std::string(text);
  std::string out = std::move(*focused);
  for (const Edit& edit : host_function_edits(out)) out = reducer::apply(out, edit);
  // What only the removed code named, to a fixpoint: a namespace goes once the declarations
  // that named it have gone. Declarations inside functions stay (an unused local's initializer
  // may be what the compiler chokes on); the kernels left stay, whatever names them.
  for (int round = 0; round < 32; ++round) {
    const std::vector<Token> tokens = tokenize(out);
    const auto scopes = namespace_scopes(out, tokens);
    std::vector<Range> gone;
    for (const UnusedDeclaration& unused : unused_declarations(out, tokens))
      if (!unused.kernel && scopes[unused.statement.first]) gone.push_back(unused.range);
    if (gone.empty()) break;
    out = remove_ranges(out, std::move(gone));
  }
  return out;
}

std::unique_ptr<Pass> make_focus_pass(Culprits culprits) { return std::make_unique<FocusPass>(std::move(culprits)); }

std::unique_ptr<Pass> make_entries_pass() {
  return std::make_unique<ChunkPass>("entries", entry_units, [](std::string_view) -> std::size_t { return 1; }, 0);
}

} // namespace cudiff::reducer
