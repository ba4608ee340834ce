// cudiff-libfuzzer's own flags (the "--name=value" ones libFuzzer passes over) and the
// campaign::GuidedOptions they make; `cudiff fuzz --engine libfuzzer` checks its options with
// them before it starts the process.
#include "cli/commands.h"

namespace cudiff::cli {
namespace {

/// cudiff-libfuzzer's defaults for the shared flags.
Defaults defaults() {
  Defaults d;
  d.db = "cudiff.db";
  d.quiet = "no progress lines";
  return d;
}

} // namespace

CommandSpec guided_spec() {
  CommandSpec spec{
      "cudiff-libfuzzer",
      "cudiff-libfuzzer [libFuzzer flags and corpus directories] [--db=FILE] [--known=FILE] [--size=SIZE]\n"
      "                 [--policy=FILE] [--config=LIST] [--mode=MODE] [--gpus=none] [--features-log=FILE]\n"
      "                 [--baseline-seeds=FIRST [--baseline-time=DURATION | --baseline-tests=N]]",
      "Guided generation: libFuzzer's input bytes drive the generator; every program is built\n"
      "with both compilers (and run, with a GPU), judged, and its findings filed in the triage\n"
      "database; what the compilers did (diagnostic ids, PTX instruction kinds, the verdict) is\n"
      "libFuzzer's coverage. cudiff's own flags start with \"--\" (libFuzzer ignores those);\n"
      "everything else is libFuzzer's (-help=1 lists them): -max_total_time=S, -runs=N,\n"
      "-fork=N, -jobs=N, corpus directories. `cudiff fuzz --engine libfuzzer` starts it.",
      {shared_option(Flag::db, defaults()),
       {"--campaign", "ID", "file into this existing campaign (set by cudiff fuzz --engine libfuzzer)"},
       shared_option(Flag::known, defaults()),
       no_known_option(),
       shared_option(Flag::size, defaults()),
       shared_option(Flag::policy, defaults()),
       shared_option(Flag::config, defaults()),
       shared_option(Flag::mode, defaults()),
       {"--gpus", "none", "compile-only even where a GPU is present"},
       {"--features-log", "FILE", "append one JSON line per program: time, features, findings (bench/guided)"},
       {"--baseline-seeds", "FIRST", "no libFuzzer: check seeds FIRST, FIRST+1, ... (the unguided baseline)"},
       {"--baseline-time", "DURATION", "how long the baseline runs (90s, 15m, 8h)"},
       {"--baseline-tests", "N", "how many seeds the baseline checks"},
       shared_option(Flag::quiet, defaults())}};
  for (auto& option : shared_options({Flag::nvcc, Flag::clang}, defaults())) spec.options.push_back(option);
  return spec;
}

campaign::GuidedOptions guided_options(const ParsedArgs& args) {
  campaign::GuidedOptions options;
  if (auto db = args.value("--db")) options.db_path = *db;
  options.campaign = args.value("--campaign");
  options.known = read_known(args);
  options.size = read_size(args);
  options.policy = read_policy(args);
  options.configs = read_configs(args);
  options.mode = read_mode(args);
  if (auto gpus = args.value("--gpus")) {
    if (*gpus != "none" && *gpus != "all") throw_usage("--gpus takes none or all here, got '" + *gpus + "'");
    options.no_gpu = *gpus == "none";
  }
  if (auto log = args.value("--features-log")) options.features_log = *log;
  options.search = toolchain_search(args);
  options.quiet = args.has("--quiet");
  options.baseline_first_seed = args.unsigned_number("--baseline-seeds");
  if (auto time = args.value("--baseline-time")) options.baseline_seconds = parse_duration(*time, "--baseline-time");
  options.baseline_tests = args.unsigned_number("--baseline-tests");
  if (!options.baseline_first_seed && (args.has("--baseline-time") || args.has("--baseline-tests")))
    throw_usage("--baseline-time and --baseline-tests go with --baseline-seeds");
  return options;
}

} // namespace cudiff::cli
