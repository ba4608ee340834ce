// campaign: the known-bug recall suite (`cudiff recall`): its cases, config sets and results.
#pragma once

#include "oracle/oracle.h"
#include "pipeline/limits.h"
#include "runners/runners.h"
#include "triage/triage.h"

#include <cstddef>
#include <filesystem>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cudiff::campaign {

// corpus/known-bugs/<case>/: programs that show real compiler bugs, each with the finding it
// must give (docs/campaign.md, "Recall"). Checking every case under a set of configs says
// which share of known bugs that set finds, and at what cost: how the default configs are
// chosen.

/// What a case must give: a finding of one of `kinds`, whose bucket title contains
/// `title_contains` (or whose key starts with `key_prefix`), attributed to `stage`.
struct KnownBugExpectation {
  std::vector<std::string> kinds;  ///< FindingKind names; any of them counts (one kind may be split later)
  std::string stage;               ///< oracle::to_string(Stage): "frontend", "device-codegen", "ptxas"...
  std::string key_prefix;          ///< set when the bucket is named by its key
  std::string title_contains;      ///< set when the bucket is named by its title
  std::string verdict;             ///< "discrepancy" or "known-difference"
};

/// One case of the suite, as its case.json says.
struct KnownBugCase {
  std::string name;                  ///< the case's directory name
  std::filesystem::path directory;
  std::filesystem::path file;        ///< the reproducer (directory / case.json's "file")
  std::string title, source, licence;
  std::map<std::string, std::string> reproduces_with;  ///< compiler -> version it was confirmed with
  bool needs_gpu = false;
  bool confirmed = false;            ///< reproduced by hand (GPU cases: on a GPU) with those versions
  std::optional<runners::Mode> mode; ///< the cheapest mode that shows it; none: check's default
  std::vector<std::string> configs;  ///< the presets that show it (some may be unknown here)
  KnownBugExpectation expect;
  std::string does_not_reproduce;    ///< why it no longer shows ("" while it does): not checked
};

/// The case in `directory` (its case.json). Throws Error(usage) naming the file and the field
/// for a case.json that is not JSON, lacks a field, or names a reproducer that does not exist.
KnownBugCase read_known_bug(const std::filesystem::path& directory);
/// Every case below `suite` (each subdirectory with a case.json), sorted by name. Throws
/// Error(usage) when `suite` is not a directory or holds no case.
std::vector<KnownBugCase> read_known_bugs(const std::filesystem::path& suite);

/// A named set of configs to measure. Names that are not presets here are kept in `unknown`
/// and reported, never an error: the suite may name presets of a newer cudiff.
struct ConfigSet {
  std::string name;  ///< the list as given ("nvcc-O3,clang-O3"), or "case" (each case's own)
  std::vector<runners::Config> configs;
  std::vector<std::string> unknown;
  bool per_case = false;  ///< "case": each case is checked with the presets its case.json names
  std::optional<std::string> arch;  ///< replaces every config's (a per-case set's too)
};
/// A comma-separated list of preset names, or "case". `arch` (if set) replaces every config's.
ConfigSet config_set(std::string_view list, const std::optional<std::string>& arch = std::nullopt);

/// How one case fared under one config set.
struct CaseOutcome {
  std::string name;
  std::string status;  ///< "found", "missed", "skipped"
  std::string note;    ///< why skipped, which configs were unknown, what was found instead...
  bool found = false;        ///< a finding of an expected kind
  bool right_bucket = false; ///< ... whose key or title matches
  std::string stage;         ///< "right", "wrong (<stage>)", "no stage" (the finding carries none)
  std::string found_kind, found_title, found_key;
  std::vector<std::string> configs;  ///< the configs it was checked with
  double compile_seconds = 0;  ///< summed over configs (the compilers' time, not wall time)
  double run_seconds = 0;      ///< summed over the runs
  double wall_seconds = 0;     ///< the whole check
};

/// Judges one check of a case: pure. `signatures` are the check's findings' signatures, in
/// order (pipeline::signatures_of). A finding of an expected kind whose bucket matches is
/// preferred to one whose bucket does not.
CaseOutcome judge_known_bug(const KnownBugCase& bug, const oracle::Verdict& verdict,
                            const std::vector<triage::Signature>& signatures);

/// One config set over the suite: each case's outcome and the totals.
struct RecallResult {
  ConfigSet set;
  std::vector<CaseOutcome> cases;
  std::size_t checked = 0, found = 0, right_bucket = 0, right_stage = 0, no_stage = 0, skipped = 0;
  std::size_t confirmed_missed = 0;  ///< cases marked confirmed that were checked and not found
  double compile_seconds = 0, run_seconds = 0, wall_seconds = 0;
  double recall() const { return checked == 0 ? 0.0 : double(found) / double(checked); }
};

struct RecallRequest {
  std::vector<KnownBugCase> cases;
  std::vector<ConfigSet> sets;
  std::optional<runners::Mode> mode;  ///< every case in this mode (else each case's own)
  runners::Limits compile_limits = pipeline::limits(pipeline::kFileCompileSeconds);
  runners::Limits run_limits = pipeline::limits(pipeline::kRunSeconds);
  runners::Toolchain toolchain;
  runners::GpuDiscovery gpus;  ///< none: cases that need a GPU are skipped, with the reason
};

struct RecallReport {
  std::string nvcc_version, clang_version, gpu;  ///< gpu: the first GPU, or why there is none
  std::vector<RecallResult> results;  ///< one per set, in the request's order
};

/// Checks every case (pipeline::check_test, one case at a time so its time is its own) under
/// every set and judges it. A line per case goes to `err`.
RecallReport measure_recall(const RecallRequest& request, std::ostream& err);
/// The report as JSON: the versions, the GPU, and each set's totals and cases.
boost::json::value to_json(const RecallReport& report);

} // namespace cudiff::campaign
