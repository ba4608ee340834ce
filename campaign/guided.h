// campaign: guided generation (libFuzzer) — a guided session's options, features and results,
// and a guided campaign run by cudiff-libfuzzer.
#pragma once

#include "common/common.h"
#include "generator/generator.h"
#include "oracle/oracle.h"
#include "pipeline/check.h"
#include "runners/runners.h"
#include "triage/triage.h"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace cudiff::campaign {

// libFuzzer's input bytes drive the generator's decisions (ByteRng), each program is checked
// and filed like a campaign's test, and what the compilers did with it (diagnostic ids, PTX
// instruction kinds and directives, outcomes, the verdict) comes back as features that
// libFuzzer counts as coverage, so it keeps and mutates the inputs that made a compiler do
// something new. cudiff-libfuzzer (cli/libfuzzer_main.cpp) is the process libFuzzer drives.

/// What a guided session is asked to do: cudiff-libfuzzer's flags, or the unguided baseline.
struct GuidedOptions {
  std::filesystem::path db_path = "cudiff.db";
  std::optional<std::string> campaign;  ///< join this campaign (set by `cudiff fuzz --engine libfuzzer`)
  triage::KnownDifferences known;
  generator::Size size = generator::Size::small;
  generator::Policy policy = generator::Policy::defaults();
  std::vector<runners::Config> configs = runners::default_configs();
  std::optional<runners::Mode> mode;  ///< none: run with a GPU, else binary (compile-only)
  bool no_gpu = false;                ///< --gpus none
  std::optional<std::filesystem::path> features_log;  ///< one JSON line per program (bench/guided)
  runners::ToolchainSearch search;
  bool quiet = false;
  /// The unguided baseline (bench/guided): seeds from here, one program each, no libFuzzer.
  std::optional<std::uint64_t> baseline_first_seed;
  double baseline_seconds = 0;  ///< 0: no time limit
  std::optional<std::uint64_t> baseline_tests;
};

/// Whether programs run on a GPU: one is present, --gpus none was not given, and the mode is
/// run or unset.
bool guided_runs(const GuidedOptions& options, const runners::GpuDiscovery& gpus);
/// A new campaign row of `kind` ("guided", "baseline"): this host, the compilers' versions,
/// the configs, the first GPU when programs run, the mode.
triage::Campaign new_guided_campaign(const std::string& kind, const GuidedOptions& options,
                                     const runners::Toolchain& toolchain, const runners::GpuDiscovery& gpus);

/// What the compilers did with one program, as named features with counts. The names:
/// "outcome <config> <accepted|rejected|crashed|hung>", "diag <config> <tool> <severity> <id>",
/// "run <config> <status>", "ptx <config> <instruction kind>", "ptx <config> directive <.name>",
/// "ptx <config> space <.name>", "verdict agree", "finding <kind> <side>", "bucket <key>".
using Features = std::map<std::string, std::uint32_t>;

/// The features of a finished check, with the PTX each accepted config emitted (by config name)
/// and the signatures of its findings. Pure.
Features check_features(const pipeline::TestCheck& run, const std::map<std::string, oracle::PtxFeatures>& ptx,
                        const std::vector<triage::Signature>& signatures);

/// One program's result.
struct GuidedResult {
  std::string name;  ///< "cudiff_in_<hash>" or "cudiff_<seed>"
  Features features;
  std::string headline;  ///< the verdict's
  std::size_t findings = 0;
  std::vector<std::string> new_buckets;
  double seconds = 0;
  std::string generator_error;  ///< the generator threw (a cudiff bug): nothing was compiled
};

/// Distinct things seen so far by one session (its progress line, and the bench's curves).
struct GuidedTotals {
  std::uint64_t programs = 0, findings = 0, new_buckets = 0, generator_errors = 0;
  std::set<std::string> diagnostic_ids;  ///< "<tool> <severity> <id>", whichever config printed it
  std::set<std::string> ptx_kinds;       ///< instruction kinds, whichever config emitted them
  std::set<std::string> buckets;
  /// Adds one program's features.
  void add(const Features& features);
};

