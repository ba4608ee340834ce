// reducer: the one place that maps pass names (as schedules spell them) to passes.
#include "reducer/passes.h"

#include "common/common.h"

namespace cudiff::reducer {
namespace {

std::size_t one_level(std::string_view) { return 1; }

std::vector<Range> lines(std::string_view text, std::size_t) { return line_units(text); }

/// Every token but brackets: one bracket alone never leaves a program a compiler reads the
/// same way, and the blocks pass removes brackets in matched pairs.
std::vector<Range> tokens(std::string_view text, std::size_t) {
  std::vector<Range> units;
  for (const Range& unit : token_units(text, tokenize(text))) {
    const std::string_view token = text.substr(unit.begin, unit.end - unit.begin);
    if (token.size() == 1 && std::string_view("(){}[]").find(token[0]) != std::string_view::npos) continue;
    units.push_back(unit);
  }
  return units;
}

std::vector<Range> includes(std::string_view text, std::size_t) {
  std::vector<Range> units;
  for (const Token& token : tokenize(text)) {
    if (token.kind != TokenKind::directive) continue;
    std::string_view line = token.text(text).substr(1);
    line.remove_prefix(std::min(line.find_first_not_of(" \t"), line.size()));
    if (line.starts_with("include")) units.push_back({token.begin, token.end});
  }
  return units;
}

std::vector<Range> statements(std::string_view text, std::size_t depth) {
  const std::vector<Token> all = tokenize(text);
  std::vector<Range> units;
  for (const Statement& statement : statements_at(text, all, depth))
    units.push_back(range_of(all, statement.first, statement.last));
  return units;
}

std::size_t depth_levels(std::string_view text) { return max_depth(text, tokenize(text)) + 1; }

struct Entry {
  std::string_view name;
  std::unique_ptr<Pass> (*make)();
};

// The table, in the order docs/reducer.md describes the passes.
constexpr Entry table[] = {
    // Without the caller's oracle (Options::culprits, which the driver gives it) it offers nothing.
    {"focus", []() -> std::unique_ptr<Pass> { return make_focus_pass(nullptr); }},
    {"comments", []() -> std::unique_ptr<Pass> { return std::make_unique<EditListPass>("comments", comment_edits); }},
    {"whitespace",
     []() -> std::unique_ptr<Pass> { return std::make_unique<EditListPass>("whitespace", whitespace_edits); }},
    {"includes",
     []() -> std::unique_ptr<Pass> {
       return std::make_unique<ChunkPass>("includes", one_range_each(includes), one_level, 0);
     }},
    {"host", []() -> std::unique_ptr<Pass> { return std::make_unique<EditListPass>("host", host_function_edits); }},
    {"uses",
     []() -> std::unique_ptr<Pass> {
       return std::make_unique<ChunkPass>("uses", declarations_with_uses, one_level, 0);
     }},
    {"hdd",
     []() -> std::unique_ptr<Pass> {
       return std::make_unique<ChunkPass>("hdd", one_range_each(statements), depth_levels, 0);
     }},
    {"unused",
     []() -> std::unique_ptr<Pass> { return std::make_unique<EditListPass>("unused", unused_declaration_edits); }},
    {"blocks", []() -> std::unique_ptr<Pass> { return std::make_unique<EditListPass>("blocks", block_edits); }},
    {"commas", []() -> std::unique_ptr<Pass> { return std::make_unique<EditListPass>("commas", comma_edits); }},
    {"arguments",
     []() -> std::unique_ptr<Pass> { return std::make_unique<EditListPass>("arguments", argument_edits); }},
    {"simplify", []() -> std::unique_ptr<Pass> { return std::make_unique<EditListPass>("simplify", simplify_edits); }},
    {"asm", []() -> std::unique_ptr<Pass> { return std::make_unique<EditListPass>("asm", asm_edits); }},
    {"lines",
     []() -> std::unique_ptr<Pass> {
       return std::make_unique<ChunkPass>("lines", one_range_each(lines), one_level, 0);
     }},
    {"tokens",
     []() -> std::unique_ptr<Pass> {
       return std::make_unique<ChunkPass>("tokens", one_range_each(tokens), one_level, 4);
     }},
    {"constants",
     []() -> std::unique_ptr<Pass> { return std::make_unique<EditListPass>("constants", constant_edits); }},
    {"rename", []() -> std::unique_ptr<Pass> { return std::make_unique<EditListPass>("rename", rename_edits); }},
};

} // namespace

std::vector<std::string> pass_names() {
  std::vector<std::string> names;
  for (const Entry& entry : table) names.emplace_back(entry.name);
  return names;
}

std::unique_ptr<Pass> make_pass(std::string_view name) {
  for (const Entry& entry : table)
    if (entry.name == name) return entry.make();
  throw_usage("unknown reducer pass '" + std::string(name) + "' (known: " + join(pass_names(), ", ") + ")");
}

} // namespace cudiff::reducer
