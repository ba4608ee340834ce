// pipeline: one reduction from start to end — the original's signature, the cheapest mode
// that still shows it, the reducer with progress on stderr, and the full-mode check of the
// result (stepping back when the cheap mode let it drift).
#include "pipeline/record.h"
#include "pipeline/reduce_parts.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <ostream>
#include <unistd.h>

namespace cudiff::pipeline {
namespace {

bool compile_time(oracle::FindingKind kind) {
  return kind == oracle::FindingKind::compile_status_mismatch || kind == oracle::FindingKind::crash ||
         kind == oracle::FindingKind::warning_mismatch || kind == oracle::FindingKind::missed_diagnostic ||
         kind == oracle::FindingKind::false_rejection || kind == oracle::FindingKind::dialect_difference ||
         kind == oracle::FindingKind::missed_by_all;
}

/// Kinds whose finding is a compiler's error: a candidate's new error may be the target.
bool rejection_kind(oracle::FindingKind kind) {
  return kind == oracle::FindingKind::compile_status_mismatch || kind == oracle::FindingKind::missed_diagnostic ||
         kind == oracle::FindingKind::false_rejection || kind == oracle::FindingKind::dialect_difference ||
         kind == oracle::FindingKind::missed_by_all || kind == oracle::FindingKind::late_rejection;
}

std::string size_text(std::size_t bytes) { return format_bytes(bytes); }

/// One progress line: the size now, the pass, tests done and their rate. On a terminal it is
/// redrawn in place; in a log, at most one line every 10 s.
std::function<void(const reducer::Progress&)> progress_printer(std::ostream& err, bool terminal) {
  auto last = std::make_shared<double>(-1e9);
  return [&err, terminal, last](const reducer::Progress& p) {
    if (!terminal && p.seconds - *last < 10) return;
    *last = p.seconds;
    const double saved = p.original_bytes == 0 ? 0 : 100.0 * (1.0 - double(p.bytes) / double(p.original_bytes));
    char rate[32];
    std::snprintf(rate, sizeof rate, "%.1f", p.tests_per_second());
    const std::string line = "reduce: " + size_text(p.original_bytes) + " -> " + size_text(p.bytes) + " (-" +
                             std::to_string(static_cast<int>(saved)) + "%) | " + p.pass + " | " +
                             std::to_string(p.tests) + " tests, " + std::to_string(p.cache_hits) + " cached | " + rate +
                             " tests/s | " + format_seconds(p.seconds);
    if (terminal) err << "\r" << line << "\x1b[K" << std::flush;
    else err << line << "\n" << std::flush;
  };
}

/// Writes the best text so far; a reduction killed at a time cap keeps what it reached.
void save(const std::filesystem::path& out, const std::string& text) {
  const std::filesystem::path partial = out.string() + ".partial";
  write_file(partial, text);
  std::error_code ec;
  std::filesystem::rename(partial, out, ec);
  if (ec) throw_environment("cannot write " + out.string() + ": " + ec.message());
}

reducer::Options reducer_options(const ReduceRequest& request, std::ostream& err) {
  reducer::Options options;
  options.jobs = std::max<std::size_t>(1, request.jobs);
  options.schedule = request.schedule;
  options.time_limit_seconds = request.time_limit_seconds;
  const bool terminal = ::isatty(STDERR_FILENO) == 1;
  options.on_progress = progress_printer(err, terminal);
  options.progress_interval_seconds = 0.5;
  if (request.out) options.on_improvement = [out = *request.out](const std::string& text) { save(out, text); };
  if (request.format) options.formatter = reducer::clang_format;
  return options;
}

/// The sum of two reductions, for the report of a reduction that had to step back.
void add(reducer::Result& total, const reducer::Result& more) {
  total.text = more.text;
  total.tests += more.tests;
  total.cache_hits += more.cache_hits;
  total.seconds += more.seconds;
  total.rounds += more.rounds;
  total.stopped_early = more.stopped_early;
  total.format_note = more.format_note;
  for (const reducer::PassStats& stats : more.log) {
    auto line = std::ranges::find(total.log, stats.pass, &reducer::PassStats::pass);
    if (line == total.log.end()) {
      total.log.push_back(stats);
      continue;
    }
    line->runs += stats.runs;
    line->tests += stats.tests;
    line->cache_hits += stats.cache_hits;
    line->skipped += stats.skipped;
    line->accepted += stats.accepted;
    line->bytes_saved += stats.bytes_saved;
    line->seconds += stats.seconds;
  }
}

ReduceOutcome reduce_with_script(const ReduceRequest& request, std::ostream& err) {
  ReduceOutcome outcome;
  const ScriptTest test(*request.test_script, request.file.filename().string(), request.script_timeout_seconds);
  // The original is tested here rather than by the reducer, to say which script said no.
  if (!test(request.source))
    throw_usage("the test script " + request.test_script->string() + " says the original " +
                request.file.filename().string() + " is not interesting (it must exit 0 on it)");
  reducer::Options options = reducer_options(request, err);
  options.check_original = false;
  outcome.result = reducer::reduce(request.source, test, options);
  outcome.confirmed = true;
  return outcome;
}

std::string configs_text(const CheckRequest& check) {
  std::vector<std::string> names;
  for (const auto& config : check.configs) names.push_back(config.name);
  return join(names, ",");
}

ReduceTarget pick_target(const ReduceRequest& request, const TestCheck& original) {
  const std::vector<triage::Signature> signatures = signatures_of(original);
  if (signatures.empty())
    throw_usage(request.file.string() + " shows no discrepancy (mode " + runners::to_string(original.mode) +
                ", configs " + configs_text(request.check) + "): nothing to reduce");
  for (std::size_t i = 0; i < signatures.size(); ++i)
    if (!request.key || signatures[i].key.starts_with(*request.key))
      return {signatures[i].key, signatures[i].title, original.verdict.findings[i].kind,
              request.partition.empty() ? RunPartition{} : run_partition(original.verdict.findings[i])};
  // A run finding reduced structurally: the one that splits the configs as the target does.
  if (!request.partition.empty())
    for (std::size_t i = 0; i < signatures.size(); ++i)
      if (run_partition(original.verdict.findings[i]) == request.partition)
        return {signatures[i].key, signatures[i].title, original.verdict.findings[i].kind, request.partition};
  std::vector<std::string> keys;
  for (const auto& signature : signatures) keys.push_back(signature.key.substr(0, 12));
  throw_usage("no finding of " + request.file.string() + " has key " + *request.key +
              " (its keys: " + join(keys, ", ") + ")");
}

bool shows(const std::vector<triage::Signature>& signatures, const std::string& key) {
  return std::ranges::any_of(signatures, [&](const triage::Signature& s) { return s.key == key; });
}

/// Candidates compile in seconds; a candidate that hangs a compiler must not cost five minutes
/// (kCandidateCompileFactor, kCandidateCompileFloorSeconds).
runners::Limits candidate_limits(const TestCheck& original, const runners::Limits& limits, oracle::FindingKind kind) {
  if (kind == oracle::FindingKind::hang) return limits;
  double slowest = 0;
  for (const ConfigCheck& check : original.configs) slowest = std::max(slowest, check.observation.seconds);
  runners::Limits shorter = limits;
  shorter.wall_seconds = std::min(limits.wall_seconds,
                                  std::max(kCandidateCompileFloorSeconds, kCandidateCompileFactor * slowest));
  return shorter;
}

/// The original, checked in `mode` as `cudiff check` would check it.
TestCheck check_original(const ReduceRequest& request, const CheckRequest& check, const ReduceTarget& target,
                         const runners::Toolchain& toolchain, const runners::GpuDiscovery& gpus) {
  const SignatureTest probe(target, check, toolchain, gpus, request);
  TempDir dir("cudiff-reduce");
  return probe.check(request.source, dir.path());
}

/// How much faster a later cheap mode must have checked the original to be chosen.
constexpr double kClearlyFaster = 0.75;

/// What a candidate costs in the mode `run` was checked in: the compile of the fastest config
/// the target finding names (the prefilter's, where most candidates stop).
double candidate_seconds(const TestCheck& run, const std::string& key) {
  const std::vector<triage::Signature> signatures = signatures_of(run);
  double seconds = 0;
  for (const ConfigCheck& check : run.configs) seconds += check.observation.seconds;
  for (std::size_t i = 0; i < signatures.size() && i < run.verdict.findings.size(); ++i) {
    if (signatures[i].key != key) continue;
    const std::vector<std::string>& named = run.verdict.findings[i].configs;
    for (const ConfigCheck& check : run.configs)
      if (std::ranges::find(named, check.compile.config.name) != named.end())
        seconds = std::min(seconds, check.observation.seconds);
  }
  return seconds;
}

/// For what compilers decide at compile time, the cheapest mode in which the original still
/// shows the target: of syntax, ptx and cubin, each that shows it is timed on the original and
/// the fastest wins; else the full mode. Sets `run` to that mode's check. The order of cost is
/// not the modes' order: nvcc's syntax mode (`-cuda`) embeds the device code, so it runs cicc
/// and ptxas too and shows a ptxas crash, at twice the cost of `-cubin` (2.5 s against 1.1 s on
/// a 2,200-line batch); clang's `-fsyntax-only` is its cheapest.
CheckRequest cheapest_mode(const ReduceRequest& request, const CheckRequest& full, const ReduceTarget& target,
                           const runners::Toolchain& toolchain, const runners::GpuDiscovery& gpus, TestCheck& run) {
  if (!compile_time(target.kind)) return full;
  std::optional<CheckRequest> best;
  double best_seconds = 0;
  for (runners::Mode mode : {runners::Mode::syntax, runners::Mode::ptx, runners::Mode::cubin}) {
    if (mode >= *full.mode) break;
    CheckRequest trial = full;
    trial.mode = mode;
    TestCheck trial_run = check_original(request, trial, target, toolchain, gpus);
    if (!shows(signatures_of(trial_run), target.key)) continue;
    // A later mode must be clearly faster: timings of one compile are noisy, and modes of
    // about one cost test alike.
    const double seconds = candidate_seconds(trial_run, target.key);
    if (best && seconds >= kClearlyFaster * best_seconds) continue;
    best = trial;
    best_seconds = seconds;
    run = std::move(trial_run);
  }
  return best.value_or(full);
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// The test as the reducer calls it: told to stop once its answer will not be read.
reducer::StoppableInteresting stoppable(const SignatureTest& test) {
  return [&test](const std::string& candidate, std::stop_token unused) { return test(candidate, unused); };
}

/// The result must show the target the way `cudiff check` sees it, in the full mode. When the
/// cheap mode let it drift, steps back by bisection along the accepted path to the last text
/// that passes in the full mode (the original does) and reduces again from there.
void confirm_in_full_mode(const ReduceRequest& request, const CheckRequest& full, const TestCheck& original,
                          const runners::Toolchain& toolchain, const runners::GpuDiscovery& gpus,
                          const reducer::Options& options, ReduceOutcome& outcome) {
  SignatureTest full_test(*outcome.target, full, toolchain, gpus, request);
  if (full_test(outcome.result.text)) {
    outcome.confirmed = true;
    return;
  }
  const std::vector<std::string>& path = outcome.result.accepted;
  std::size_t good = 0, bad = path.size() - 1;
  while (bad - good > 1) {
    const std::size_t middle = good + (bad - good) / 2;
    (full_test(path[middle]) ? good : bad) = middle;
  }
  outcome.notes.push_back("the result of mode " + runners::to_string(*outcome.test_mode) +
                          " did not show the signature in mode " + runners::to_string(*full.mode) +
                          "; reduced again in mode " + runners::to_string(*full.mode) + " from accepted step " +
                          std::to_string(good) + " of " + std::to_string(path.size() - 1));
  full_test.use_prefilter(original);
  const reducer::Result again = reducer::reduce(path[good], stoppable(full_test), options);
  add(outcome.result, again);
  outcome.test_mode = full.mode;
  outcome.confirmed = true;
}

/// The IR stage under the text passes' own test (same mode, same prefilter): the text the text
/// passes start from. That is its result when it kept an edit and its result shows the target
/// in the full mode too; else the original, and a note says why.
std::string reduce_generated_first(const ReduceRequest& request, const SignatureTest& test, const CheckRequest& full,
                                   const CheckRequest& cheap, const runners::Toolchain& toolchain,
                                   const runners::GpuDiscovery& gpus, std::ostream& err, ReduceOutcome& outcome) {
  generator::ProgramReduction reduction = program_reduction(*request.generated);
  if (reduction.current().source != request.source) {
    outcome.ir_note = "the generator's program is not the original's text";
    return request.source;
  }
  IrOptions options;
  options.jobs = request.jobs;
  options.time_limit_seconds = request.time_limit_seconds * kIrTimeShare;
  if (request.out) options.on_improvement = [out = *request.out](const generator::TestCase& c) { save(out, c.source); };
  outcome.ir = reduce_ir(
      reduction,
      [&test](const generator::TestCase& candidate, std::stop_token unused) { return test(candidate.source, unused); },
      options, err);
  if (outcome.ir->accepted == 0) return request.source;
  if (*cheap.mode != *full.mode &&
      !SignatureTest(*outcome.target, full, toolchain, gpus, request)(outcome.ir->program.source)) {
    outcome.notes.push_back("the IR stage's result did not show the signature in mode " +
                            runners::to_string(*full.mode) + ": the text passes started from the original");
    return request.source;
  }
  return outcome.ir->program.source;
}

} // namespace

ReduceOutcome reduce_source(const ReduceRequest& request, const runners::Toolchain& toolchain,
                            const runners::GpuDiscovery& gpus, std::ostream& err) {
  if (request.test_script) return reduce_with_script(request, err);

  CheckRequest full = request.check;
  if (full.mode == runners::Mode::run && gpus.gpus.empty())
    throw_environment("--mode run needs a GPU to show a run mismatch: " + gpus.note);
  if (!full.mode) full.mode = gpus.gpus.empty() ? runners::Mode::binary : runners::Mode::run;

  ReduceOutcome outcome;
  const auto started = std::chrono::steady_clock::now();
  const TestCheck original = check_original(request, full, {}, toolchain, gpus);
  const double original_seconds = seconds_since(started);
  const ReduceTarget target = pick_target(request, original);
  outcome.target = target;
  outcome.full_mode = original.mode;
  if (oracle::is_run_kind(target.kind) && gpus.gpus.empty())
    throw_environment("reducing a run mismatch needs a GPU: " + gpus.note);

  TestCheck cheap_run = original;
  CheckRequest cheap = cheapest_mode(request, full, target, toolchain, gpus, cheap_run);
  cheap.compile_limits = candidate_limits(original, full.compile_limits, target.kind);
  outcome.test_mode = cheap.mode;

  SignatureTest test(target, cheap, toolchain, gpus, request);
  test.use_prefilter(cheap_run);
  reducer::Options options = reducer_options(request, err);
  options.check_original = false;  // just checked in this very mode
  // A failure of ptxas: the `focus` pass names the kernels it needs from the PTX (pipeline/focus.cpp).
  options.culprits = test.ptxas_culprits(request.jobs, err);
  // A name used after its last declaration went is an error no crash, hang, warning or run
  // finding is kept with; a rejection's target may be that very error.
  options.skip_undeclared = !rejection_kind(target.kind);
  // Run-time findings (oracle::is_run_kind) keep the sanitizer gate on every candidate.
  if (oracle::is_run_kind(target.kind)) {
    test.use_sanitizer_gate();
    if (const std::optional<std::string> warning = test.ub_warning(request.source))
      throw_usage("the original has a warning that signals undefined behaviour (" + *warning +
                  "): its run mismatch may be that, not a compiler bug");
    if (!test(request.source))
      throw_usage("the original is not clean under every compute-sanitizer tool on both binaries: its run mismatch "
                  "may be undefined behaviour, not a compiler bug");
  }
  std::string start = request.source;
  if (request.generated && !oracle::is_run_kind(target.kind)) {
    CheckRequest full_limited = full;
    full_limited.compile_limits = cheap.compile_limits;
    start = reduce_generated_first(request, test, full_limited, cheap, toolchain, gpus, err, outcome);
  }
  // The text passes get what the checks above and the IR stage left, less the caller's reserve.
  if (options.time_limit_seconds > 0)
    options.time_limit_seconds = std::max(1.0, request.time_limit_seconds - seconds_since(started) -
                                                   request.reserved_checks * original_seconds);
  outcome.result = reducer::reduce(start, stoppable(test), options);
  if (const std::string costs = test.costs(); !costs.empty())
    err << "reduce: test steps: " << costs << "\n" << std::flush;

  if (*cheap.mode == *full.mode) {
    outcome.confirmed = true;
    return outcome;
  }
  full.compile_limits = cheap.compile_limits;
  confirm_in_full_mode(request, full, original, toolchain, gpus, options, outcome);
  return outcome;
}

} // namespace cudiff::pipeline