/// One process's share of a guided campaign: the database, the compilers, a scratch directory.
class GuidedSession {
public:
  /// Opens the database (a new campaign of kind "guided", or joins options.campaign), finds
  /// the compilers and GPUs. Throws Error with one line when any of them is unusable.
  GuidedSession(GuidedOptions options, std::ostream& log);
  GuidedSession(const GuidedSession&) = delete;
  GuidedSession& operator=(const GuidedSession&) = delete;

  /// The program `bytes` name, checked, filed, and its features.
  GuidedResult test_bytes(std::string_view bytes);
  /// The program of `seed` (a SeededRng, as `cudiff generate --seed` makes it): the baseline.
  GuidedResult test_seed(std::uint64_t seed);
  /// The baseline: test_seed from options.baseline_first_seed until its time or test count is
  /// used up. Returns the process exit status.
  int run_baseline();

  const GuidedTotals& totals() const { return totals_; }
  const std::string& campaign_id() const { return campaign_.id; }
  /// "guided 7a3c...: 40 programs, 3 findings (2 new buckets), 0.31 programs/s, 57 diagnostic ids, 212 PTX kinds"
  std::string progress_line() const;

private:
  GuidedResult test(const generator::TestCase& program, const std::string& seed_text, std::string_view input);
  std::map<std::string, oracle::PtxFeatures> emitted_ptx(const pipeline::TestCheck& run,
                                                         const std::filesystem::path& dir);
  void file_program(const generator::TestCase& program, const std::string& seed_text, std::string_view input,
                    const pipeline::TestCheck& run, const std::vector<triage::Signature>& signatures,
                    GuidedResult& result);
  void log_features(const GuidedResult& result);
  void note_progress();

  GuidedOptions options_;
  std::ostream& log_;
  triage::Database db_;
  triage::Campaign campaign_;
  runners::Toolchain toolchain_;
  runners::GpuDiscovery gpus_;
  pipeline::CheckRequest request_;
  TempDir workdir_;
  GuidedTotals totals_;
  std::chrono::steady_clock::time_point started_, last_line_;
};

/// A guided campaign run by cudiff-libfuzzer (`cudiff fuzz --engine libfuzzer`).
struct LibFuzzerCampaign {
  std::filesystem::path libfuzzer_binary;  ///< cudiff-libfuzzer
  /// cudiff-libfuzzer's own "--name=value" flags (db, known, size, policy, configs, mode,
  /// gpus, compilers), already checked by the caller.
  std::vector<std::string> flags;
  GuidedOptions options;  ///< the same, parsed
  std::filesystem::path corpus = "corpus/guided/live";
  bool corpus_given = false;  ///< else corpus/guided/seeds is read too
  double time_budget = 0;     ///< seconds; 0: `tests` programs
  std::uint64_t tests = 200;
  std::optional<std::uint64_t> seed;
  std::uint64_t jobs = 1;  ///< libFuzzer -fork
  std::vector<std::string> libfuzzer_flags;
  bool quiet = false, reduce = true;
  std::optional<std::filesystem::path> report;
};

struct LibFuzzerSummary {
  triage::Campaign campaign;
  std::vector<std::string> new_buckets, reductions;
  double seconds = 0;
  bool runs = false;         ///< programs ran on a GPU
  bool interrupted = false;  ///< Ctrl-C
  std::string status;        ///< libFuzzer's exit ("exit 0", "signal 9")
  bool clean = false;        ///< libFuzzer used up its budget or was interrupted
  std::filesystem::path corpus, report;
};

/// Creates the campaign, starts cudiff-libfuzzer with the campaign's options as its flags,
/// shows progress from the database on `err` while it runs (every 30 s), then reduces the new
/// buckets and writes the report. Ctrl-C stops libFuzzer, and the campaign is still closed.
LibFuzzerSummary run_libfuzzer_campaign(const LibFuzzerCampaign& request, std::ostream& err);

} // namespace cudiff::campaign
