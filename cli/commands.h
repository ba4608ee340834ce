// The subcommands behind run_cli, and the option groups they share.
#pragma once

#include "cli/options.h"
#include "runners/runners.h"

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

/// --nvcc and --clang, shared by every command that compiles.
std::vector<OptionSpec> toolchain_options();
/// The search order of runners::discover_toolchain, filled from flags, then environment
/// variables (CUDIFF_NVCC, CUDIFF_CLANG, CUDA_HOME).
runners::ToolchainSearch toolchain_search(const ParsedArgs& args);

} // namespace cudiff::cli
