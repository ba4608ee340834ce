// `cudiff fuzz`: a campaign. Workers (one per --jobs) take batches of seeds and check them;
// the main thread is the database's one writer, committing each batch's tests and findings in
// one transaction, so a campaign killed at any moment resumes (--resume) without losing or
// repeating a seed. At the end: each new bucket's reproducer reduced, the HTML report written.
#include "cli/commands.h"
#include "cli/fuzz.h"
#include "cli/fuzz_campaign.h"

#include <ctime>
#include <ostream>

namespace cudiff::cli {
namespace {

/// The campaign's name and this database's shard: --campaign and --shard, else what a Slurm
/// array task's environment says. Shards of one campaign must share a name (it gives them
/// their common id and first seed).
void name_and_shard(const ParsedArgs& args, FuzzParams& params) {
  const auto slurm = slurm_array_task(process_environment());
  params.shard = args.has("--shard") ? parse_shard(*args.value("--shard")) : slurm ? slurm->shard : Shard{};
  params.name = args.value("--campaign").value_or(slurm ? slurm->campaign_name : "");
  if (args.has("--campaign") && params.name.empty()) throw_usage("--campaign needs a name");
  if (params.shard.count > 1 && params.name.empty())
    throw_usage("--shard needs --campaign NAME: the shards of a campaign share its name, which gives them one "
                "campaign id and one seed sequence");
}

} // namespace

FuzzParams new_fuzz_params(const ParsedArgs& args) {
  FuzzParams params;
  name_and_shard(args, params);
  if (args.has("--time") && args.has("--tests")) throw_usage("give --time or --tests, not both");
  if (args.has("--time")) params.time_budget = parse_duration(*args.value("--time"), "--time");
  else params.tests = args.unsigned_number("--tests").value_or(200);
  if (params.tests && *params.tests == 0) throw_usage("--tests must be at least 1");
  // A fresh seed per campaign unless one is given (two nights never test the same programs);
  // a named campaign's comes from its name, so that every shard starts from the same one.
  params.first_seed = args.has("--seed")      ? args.unsigned_number("--seed").value_or(0)
                      : !params.name.empty() ? named_campaign_seed(params.name)
                                             : (SeededRng(static_cast<std::uint64_t>(std::time(nullptr))).next_u64() >> 24);
  params.batch = args.unsigned_number("--batch").value_or(8);
  if (params.batch == 0 || params.batch > 256) throw_usage("--batch must be between 1 and 256");
  params.size = generator::parse_size(args.value("--size").value_or("small"));
  generator::Policy policy = generator::Policy::defaults();
  if (auto path = args.value("--policy")) {
    try {
      policy = generator::Policy::load(read_file(*path));
    } catch (const Error& error) {
      if (error.kind() == ErrorKind::usage) throw_usage(*path + ": " + error.what());
      throw;
    }
  }
  params.policy = policy.dump();
  for (const auto& config : args.has("--config") ? runners::parse_configs(*args.value("--config")) : runners::default_configs())
    params.configs.push_back(config.name);
  if (auto mode = args.value("--mode")) {
    params.mode = runners::parse_mode(*mode);
    if (!params.mode) throw_usage("unknown mode '" + *mode + "' (syntax, ptx, object, binary, run)");
  }
  params.reduce = !args.has("--no-reduce");
  params.reduce_in_parallel = args.has("--reduce-in-parallel");
  if (!params.reduce && params.reduce_in_parallel) throw_usage("--no-reduce and --reduce-in-parallel contradict each other");
  return params;
}

namespace {

/// --gpus all (default), none, or a list of indices among those discovered.
runners::GpuDiscovery choose_gpus(const ParsedArgs& args, runners::GpuDiscovery found) {
  const std::string wanted = args.value("--gpus").value_or("all");
  if (wanted == "all") return found;
  runners::GpuDiscovery chosen;
  chosen.note = "--gpus " + wanted;
  if (wanted == "none") return chosen;
  for (const std::string& listed : split(wanted, ',')) {
    const std::string item(trim(listed));
    bool present = false;
    for (const auto& gpu : found.gpus)
      if (std::to_string(gpu.index) == item) {
        chosen.gpus.push_back(gpu);
        present = true;
      }
    if (!present) throw_usage("--gpus: no GPU " + item + " here (" + std::to_string(found.gpus.size()) + " found" +
                              (found.gpus.empty() ? ": " + found.note : "") + ")");
  }
  return chosen;
}

int run_fuzz(const ParsedArgs& args, std::ostream& out, std::ostream& err) {
  if (!args.positionals.empty()) throw_usage("fuzz takes no file arguments (see cudiff fuzz --help)");
  const std::string engine = args.value("--engine").value_or("batches");
  if (engine != "batches" && engine != "libfuzzer") throw_usage("--engine takes batches or libfuzzer, got '" + engine + "'");
  if (engine == "batches")
    for (const char* name : {"--corpus", "--libfuzzer-flags"})
      if (args.has(name)) throw_usage(std::string(name) + " goes with --engine libfuzzer");
  if (engine == "libfuzzer")
    for (const char* name : {"--shard", "--campaign"})
      if (args.has(name)) throw_usage(std::string(name) + " goes with the batch engine (libFuzzer shards with --jobs)");
  if (engine == "libfuzzer") {
    if (args.has("--time") && args.has("--tests")) throw_usage("give --time or --tests, not both");
    if (args.has("--tests") && args.unsigned_number("--tests").value_or(0) == 0) throw_usage("--tests must be at least 1");
    return run_libfuzzer_engine(args, args.has("--time") ? parse_duration(*args.value("--time"), "--time") : 0, out, err);
  }
  CampaignSetup setup;
  setup.db_path = args.value("--db").value_or("cudiff.db");
  if (args.has("--known")) setup.known = triage::KnownDifferences::load(*args.value("--known"));
  setup.quiet = args.has("--quiet");
  setup.json = args.has("--json");
  setup.report = args.value("--report");
  setup.resume = args.has("--resume");
  if (setup.resume)
    for (const char* name : {"--time", "--tests", "--seed", "--batch", "--size", "--policy", "--config", "--mode",
                             "--reduce-in-parallel", "--shard", "--campaign"})
      if (args.has(name)) throw_usage(std::string("--resume continues a campaign as it was started; drop ") + name);
  if (!setup.resume) setup.params = new_fuzz_params(args);
  setup.no_reduce = args.has("--no-reduce");  // also for a resumed campaign: skip reducing now
  setup.toolchain = runners::Toolchain::from(runners::discover_toolchain(toolchain_search(args)));
  setup.gpus = choose_gpus(args, runners::discover_gpus());
  const std::uint64_t jobs = args.unsigned_number("--jobs").value_or(0);
  setup.jobs = jobs > 0 ? jobs : default_fuzz_jobs();
  return run_campaign(setup, out, err);
}

} // namespace

Subcommand fuzz_subcommand() {
  CommandSpec spec{
      "fuzz",
      "cudiff fuzz [--time 8h | --tests N] [--db cudiff.db] [--jobs N] [--gpus all|none|0,1,...] [--batch K]\n"
      "            [--config LIST] [--policy FILE] [--seed S] [--size SIZE] [--no-reduce | --reduce-in-parallel]\n"
      "            [--quiet] [--resume] [--campaign NAME [--shard I/N]]\n"
      "cudiff fuzz --engine libfuzzer [--time 8h | --tests N] [--jobs N] [--corpus DIR] [--libfuzzer-flags \"...\"]\n"
      "            [the options above but --batch, --resume, --reduce-in-parallel]",
      "A campaign: generate programs in batches, build them with every config on all cores, run\n"
      "them on every GPU (compile-only when there is none), judge, isolate each finding to one\n"
      "test, file it in the triage database, reduce each new bucket's reproducer, and write an\n"
      "HTML report. A campaign killed at any moment continues with --resume.\n"
      "A named campaign (--campaign NAME) can be split over databases: --shard I/N tests every\n"
      "N-th batch, so N shards (Slurm array tasks set them themselves) never test the same seed\n"
      "and merge into one campaign (cudiff triage merge). Running a named campaign's command\n"
      "again continues it (see cudiff slurm submit).\n"
      "With --engine libfuzzer, libFuzzer's input bytes drive the generator and what the compilers\n"
      "did (diagnostic ids, PTX instruction kinds, verdicts) is its coverage: it keeps and mutates\n"
      "the inputs that made a compiler do something new (cudiff-libfuzzer, one program per input).\n"
      "Exit status: 0 done (findings or not), 2 usage or environment error.",
      {{"--engine", "ENGINE", "batches (default: seeds in batches) or libfuzzer (guided by the compilers' behaviour)"},
       {"--corpus", "DIR", "libfuzzer: where new inputs go (default corpus/guided/live; corpus/guided/seeds is read too)"},
       {"--libfuzzer-flags", "\"FLAGS\"", "libfuzzer: more libFuzzer flags, space-separated (e.g. \"-max_len=8192\")"},
       {"--time", "DURATION", "run this long (90s, 15m, 8h); in-flight batches finish"},
       {"--tests", "N", "test this many generated programs (default 200); libfuzzer: its -runs=N (seed inputs included)"},
       {"--db", "FILE", "triage database (default cudiff.db; created if missing)"},
       {"--jobs", "N", "batches checked at once (default: half the cores this process may use; each builds with every config); "
                       "libfuzzer: -fork=N processes (default 1)"},
       {"--gpus", "LIST", "all (default), none (compile-only), or GPU indices 0,1,..."},
       {"--batch", "K", "programs per translation unit (default 8)"},
       {"--config", "LIST", "configs (default nvcc-O3,clang-O3)"},
       {"--mode", "MODE", "syntax, ptx, object, binary or run (default: run with a GPU, else binary)"},
       {"--policy", "FILE", "generator policy (see cudiff generate --dump-policy)"},
       {"--seed", "S", "first seed (default: a fresh one per campaign); libfuzzer: its -seed=S"},
       {"--size", "SIZE", "small (default), medium, large"},
       {"--known", "FILE", "known-differences file: matching buckets are marked known"},
       {"--report", "FILE", "where the HTML report goes (default: the database's name with -report.html)"},
       {"--no-reduce", "", "do not reduce new buckets' reproducers at the end"},
       {"--reduce-in-parallel", "", "reduce each new bucket as it appears, alongside fuzzing (one at a time)"},
       {"--quiet", "", "no progress line (cron, batch jobs); the summary is still printed"},
       {"--json", "", "print the summary as JSON"},
       {"--resume", "", "continue the database's unfinished campaign"},
       {"--campaign", "NAME", "a named campaign: its id and default seed come from NAME; run again, it continues "
                              "(default in a Slurm array task: slurm-<cluster>-<array job id>)"},
       {"--shard", "I/N", "test shard I (0 to N-1) of N: every N-th batch; --tests counts the whole campaign "
                          "(default in a Slurm array task: from SLURM_ARRAY_TASK_ID and _COUNT)"}}};
  for (auto& option : toolchain_options()) spec.options.push_back(option);
  return {spec, run_fuzz};
}

} // namespace cudiff::cli
