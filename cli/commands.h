// The subcommands behind run_cli, and what several of them share: how a check, a reduction
// and a campaign's parameters are read from options and shown.
#pragma once

#include "campaign/campaign.h"
#include "cli/options.h"
#include "pipeline/pipeline.h"

#include <iosfwd>

namespace cudiff::cli {

/// A subcommand: its spec (for --help) and what it does with its arguments.
struct Subcommand {
  CommandSpec spec;
  int (*run)(const ParsedArgs& args, std::ostream& out, std::ostream& err);
};

Subcommand check_subcommand();
Subcommand toolchains_subcommand();
Subcommand triage_subcommand();
Subcommand generate_subcommand();
Subcommand fuzz_subcommand();
Subcommand reduce_subcommand();
Subcommand rules_subcommand();
Subcommand slurm_subcommand();
Subcommand recall_subcommand();

// ---- a check, shown (cli/check_report.cpp) ----------------------------------------------

/// One table row per config, notes, layout, the verdict.
std::string render_check_table(const pipeline::TestCheck& run);
boost::json::value check_json(const pipeline::TestCheck& run);

// ---- reductions (cli/reduce_command.cpp) --------------------------------------------------

/// --jobs, --time-limit, --schedule, --no-format: shared by `reduce` and `triage reduce`.
std::vector<OptionSpec> reduce_options();
/// A request with those options read (the file, test and checks are the caller's).
pipeline::ReduceRequest reduce_request(const ParsedArgs& args);
/// The pass log, sizes before and after (bytes, lines, tokens), tests and their rate, the
/// signature kept and where the result went; or all of it as JSON.
void report_reduction(const pipeline::ReduceRequest& request, const pipeline::ReduceOutcome& outcome, bool json,
                      std::ostream& out);
/// `cudiff triage reduce ID`.
int triage_reduce(const ParsedArgs& args, std::ostream& out, std::ostream& err);

// ---- avoid rules (cli/avoid_command.cpp) ---------------------------------------------------

/// `cudiff triage avoid [list | derive FILE | set CAUSE KNOB=VALUE,... | drop CAUSE]`.
int triage_avoid(const ParsedArgs& args, const std::filesystem::path& db_path, std::ostream& out);

// ---- campaigns (cli/fuzz_command.cpp) -----------------------------------------------------

/// A new batch campaign's parameters from `cudiff fuzz` options, every option checked
/// (Error(usage)); `cudiff slurm submit` checks its fuzz options with it too.
campaign::FuzzParams new_fuzz_params(const ParsedArgs& args, bool gpu_present = false);

// ---- cudiff-libfuzzer (cli/guided_options.cpp) --------------------------------------------

/// The `--name=value` flags of cudiff-libfuzzer (libFuzzer ignores flags that start with "--",
/// so they travel through -fork and -jobs to every child).
CommandSpec guided_spec();
/// The options from cudiff-libfuzzer's "--" flags; throws Error(usage) for a bad one, naming it.
campaign::GuidedOptions guided_options(const ParsedArgs& args);

} // namespace cudiff::cli
