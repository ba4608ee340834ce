// `cudiff reduce` and `cudiff triage reduce`: what a reduction is asked to keep (the
// original's triage signature, or a user's C-Reduce-style script), and how it went.
#pragma once

#include "cli/check.h"
#include "reducer/reducer.h"

#include <iosfwd>
#include <set>

namespace cudiff::cli {

/// What the built-in test must keep: one finding's signature.
struct ReduceTarget {
  std::string key;    ///< the triage key every accepted candidate must show again
  std::string title;
  oracle::FindingKind kind = oracle::FindingKind::compile_status_mismatch;
};

struct ReduceRequest {
  std::filesystem::path file;  ///< the original's name: candidates are written under it
  std::string source;          ///< the original's text
  std::optional<std::filesystem::path> sidecar;  ///< copied beside every candidate (layout probes)
  std::optional<std::filesystem::path> test_script;  ///< C-Reduce-style; else the built-in test
  CheckRequest check;          ///< mode (none: check's default), configs, warnings, limits
  std::optional<std::string> key;  ///< built-in test: keep this key (or prefix); none: the first finding
  std::size_t jobs = 1;
  reducer::Schedule schedule = reducer::default_schedule();
  bool format = true;
  double script_timeout_seconds = 120;
  double time_limit_seconds = 0;  ///< 0: none
  std::optional<std::filesystem::path> out;  ///< rewritten with every improvement
};

/// --jobs, --time-limit, --schedule, --no-format: shared by `reduce` and `triage reduce`.
std::vector<OptionSpec> reduce_options();
/// A request with those options read (the file, test and checks are the caller's).
ReduceRequest reduce_request(const ParsedArgs& args);

/// How a reduction went, for the report.
struct ReduceOutcome {
  reducer::Result result;
  std::optional<ReduceTarget> target;  ///< none with a test script
  std::optional<runners::Mode> test_mode;     ///< the mode candidates were checked in
  std::optional<runners::Mode> full_mode;     ///< the mode the original showed it in
  bool confirmed = false;  ///< the result shows the target in the full mode (or the script said yes)
  std::vector<std::string> notes;
};

/// Reduces request.source. With the built-in test: checks the original in the full mode,
/// picks the target finding (exit 2 via Error when there is none), finds the cheapest mode
/// that still shows it (syntax, then ptx, for compile-time kinds), reduces with a prefilter
/// (the cheapest config alone first) and confirms the result in the full mode, stepping back
/// to the last accepted text that passes there if needed. A run mismatch needs a GPU, and
/// every accepted candidate must be clean under every compute-sanitizer tool on both binaries.
/// Progress goes to `err`.
ReduceOutcome reduce_source(const ReduceRequest& request, const runners::Toolchain& toolchain,
                            const runners::GpuDiscovery& gpus, std::ostream& err);

/// The pass log, sizes before and after (bytes, lines, tokens), tests and their rate, the
/// signature kept and where the result went; or all of it as JSON.
void report_reduction(const ReduceRequest& request, const ReduceOutcome& outcome, bool json, std::ostream& out);

/// `cudiff triage reduce ID` (cli/triage_reduce.cpp).
int triage_reduce(const ParsedArgs& args, std::ostream& out, std::ostream& err);

// ---- the interestingness tests (cli/reduce_tests.cpp) -------------------------------------

/// C-Reduce's protocol: the candidate is written under the original's file name into a fresh
/// directory, and the script runs there with no arguments; exit 0 means interesting.
class ScriptTest {
public:
  /// Throws Error(environment) when the script does not exist or is not executable.
  ScriptTest(const std::filesystem::path& script, std::string file_name, double timeout_seconds);
  bool operator()(const std::string& candidate) const;

private:
  std::filesystem::path script_;
  std::string file_name_;
  double timeout_seconds_;
};

/// The built-in test: the candidate is checked as `cudiff check` would (same configs, the
/// given mode) and must show a finding with the target's key.
class SignatureTest {
public:
  SignatureTest(ReduceTarget target, CheckRequest check, const runners::Toolchain& toolchain,
                const runners::GpuDiscovery& gpus, const ReduceRequest& request);
  /// A necessary condition checked first on one config alone (the fastest in `original`):
  /// its outcome must be the original's, and a rejecting config may only give errors the
  /// target's rejecting side gave. Most candidates fail it, at the cost of one compile.
  void use_prefilter(const CheckRun& original);
  /// The run-mismatch gate: compute-sanitizer (memcheck, initcheck, racecheck, synccheck) must be clean on both compilers'
  /// binaries. Throws Error(environment) when compute-sanitizer is missing.
  void use_sanitizer_gate();
  /// undefined_behaviour_warning() for a candidate, with this test's clang arch and limits.
  std::optional<std::string> ub_warning(const std::string& candidate) const;
  bool operator()(const std::string& candidate) const;
  /// `text` written under the original's name (with its sidecar) into `dir`, and checked.
  CheckRun check(const std::string& text, const std::filesystem::path& dir) const;

private:
  struct Prefilter {
    runners::Config config;
    oracle::CompileOutcome outcome = oracle::CompileOutcome::accepted;
    std::set<std::string> allowed_error_ids;
  };
  /// The prefilter config's compile, when it passes; none when the candidate fails it.
  std::optional<ConfigCheck> prefilter(const std::filesystem::path& file, const std::filesystem::path& dir,
                                       const std::string& text) const;
  CheckRun check(const std::string& text, const std::filesystem::path& dir, CheckRequest request) const;
  bool sanitizer_clean(const CheckRun& run, const std::string& candidate) const;

  ReduceTarget target_;
  CheckRequest check_;
  const runners::Toolchain& toolchain_;
  const runners::GpuDiscovery& gpus_;
  std::string file_name_;
  std::optional<std::filesystem::path> sidecar_;
  std::optional<Prefilter> prefilter_;
  std::optional<std::filesystem::path> sanitizer_;
};

/// The run-mismatch gate's cheap half, checked before anything is built: clang's front end
/// must accept `text` (written as `file_name`) with the warnings that signal undefined
/// behaviour made errors: a missing return, an uninitialized variable, a constant
/// out-of-bounds index or shift, an unsequenced modification, ... memcheck sees none of
/// these, and deleting a `return` or an initializer is exactly the edit a reducer makes.
/// The first error, or none when the text is clean.
std::optional<std::string> undefined_behaviour_warning(const runners::Toolchain& toolchain, const std::string& text,
                                                       const std::string& file_name, const std::string& arch,
                                                       const runners::Limits& limits);

/// The signatures of every finding of a check (a crash's key includes its stderr).
std::vector<triage::Signature> signatures_of(const CheckRun& run);

} // namespace cudiff::cli
