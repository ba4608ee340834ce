// pipeline: the reducer's interestingness tests — a person's C-Reduce-style script, or the
// built-in "same triage signature" test with its prefilter and its sanitizer gate. Internal to
// pipeline/ (reduce.cpp, reduce_tests.cpp, bucket_reduction.cpp).
#pragma once

#include "oracle/oracle.h"
#include "pipeline/check.h"
#include "pipeline/reduce.h"
#include "pipeline/test_costs.h"
#include "runners/runners.h"

#include <filesystem>
#include <iosfwd>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cudiff::pipeline {

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
  /// target's rejecting side gave. Most candidates fail it, at the cost of one compile. For a
  /// crash of one config that compile is the whole test: the finding and its key are made from
  /// it alone.
  /// For a run finding whose configs fall in groups (its partition), the prefilter is a pair:
  /// the fastest config of two different groups, built and run first. A candidate whose pair
  /// no longer prints different results is rejected after two builds and runs instead of every
  /// config's; the rest are built only for a candidate that passes it (the full test decides).
  void use_prefilter(const TestCheck& original);
  /// The run-mismatch gate: compute-sanitizer (memcheck, initcheck, racecheck, synccheck) must
  /// be clean on both compilers' binaries. Throws Error(environment) when it is missing.
  void use_sanitizer_gate();
  /// The `focus` pass's oracle (pipeline/focus.cpp) when the target is a failure of one
  /// config's device build (its prefilter's compile crashed, rejected or hung, and its device
  /// code builds in two steps): the kernels of a text whose `.entry` blocks alone still make
  /// that config's ptxas fail the same way. Unset otherwise. Its progress goes to `err`.
  reducer::Culprits ptxas_culprits(std::size_t jobs, std::ostream& err) const;
  /// undefined_behaviour_warning() for a candidate, with this test's clang arch and limits
  /// (killed once `unused` is requested).
  std::optional<std::string> ub_warning(const std::string& candidate, std::stop_token unused = {}) const;
  /// Whether `candidate` shows the target. Once `unused` is requested (the reducer will not
  /// read the answer) it stops between its steps and kills the compile or run in flight.
  bool operator()(const std::string& candidate, std::stop_token unused = {}) const;
  /// `text` written under the original's name into `dir`, and checked (with the sidecar).
  TestCheck check(const std::string& text, const std::filesystem::path& dir) const;
  /// What each step of the test has cost so far, over every copy (TestCosts::summary).
  std::string costs() const { return costs_->summary(); }

private:
  struct Prefilter {
    runners::Config config;
    oracle::CompileOutcome outcome = oracle::CompileOutcome::accepted;
    std::set<std::string> allowed_error_ids;
    std::optional<oracle::Crash> crash;  ///< the original's, when it crashed
  };
  /// The prefilter config's compile, when it passes; none when the candidate fails it.
  std::optional<ConfigCheck> prefilter(const std::filesystem::path& file, const std::filesystem::path& dir,
                                       const std::string& text, const runners::Limits& limits) const;
  TestCheck check(const std::string& text, const std::filesystem::path& dir, CheckRequest request) const;
  bool sanitizer_clean(const TestCheck& run, const std::string& candidate, std::stop_token unused) const;

  ReduceTarget target_;
  CheckRequest check_;
  const runners::Toolchain& toolchain_;
  const runners::GpuDiscovery& gpus_;
  std::string file_name_;
  std::optional<generator::Sidecar> sidecar_;
  std::optional<Prefilter> prefilter_;
  std::optional<Prefilter> guilty_;  ///< the target's config and what it did, with one config too
  std::optional<std::filesystem::path> sanitizer_;
  /// A run finding's prefilter pair (use_prefilter): two configs its partition separates.
  std::optional<std::pair<runners::Config, runners::Config>> run_pair_;
  /// Whether the pair, built and run on `candidate`, still falls in different groups.
  bool pair_still_differs(const std::string& candidate, const std::filesystem::path& dir,
                          const CheckRequest& request) const;
  SharedTestCosts costs_ = std::make_shared<TestCosts>();
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

} // namespace cudiff::pipeline
