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

/// Half the cores (each batch builds with two compilers at once), at least one.
std::size_t default_fuzz_jobs();

/// Runs (or resumes) the campaign; prints progress to `err` and the summary to `out`.
int run_campaign(CampaignSetup& setup, std::ostream& out, std::ostream& err);

} // namespace cudiff::cli
