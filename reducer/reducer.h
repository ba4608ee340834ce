// reducer: shrinks a source file while an interestingness test keeps saying yes — the passes
// (text and token level), the pass schedule, the cache and the parallel driver behind
// `cudiff reduce` (docs/reducer.md).
//
// Contract:
// - The interestingness test is a callback. The reducer never compiles anything and knows
//   nothing about signatures; the caller decides what "interesting" means.
// - Every accepted candidate is strictly smaller (in bytes) than the text it replaces, so a
//   reduction always ends. The result is the original or a candidate the test accepted.
// - No candidate text is tested twice (a cache keyed by a 64-bit hash of the text).
// - With a deterministic test, the result depends only on the input, the schedule and the
//   test, not on `jobs`: parallel testing looks ahead at the candidates a sequential run
//   would test next and always takes the first interesting one in that order.
// - The test is called from `jobs` threads at once when jobs > 1; callbacks for progress and
//   improvements are called from the calling thread only.
#pragma once

#include "common/cpp_lexer.h"

#include <boost/json.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

namespace cudiff::reducer {

// ---- tokens -----------------------------------------------------------------------------

// The reducer cuts text at common's C++/CUDA tokens (common/cpp_lexer.h), read as written:
// a directive ends at the first newline not after a `\`, comments are tokens of their own.
using cpp::Token;
using cpp::tokenize;
using cpp::TokenKind;

/// The size in C tokens: comments do not count, a directive counts as the tokens of its line
/// (`#include <x>` is 5). The size measure of bench/ (bench/count_tokens.py counts the same).
std::size_t count_tokens(std::string_view text);

// ---- the pass protocol ------------------------------------------------------------------

/// Where a pass is in its walk over the candidate edits of a text. Every pass uses the same
/// named counters (C-Vise's opaque state, typed): a delta-debugging pass removes `chunk`
/// units from `index` on at nesting `level`; an edit-list pass tries edit `index`, which
/// starts at byte `position` (after a success it goes on at the first edit from there: the
/// edits before it are unchanged, and were tried).
struct Cursor {
  std::size_t level = 0;
  std::size_t chunk = 0;
  std::size_t index = 0;
  std::size_t position = 0;
  bool operator==(const Cursor&) const = default;
};

/// A pass enumerates candidate edits of a text and applies one at a time (cvise/passes:
/// new / transform / advance / advance_on_success). Passes are stateless and deterministic:
/// the same text and cursor always give the same candidate.
class Pass {
public:
  virtual ~Pass() = default;
  virtual std::string_view name() const = 0;
  /// The first cursor for `text`; none when the pass has no edit to offer.
  virtual std::optional<Cursor> start(std::string_view text) const = 0;
  /// The candidate at `cursor`; none when it would not change the text (skipped, not tested).
  virtual std::optional<std::string> apply(std::string_view text, const Cursor& cursor) const = 0;
  /// The cursor after the candidate at `cursor` was not interesting (`text` is unchanged).
  virtual std::optional<Cursor> advance(std::string_view text, const Cursor& cursor) const = 0;
  /// The cursor after it was: `text` is now that candidate.
  virtual std::optional<Cursor> advance_on_success(std::string_view text, const Cursor& cursor) const = 0;
};

/// Every pass name the schedule may use, in the order of docs/reducer.md.
std::vector<std::string> pass_names();
/// The pass of that name; throws Error(usage) naming the known passes for an unknown one.
std::unique_ptr<Pass> make_pass(std::string_view name);

// ---- the schedule (data, like C-Vise's pass_groups/all.json) -----------------------------

/// `first` runs once, `main` runs round after round until a whole round saves nothing,
/// `last` runs once.
struct Schedule {
  std::vector<std::string> first, main, last;
  bool operator==(const Schedule&) const = default;
};

Schedule default_schedule();
/// {"first": [...], "main": [...], "last": [...]}; throws Error(usage) with `origin` and the
/// problem for bad JSON, a missing or non-list phase, or an unknown pass name.
Schedule parse_schedule(std::string_view json, std::string_view origin);
std::string schedule_json(const Schedule& schedule);

// ---- reducing ---------------------------------------------------------------------------

/// True when the candidate still shows what is being reduced. Must be thread-safe when
/// jobs > 1. May throw (cudiff::Error): the reduction stops and the error propagates.
using Interesting = std::function<bool(const std::string& candidate)>;
/// The same, told when its answer will not be read: a test looked ahead at in parallel whose
/// window another candidate won, or one running when the reduction ends. Its stop token is
/// then requested, and the test may return at once (its answer, any answer, is dropped and
/// not cached): a test of several steps stops between them, or kills the step it is in
/// (runners::Limits::stop), instead of holding a thread the next candidates need.
using StoppableInteresting = std::function<bool(const std::string& candidate, std::stop_token unused)>;

/// What the progress callback sees.
struct Progress {
  std::size_t original_bytes = 0;
  std::size_t bytes = 0;  ///< the current best
  std::string pass;       ///< the pass running now ("format" at the end)
  std::size_t tests = 0;  ///< test calls started so far
  std::size_t cache_hits = 0;
  double seconds = 0;
  double tests_per_second() const { return seconds > 0 ? static_cast<double>(tests) / seconds : 0; }
};

/// One line of the pass log, summed over every time the pass ran.
struct PassStats {
  std::string pass;
  std::size_t runs = 0;
  std::size_t tests = 0;       ///< test calls started while it ran (stale look-ahead included)
  std::size_t cache_hits = 0;  ///< candidates answered from the cache
  std::size_t accepted = 0;    ///< interesting candidates taken
  std::size_t skipped = 0;     ///< candidates never tested: they use a name whose last declaration they cut
  std::size_t bytes_saved = 0;
  double seconds = 0;
};

/// The `focus` pass's oracle: the kernels that alone still show what is being reduced, found
/// below the source by the caller (pipeline/: the text compiled once to PTX, then ptxas on
/// fewer and fewer of its `.entry` blocks). Qualified as the source spells them
/// (`ns::inner::kernel`; a name without `::` matches a kernel of that name in any namespace).
/// Empty when it cannot say: the pass then offers nothing. Called from the driver's thread.
using Culprits = std::function<std::vector<std::string>(const std::string& text)>;

struct Options {
  std::size_t jobs = 1;  ///< candidates tested at once
  Schedule schedule = default_schedule();
  /// What the `focus` pass asks; unset, the pass offers nothing (a script's test, a run finding).
  Culprits culprits;
  /// Skip, untested, a candidate that still names something whose last declaration it cut (a
  /// compile error). Only for a test that no such error can satisfy: not a script, not a
  /// rejection's (whose target may be that very error).
  bool skip_undeclared = false;
  /// Test the original first and throw Error(usage) when it is not interesting. Off only
  /// when the caller has just tested it with the same test.
  bool check_original = true;
  /// Stop after this many seconds (0: no limit) and return the best so far, formatted (one more
  /// test: a reproducer a person reads is indented).
  double time_limit_seconds = 0;
  /// Called at most about every `progress_interval_seconds`, and when a pass starts.
  std::function<void(const Progress&)> on_progress;
  double progress_interval_seconds = 1;
  /// Called with every accepted text, so a caller can save the best so far (a reduction
  /// killed at a time cap keeps what it reached, as C-Reduce does).
  std::function<void(const std::string&)> on_improvement;
  /// The last step: the result re-formatted (e.g. clang_format below), accepted only if
  /// still interesting. Returns none (and says why in `note`) when it cannot format.
  std::function<std::optional<std::string>(const std::string& text, std::string& note)> formatter;
};

struct Result {
  std::string text;
  std::vector<PassStats> log;  ///< in the order the passes first ran
  std::size_t tests = 0;
  std::size_t cache_hits = 0;
  double seconds = 0;
  std::size_t rounds = 0;        ///< rounds of the main phase
  bool stopped_early = false;    ///< the time limit ended it
  std::string format_note;       ///< what the formatting step did
  /// Every accepted text in order, the original first: lets a caller step back to the last
  /// one that also passes a stricter test (cudiff reduce's full-mode confirmation).
  std::vector<std::string> accepted;
};

/// Reduces `original` with the passes of `options.schedule` (docs/reducer.md). Throws
/// Error(usage) when the original is not interesting (with check_original).
Result reduce(const std::string& original, const Interesting& interesting, const Options& options);
/// The same with a test that can be told to stop (StoppableInteresting); the result is the
/// same as the plain test's would be, since only answers nobody reads are cut short.
Result reduce(const std::string& original, const StoppableInteresting& interesting, const Options& options);

// ---- focus: the kernels a failure below the source needs --------------------------------

/// One `.entry` of a PTX module: the kernel's (mangled) name and its bytes [begin, end): the
/// directive's line (`.visible`, `.weak` before it), nvcc's `// .globl NAME` line above it, the
/// parameters, the performance directives and the body to its matching brace (scoping blocks
/// nest inside it; braces in comments and strings do not count), with the newline after it.
struct PtxEntry {
  std::string name;
  std::size_t begin = 0;
  std::size_t end = 0;
  bool defined = false;  ///< it has a body (a declaration ends at its `;`)
};
/// Every `.entry` of `ptx`, in order. Never throws; text that is not PTX gives none.
std::vector<PtxEntry> ptx_entries(std::string_view ptx);

/// Delta debugging over the defined `.entry` blocks of `ptx` (every `.func`, `.global` and
/// declaration stays): the text with as few entries as `interesting` still accepts, tested
/// `jobs` at a time. Throws Error(usage) when it does not accept the whole text.
Result reduce_entries(const std::string& ptx, const Interesting& interesting, std::size_t jobs);

/// The focus candidate of a CUDA text: every kernel (a `__global__` declaration at namespace
/// scope) that `kernels` does not name removed, every host-only function (as the `host` pass
/// removes them), then every namespace-scope declaration nothing names any more, to a fixpoint
/// (the other tests' namespaces, their constants and types). The text unchanged when no kernel
/// of it is named.
std::string focus_on(std::string_view text, const std::vector<std::string>& kernels);

/// A text's size as `cudiff reduce` reports it: {"bytes", "lines" (a last line without a
/// newline counts), "tokens" (count_tokens)}.
boost::json::object size_json(const std::string& text);
/// The same in words: "1.2 KiB, 40 lines, 311 tokens".
std::string size_text(const std::string& text);
/// The pass log as a table: pass, runs, tests, cached, skipped, accepted, saved, time.
std::string log_table(const Result& result);
/// The pass log as JSON: one object per pass, with every field of PassStats.
boost::json::array log_json(const Result& result);

/// Runs one pass to its end on `text` (no cache across calls, jobs 1): what the golden tests
/// of a single pass use. Returns the reduced text.
std::string run_pass(const Pass& pass, const std::string& text, const Interesting& interesting);

/// clang-format (clang-format-22, else clang-format, on PATH) in LLVM style, 100 columns.
/// None, with the reason in `note`, when it is missing or fails.
std::optional<std::string> clang_format(const std::string& text, std::string& note);

} // namespace cudiff::reducer
