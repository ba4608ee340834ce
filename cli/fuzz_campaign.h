// The campaign engine behind `cudiff fuzz` (cli/fuzz_campaign.cpp): what the command line
// decided, and the loop that runs the workers and writes the database.
#pragma once

#include "cli/fuzz.h"

#include <iosfwd>

namespace cudiff::cli {

struct CampaignSetup {
  std::filesystem::path db_path;
  triage::KnownDifferences known;
  bool quiet = false, json = false, resume = false;
  bool no_reduce = false;  ///< --no-reduce: overrides a resumed campaign's stored choice
  std::optional<std::filesystem::path> report;
  FuzzParams params;  ///< a new campaign's (ignored with resume: read from the database)
  runners::Toolchain toolchain;
  runners::GpuDiscovery gpus;  ///< the GPUs to use (none: compile-only)
  std::size_t jobs = 1;
};

/// The bucket's reproducer reduced by `cudiff triage reduce KEY --db DB --jobs N` in a child
/// process (15 minutes at most), so a reduction that fails or is killed costs that bucket's
/// reduction only. Returns the line to print.
std::string reduce_bucket(const std::filesystem::path& db_path, const std::string& key, std::size_t jobs);

/// A new batch campaign's parameters from `cudiff fuzz` options (cli/fuzz_command.cpp), every
/// option checked (Error(usage)); `cudiff slurm submit` checks its fuzz options with it too.
FuzzParams new_fuzz_params(const ParsedArgs& args);

/// `cudiff fuzz --engine libfuzzer` (cli/fuzz_libfuzzer.cpp): a guided campaign run by
/// cudiff-libfuzzer, for `time_budget` seconds (0: --tests programs).
int run_libfuzzer_engine(const ParsedArgs& args, double time_budget, std::ostream& out, std::ostream& err);

/// The cores this process may use: its CPU affinity, capped by SLURM_CPUS_PER_TASK.
std::size_t usable_cores();
/// Half the usable cores (each batch builds with two compilers at once), at least one.
std::size_t default_fuzz_jobs();

/// Runs (or resumes) the campaign; prints progress to `err` and the summary to `out`.
int run_campaign(CampaignSetup& setup, std::ostream& out, std::ostream& err);

} // namespace cudiff::cli
