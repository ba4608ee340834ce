// reducer: the driver — the phases of the schedule, one pass at a time with a window of
// candidates tested in parallel, the pass log, progress, and the final formatting.
#include "reducer/passes.h"
#include "reducer/tester.h"

#include "common/common.h"

#include <chrono>

namespace cudiff::reducer {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

class Reduction {
public:
  using Passes = std::vector<std::unique_ptr<Pass>>;

  Reduction(const std::string& original, const StoppableInteresting& interesting, const Options& options)
      : options_(options), tester_(interesting, options.jobs), text_(original) {
    result_.accepted.push_back(original);
  }

  Result run() {
    // Every name is checked before the first test: a typo in a schedule costs nothing.
    Passes first = passes(options_.schedule.first);
    Passes main = passes(options_.schedule.main);
    Passes last = passes(options_.schedule.last);
    return run(first, main, last);
  }

  Result run(const Passes& first, const Passes& main, const Passes& last) {
    if (options_.check_original && !tester_.wait(tester_.submit(text_)))
      throw_usage("the original is not interesting: the test rejects the unchanged file");
    for (const auto& pass : first) run_pass(*pass);
    while (!out_of_time()) {
      const std::size_t before = text_.size();
      ++result_.rounds;
      for (const auto& pass : main) run_pass(*pass);
      if (text_.size() >= before) break;
    }
    for (const auto& pass : last) run_pass(*pass);
    format();
    result_.text = text_;
    result_.tests = tester_.tests();
    result_.cache_hits = tester_.cache_hits();
    result_.seconds = seconds_since(start_);
    result_.stopped_early = out_of_time();
    return std::move(result_);
  }

private:
  struct Pending {
    Cursor cursor;
    std::string candidate;
    Tester::Handle handle;
  };

  Passes passes(const std::vector<std::string>& names) const {
    Passes list;
    for (const auto& name : names)
      list.push_back(name == "focus" && options_.culprits ? make_focus_pass(options_.culprits) : make_pass(name));
    return list;
  }

  bool out_of_time() const {
    return options_.time_limit_seconds > 0 && seconds_since(start_) >= options_.time_limit_seconds;
  }

  /// When the time limit ends the reduction (with one).
  Clock::time_point end() const {
    return start_ +
           std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(options_.time_limit_seconds));
  }

  /// The log line of a pass, by index: the log grows while references would be held.
  std::size_t stats_of(std::string_view name) {
    for (std::size_t i = 0; i < result_.log.size(); ++i)
      if (result_.log[i].pass == name) return i;
    result_.log.push_back(PassStats{std::string(name)});
    return result_.log.size() - 1;
  }

  void progress(std::string_view pass, bool now) {
    if (!options_.on_progress) return;
    if (!now && seconds_since(last_progress_) < options_.progress_interval_seconds) return;
    last_progress_ = Clock::now();
    options_.on_progress(Progress{result_.accepted.front().size(), text_.size(), std::string(pass), tester_.tests(),
                                  tester_.cache_hits(), seconds_since(start_)});
  }

  /// declared_names of the text now, computed once per accepted text.
  const std::set<std::string, std::less<>>& declared() {
    if (declared_for_ != result_.accepted.size()) {
      declared_ = declared_names(text_);
      declared_for_ = result_.accepted.size();
    }
    return declared_;
  }

  void accept(std::string candidate, PassStats& stats) {
    stats.bytes_saved += text_.size() > candidate.size() ? text_.size() - candidate.size() : 0;
    ++stats.accepted;
    text_ = std::move(candidate);
    result_.accepted.push_back(text_);
    if (options_.on_improvement) options_.on_improvement(text_);
  }

