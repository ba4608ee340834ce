// reducer (internal): the two shapes every pass takes — delta debugging over a list of
// units, and a list of single edits — and the constructors of the concrete passes.
#pragma once

#include "reducer/text_units.h"

#include <functional>
#include <memory>
#include <set>

namespace cudiff::reducer {

/// Delta debugging at shrinking granularity (Zeller's ddmin, as C-Vise's lines and tokens
/// passes walk it): remove `chunk` consecutive units from `index` on; after a failure move
/// on by one chunk, and after a full sweep halve the chunk, down to one unit. With several
/// levels (hierarchical delta debugging: statements by nesting depth), each level is swept
/// in turn, outermost first.
class ChunkPass : public Pass {
public:
  /// A unit is one or more ranges, removed together (a declaration with its uses).
  using Units = std::function<std::vector<std::vector<Range>>(std::string_view text, std::size_t level)>;
  using Levels = std::function<std::size_t(std::string_view text)>;
  /// `max_chunk` caps the first chunk (0: half the units).
  ChunkPass(std::string name, Units units, Levels levels, std::size_t max_chunk);

  std::string_view name() const override { return name_; }
  std::optional<Cursor> start(std::string_view text) const override;
  std::optional<std::string> apply(std::string_view text, const Cursor& cursor) const override;
  std::optional<Cursor> advance(std::string_view text, const Cursor& cursor) const override;
  std::optional<Cursor> advance_on_success(std::string_view text, const Cursor& cursor) const override;

private:
  std::size_t first_chunk(std::size_t units) const;
  /// The first level from `level` on that has units, with a fresh chunk.
  std::optional<Cursor> level_from(std::string_view text, std::size_t level) const;
  /// After a sweep at `cursor.chunk` ended: a smaller chunk, else the next level.
  std::optional<Cursor> next_sweep(std::string_view text, const Cursor& cursor) const;

  std::string name_;
  Units units_;
  Levels levels_;
  std::size_t max_chunk_;
};

/// Units of one range each, from a function that gives ranges.
ChunkPass::Units one_range_each(std::function<std::vector<Range>(std::string_view text, std::size_t level)> ranges);

/// The units of the `uses` pass: each top-level declaration whose name is used, outside it,
/// only in simple statements inside bodies (ending at their `;`, no braces of their own:
/// `ns::run_kernel_1();`, `x = f(y);`), together with those statements. Removing one test of a
/// generated program (its namespace and its call in main) is one unit; the statement-level passes cannot do it,
/// since the declaration alone and the call alone each leave a program that does not compile.
std::vector<std::vector<Range>> declarations_with_uses(std::string_view text, std::size_t level);

/// A list of edits, ordered by where they start, tried one at a time. After a success the
/// list is computed again on the new text and the walk goes on at the first edit that starts
/// where the accepted one started.
class EditListPass : public Pass {
public:
  using Edits = std::function<std::vector<Edit>(std::string_view text)>;
  EditListPass(std::string name, Edits edits);

  std::string_view name() const override { return name_; }
  std::optional<Cursor> start(std::string_view text) const override;
  std::optional<std::string> apply(std::string_view text, const Cursor& cursor) const override;
  std::optional<Cursor> advance(std::string_view text, const Cursor& cursor) const override;
  std::optional<Cursor> advance_on_success(std::string_view text, const Cursor& cursor) const override;

private:
  std::string name_;
  Edits edits_;
};

/// A declaration whose name appears nowhere outside it (the units of `unused`), at any depth.
struct UnusedDeclaration {
  Statement statement;
  Range range;
  bool kernel = false;  ///< it holds `__global__`: an entry point, which nothing names
};
std::vector<UnusedDeclaration> unused_declarations(std::string_view text, const std::vector<Token>& tokens);

/// Every name `text` declares (declared_name of every statement at every depth) and, loosely,
/// every name that looks like a parameter: more names than there are, never fewer.
std::set<std::string, std::less<>> declared_names(std::string_view text);
/// Whether `candidate` names something that `declared` (declared_names of the text it came
/// from) holds and it no longer declares: a compile error under any compiler.
bool uses_a_lost_declaration(const std::set<std::string, std::less<>>& declared, std::string_view candidate);

/// The `focus` pass: asks `culprits` which kernels the text's failure needs and offers
/// focus_on(text, them); then the other kernels alone removed. A text's answer is asked once.
std::unique_ptr<Pass> make_focus_pass(Culprits culprits);
/// ddmin over a PTX text's defined `.entry` blocks (reduce_entries).
std::unique_ptr<Pass> make_entries_pass();

// The edit lists of the single-edit passes (edit_passes.cpp, rename_pass.cpp,
// simplify_pass.cpp, arguments_pass.cpp, device_passes.cpp).
std::vector<Edit> comment_edits(std::string_view text);
std::vector<Edit> whitespace_edits(std::string_view text);
std::vector<Edit> block_edits(std::string_view text);
std::vector<Edit> comma_edits(std::string_view text);
std::vector<Edit> unused_declaration_edits(std::string_view text);
std::vector<Edit> constant_edits(std::string_view text);
std::vector<Edit> rename_edits(std::string_view text);
std::vector<Edit> simplify_edits(std::string_view text);
std::vector<Edit> argument_edits(std::string_view text);
// device_passes.cpp
std::vector<Edit> host_function_edits(std::string_view text);
std::vector<Edit> asm_edits(std::string_view text);

} // namespace cudiff::reducer
