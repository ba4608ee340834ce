// Command-line options: one declarative table per subcommand drives parsing and --help, and
// the flags several commands share are declared once, in one table (shared_option), with the
// readers that turn them into the stages' types.
#pragma once

#include "generator/generator.h"
#include "pipeline/check.h"
#include "runners/runners.h"
#include "triage/triage.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cudiff::cli {

struct OptionSpec {
  std::string name;        ///< "--mode"
  std::string value_name;  ///< "MODE"; empty for a flag without a value
  std::string help;
};

struct CommandSpec {
  std::string name;         ///< "check"
  std::string usage;        ///< "cudiff check FILE.cu [options]"
  std::string description;  ///< a few lines
  std::vector<OptionSpec> options;
  /// Takes what follows a bare "--" untouched (another command's options), in ParsedArgs::rest.
  bool takes_rest = false;
};

class ParsedArgs {
public:
  std::vector<std::string> positionals;
  std::vector<std::string> rest;  ///< after "--" (CommandSpec::takes_rest)
  bool has(const std::string& name) const { return values_.count(name) != 0; }
  std::optional<std::string> value(const std::string& name) const;
  /// A number option; throws Error(usage) when it is not a positive number.
  std::optional<double> positive_number(const std::string& name) const;
  /// A duration option in seconds (parse_duration: "90", "90s", "4m30s", "1h30m"), if given;
  /// throws Error(usage) naming the option.
  std::optional<double> duration(const std::string& name) const;
  /// The option as a non-negative integer (decimal digits only), if given; throws Error(usage).
  std::optional<std::uint64_t> unsigned_number(const std::string& name) const;
  void set(const std::string& name, std::string value) { values_[name] = std::move(value); }

private:
  std::map<std::string, std::string> values_;
};

/// Accepts "--opt VALUE", "--opt=VALUE" and flags; "--help"/"-h" is always known.
/// Throws Error(usage) for an unknown option or a missing value.
ParsedArgs parse_args(const CommandSpec& spec, const std::vector<std::string>& args);
std::string render_help(const CommandSpec& spec);
/// The flags of an option that passes them on to another program ("-max_len=8192 -seed=3",
/// "--account=lab --qos=high"): split at spaces, no quoting, empty words dropped.
std::vector<std::string> split_flags(const std::string& text);
/// Seconds from a duration like "90", "90s", "15m", "8h" or "1.5h"; throws Error(usage) naming
/// `option` for anything else, or a duration that is not positive.
double parse_duration(const std::string& text, const std::string& option);

// ---- the flags several commands share ------------------------------------------------------

/// Each flag that more than one command takes. Its name, value and help are declared once
/// (options.cpp); what differs between commands is in the command's Defaults.
enum class Flag {
  db,
  known,
  config,
  arch,
  mode,
  build_path,
  size,
  policy,
  jobs,
  seed,
  nvcc,
  clang,
  timeout,
  run_timeout,
  warnings,
  json,
  quiet
};

/// A command's own defaults for the shared flags, declared in one place per command (its
/// `defaults()`): the help text shows them and the readers below use them.
struct Defaults {
  std::optional<std::string> db;      ///< none: nothing is recorded unless --db is given
  bool db_created = true;             ///< a missing database is created (else it must exist)
  double compile_seconds = 300;       ///< --timeout
  double run_seconds = 60;            ///< --run-timeout
  std::string jobs = "the number of cores";  ///< --jobs: what it counts and its default, in words
  std::string json = "print JSON instead of a table";
  std::string seed = "first seed";
  std::string quiet = "no progress line";
  std::string known = "more known differences, from a file (added to the shipped ones; docs/triage.md)";
  /// Without --config: the cross-level set (runners::cross_level_configs) when a GPU is found
  /// and binaries run, else runners::default_configs(). False: always the default.
  bool cross_level_with_gpu = false;
};

/// The shared flag as this command shows it in --help.
OptionSpec shared_option(Flag flag, const Defaults& defaults);
/// Several of them, in order.
std::vector<OptionSpec> shared_options(std::initializer_list<Flag> flags, const Defaults& defaults);

/// --db, or the command's default database; none when it has none and --db is not given.
std::optional<std::filesystem::path> read_db(const ParsedArgs& args, const Defaults& defaults);
/// The project's known differences (triage::KnownDifferences::shipped, the rules catalog's
/// dialect entries), unless --no-known, then --known's file's entries; throws Error with one
/// line for a bad file.
triage::KnownDifferences read_known(const ParsedArgs& args);
/// --no-known, as every command that takes --known shows it.
OptionSpec no_known_option();
/// --config with --arch applied (runners::set_arch). Without --config:
/// runners::cross_level_configs() when `defaults.cross_level_with_gpu` and `binaries_run` (a
/// GPU was found and the mode runs), else runners::default_configs().
std::vector<runners::Config> read_configs(const ParsedArgs& args, const Defaults& defaults = {},
                                          bool binaries_run = false);
/// Whether binaries run: a GPU is present and --mode is run or not given.
bool binaries_run(const ParsedArgs& args, bool gpu_present);
/// --mode; none when not given. Throws Error(usage) for an unknown mode.
std::optional<runners::Mode> read_mode(const ParsedArgs& args);
/// --build-path device|whole (default device); anything else is a usage error.
pipeline::BuildPath read_build_path(const ParsedArgs& args);
/// --size (default small).
generator::Size read_size(const ParsedArgs& args);
/// --policy loaded over the defaults (the defaults when not given); a bad file is a usage
/// error naming it.
generator::Policy read_policy(const ParsedArgs& args);
/// --timeout / --run-timeout, else the command's defaults, with the memory limit.
runners::Limits read_compile_limits(const ParsedArgs& args, const Defaults& defaults);
runners::Limits read_run_limits(const ParsedArgs& args, const Defaults& defaults);
/// The search order of runners::discover_toolchain, from --nvcc and --clang, then the
/// environment (CUDIFF_NVCC, CUDIFF_CLANG, CUDA_HOME).
runners::ToolchainSearch toolchain_search(const ParsedArgs& args);
/// The compilers found by that search; throws Error(environment) naming what is missing.
runners::Toolchain read_toolchain(const ParsedArgs& args);

} // namespace cudiff::cli