  /// One pass to its end. The window holds the next `jobs` candidates a sequential run would
  /// test, in that order; the first interesting one in that order wins, so the result does
  /// not depend on which test finishes first. Stale tests (after a win) are dropped when
  /// they have not started and asked to stop when they have (a StoppableInteresting ends
  /// between its steps, freeing its thread for the next window); neither answer is cached.
  void run_pass(const Pass& pass) {
    const std::size_t line = stats_of(pass.name());
    const auto started = Clock::now();
    const std::size_t tests_before = tester_.tests(), hits_before = tester_.cache_hits();
    ++result_.log[line].runs;
    progress(pass.name(), true);
    std::deque<Pending> window;
    std::optional<Cursor> next = pass.start(text_);
    while (true) {
      if (out_of_time()) {  // the tests in flight are not waited for: nobody reads their answers
        cancel(window);
        break;
      }
      while (window.size() < options_.jobs && next && !out_of_time()) {
        const Cursor cursor = *next;
        std::optional<std::string> candidate = pass.apply(text_, cursor);
        next = pass.advance(text_, cursor);
        if (!candidate || candidate->size() >= text_.size()) continue;  // only smaller texts: always ends
        if (options_.skip_undeclared && uses_a_lost_declaration(declared(), *candidate)) {
          ++result_.log[line].skipped;
          continue;
        }
        Tester::Handle handle = tester_.submit(*candidate);
        window.push_back({cursor, std::move(*candidate), std::move(handle)});
      }
      if (window.empty()) break;
      Pending front = std::move(window.front());
      window.pop_front();
      const std::optional<bool> interesting = options_.time_limit_seconds > 0
                                                  ? tester_.wait_until(front.handle, end())
                                                  : std::optional<bool>(tester_.wait(front.handle));
      if (!interesting) {  // the time limit came first: nobody will read this answer either
        tester_.cancel(front.handle);
        cancel(window);
        break;
      }
      progress(pass.name(), false);
      if (!*interesting) continue;
      cancel(window);
      accept(std::move(front.candidate), result_.log[line]);
      next = pass.advance_on_success(text_, front.cursor);
    }
    PassStats& stats = result_.log[line];
    stats.tests += tester_.tests() - tests_before;
    stats.cache_hits += tester_.cache_hits() - hits_before;
    stats.seconds += seconds_since(started);
  }

  /// Every test of `window` is stale: dropped, or told to stop (Tester::cancel).
  void cancel(std::deque<Pending>& window) {
    for (const Pending& stale : window) tester_.cancel(stale.handle);
    window.clear();
  }

  /// The formatted text is taken only if it is still interesting; it may be a little larger.
  void format() {
    if (!options_.formatter) {
      result_.format_note = "not formatted (no formatter)";
      return;
    }
    PassStats& stats = result_.log[stats_of("format")];
    const auto started = Clock::now();
    const std::size_t tests_before = tester_.tests();
    ++stats.runs;
    progress("format", true);
    std::string note;
    const std::optional<std::string> formatted = options_.formatter(text_, note);
    if (!formatted) {
      result_.format_note = "not formatted: " + note;
    } else if (*formatted == text_) {
      result_.format_note = "already formatted";
    } else if (tester_.wait(tester_.submit(*formatted))) {
      const std::size_t before = text_.size();
      ++stats.accepted;
      text_ = *formatted;
      stats.bytes_saved += before > text_.size() ? before - text_.size() : 0;
      result_.accepted.push_back(text_);
      if (options_.on_improvement) options_.on_improvement(text_);
      result_.format_note = "formatted with " + note;
    } else {
      result_.format_note = "the formatted text was not interesting: left unformatted";
    }
    stats.tests += tester_.tests() - tests_before;
    stats.seconds += seconds_since(started);
  }

  const Options& options_;
  Tester tester_;
  std::string text_;
  Result result_;
  std::set<std::string, std::less<>> declared_;
  std::size_t declared_for_ = 0;  ///< how many texts were accepted when declared_ was computed
  const Clock::time_point start_ = Clock::now();
  Clock::time_point last_progress_ = Clock::now();
};

/// A plain test as a stoppable one that never stops early.
StoppableInteresting stoppable(const Interesting& interesting) {
  return [&interesting](const std::string& candidate, std::stop_token) { return interesting(candidate); };
}

} // namespace

Result reduce(const std::string& original, const Interesting& interesting, const Options& options) {
  return Reduction(original, stoppable(interesting), options).run();
}

Result reduce(const std::string& original, const StoppableInteresting& interesting, const Options& options) {
  return Reduction(original, interesting, options).run();
}

Result reduce_entries(const std::string& ptx, const Interesting& interesting, std::size_t jobs) {
  Options options;
  options.jobs = std::max<std::size_t>(1, jobs);
  Reduction::Passes first, none;
  first.push_back(make_entries_pass());
  return Reduction(ptx, stoppable(interesting), options).run(first, none, none);
}

std::string run_pass(const Pass& pass, const std::string& text, const Interesting& interesting) {
  std::string current = text;
  std::optional<Cursor> cursor = pass.start(current);
  while (cursor) {
    std::optional<std::string> candidate = pass.apply(current, *cursor);
    if (candidate && candidate->size() < current.size() && interesting(*candidate)) {
      current = std::move(*candidate);
      cursor = pass.advance_on_success(current, *cursor);
    } else {
      cursor = pass.advance(current, *cursor);
    }
  }
  return current;
}

} // namespace cudiff::reducer
