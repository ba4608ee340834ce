// `cudiff fuzz`: a campaign (campaign::run_campaign), or a guided one driven by libFuzzer
// (campaign::run_libfuzzer_campaign): options in, the summary table (or JSON) out.
#include "cli/commands.h"

#include <ctime>
#include <ostream>

namespace cudiff::cli {
namespace {

/// fuzz's own defaults for the shared flags.
Defaults defaults() {
  Defaults d;
  d.db = "cudiff.db";
  d.jobs = "batches checked at once (default: half the cores this process may use, or of those the reductions "
           "alongside leave; each builds with every config); libfuzzer: -fork=N processes (default 1)";
  d.seed = "first seed (default: a fresh one per campaign); libfuzzer: its -seed=S";
  d.quiet = "no progress line (cron, batch jobs); the summary is still printed";
  d.json = "print the summary as JSON";
  d.cross_level_with_gpu = true;
  return d;
}

/// The campaign's name and this database's shard: --campaign and --shard, else what a Slurm
/// array task's environment says. Shards of one campaign must share a name (it gives them
/// their common id and first seed).
void name_and_shard(const ParsedArgs& args, campaign::FuzzParams& params) {
  const auto slurm = campaign::slurm_array_task(campaign::process_environment());
  params.shard = args.has("--shard") ? campaign::parse_shard(*args.value("--shard"))
                 : slurm             ? slurm->shard
                                     : campaign::Shard{};
  params.name = args.value("--campaign").value_or(slurm ? slurm->campaign_name : "");
  if (args.has("--campaign") && params.name.empty()) throw_usage("--campaign needs a name");
  if (params.shard.count > 1 && params.name.empty())
    throw_usage("--shard needs --campaign NAME: the shards of a campaign share its name, which gives them one "
                "campaign id and one seed sequence");
}

std::string rate_text(double count, double seconds) {
  char rate[32];
  std::snprintf(rate, sizeof rate, "%.2f", seconds > 0 ? count / seconds : 0.0);
  return rate;
}

std::string percent_text(double share) {
  char text[16];
  std::snprintf(text, sizeof text, "%.0f%%", 100 * share);
  return text;
}

/// One row per GPU: where the batches went, how busy each was, what its executors did.
std::string gpus_table(const std::vector<campaign::GpuShare>& gpus) {
  TextTable table({"GPU", "batches", "runs", "busy", "executor runs", "ran as processes", "executors started"});
  for (const campaign::GpuShare& share : gpus)
    table.add_row({share.gpu.describe(), std::to_string(share.batches), std::to_string(share.runs),
                   percent_text(share.busy), share.executor ? std::to_string(share.executor->runs) : "-",
                   share.executor ? std::to_string(share.executor->fallbacks) : "-",
                   share.executor ? std::to_string(share.executor->starts) : "-"});
  return table.render();
}

std::string share_text(double share) { return percent_text(share); }

/// "3 new bugs", "1 new bug".
std::string bugs_text(std::size_t count) { return std::to_string(count) + " new bug" + (count == 1 ? "" : "s"); }

/// The summary as the tests leave it: the new bugs' tally, the table, the notes, what is left
/// to do, the report; then what is being reduced now, in what order and for how long.
void print_tests_summary(const campaign::CampaignSummary& summary, std::ostream& out) {
  const double seconds = summary.seconds;
  const campaign::ReductionSummary& reduction = summary.reduction;
  const std::string db = summary.db_path.string();
  if (reduction.only) {
    out << "campaign " << summary.campaign_id.substr(0, 12) << ": " << summary.tests << " tests, " << summary.findings
        << " findings, done before; ";
    if (summary.params.reduce)
      out << "reducing the " << bugs_text(summary.unreduced.size()) << " left, " << campaign::reduction_order_text()
          << "\n";
    else
      out << bugs_text(summary.unreduced.size()) << " left to reduce (--no-reduce): cudiff fuzz --resume --db " << db
          << " reduces them\n";
    return;
  }
  for (const std::string& line : summary.reductions) out << line << "\n";
  out << triage::describe(summary.bugs) << "\n";
  TextTable table({"campaign", "tests", "findings", "invalid", "new buckets", "time", "tests/s", "mode"});
  table.add_row({summary.campaign_id.substr(0, 12), std::to_string(summary.tests), std::to_string(summary.findings),
                 std::to_string(summary.invalid_tests), std::to_string(summary.new_buckets.size()),
                 format_seconds(seconds), rate_text(static_cast<double>(summary.tests), seconds),
                 summary.compile_only ? "compile-only" : "GPU"});
  out << table.render();
  for (const std::string& note : summary.notes) out << "note: " << note << "\n";
  if (summary.executor) out << runners::describe(*summary.executor) << "\n";
  if (summary.gpus.size() > 1) out << gpus_table(summary.gpus);
  if (summary.dropped_batches > 0)
    out << summary.dropped_batches << " batch" << (summary.dropped_batches == 1 ? " was" : "es were")
        << " still running when --time ran out: not committed; cudiff fuzz --resume --time D tests "
        << (summary.dropped_batches == 1 ? "it" : "them") << " first\n";
  if (summary.invalid_tests > 0)
    out << "the sanitizer gate rejected " << summary.invalid_tests << " test" << (summary.invalid_tests == 1 ? "" : "s")
        << " (invalid programs, not filed): cudiff triage invalid --db " << db << "\n";
  if (!summary.new_buckets.empty()) out << "new buckets: cudiff triage list --db " << db << "\n";
  if (reduction.not_queued > 0)
    out << reduction.not_queued << " new bucket" << (reduction.not_queued == 1 ? " is" : "s are")
        << " known, reported or dialect: not reduced (cudiff triage reduce ID --db " << db << " reduces one)\n";
  if (reduction.small > 0)
    out << bugs_text(reduction.small) << (reduction.small == 1 ? " has" : " have")
        << " a reproducer of a few lines already (under "
        << format_bytes(static_cast<std::uint64_t>(campaign::kSmallReproducerBytes)) << "): not reduced\n";
  out << "report: " << summary.report.string() << "\n";
  const std::size_t left = summary.unreduced.size();
  if (left == 0) return;
  if (!summary.params.reduce || reduction.window == 0) {
    out << bugs_text(left) << " to reduce ("
        << (!summary.params.reduce ? "--no-reduce"
            : reduction.share <= 0 ? "--reduce-share 0"
                                   : "no time left")
        << "): cudiff fuzz --resume --db " << db << " reduces them\n";
    return;
  }
  out << "reducing " << bugs_text(left) << " now, " << campaign::reduction_order_text() << ", for at most "
      << format_seconds(reduction.window) << " (" << share_text(reduction.share)
      << " of the campaign's time, --reduce-share)";
  if (reduction.under_way.starts_with("bucket")) out << "; under way: " << reduction.under_way;
  out << "; what is left then is listed for cudiff fuzz --resume\n";
}

/// After the reductions that followed the tests: their lines not printed yet, how many ended,
/// what is left (most important first) and how to go on, the report written again.
void print_reductions_end(const campaign::CampaignSummary& summary, std::size_t printed, bool announced,
                          std::ostream& out) {
  for (std::size_t i = printed; i < summary.reductions.size(); ++i) out << summary.reductions[i] << "\n";
  if (!announced) return;
  const campaign::ReductionSummary& reduction = summary.reduction;
  const std::string db = summary.db_path.string();
  out << "reductions: " << reduction.ended << " of " << reduction.queued << " done, "
      << format_seconds(reduction.seconds) << " after the tests";
  const std::size_t left = summary.unreduced.size();
  if (left == 0) {
    out << "; none left\n";
  } else {
    out << "; " << left << " left, most important first:";
    for (std::size_t i = 0; i < left && i < 10; ++i) out << " " << summary.unreduced[i].substr(0, 12);
    if (left > 10) out << " (and " << left - 10 << " more)";
    out << "\ncudiff fuzz --resume --db " << db << " reduces them (one: cudiff triage reduce KEY --db " << db << ")\n";
  }
  out << "report: " << summary.report.string() << " (written again after the reductions)\n";
}

std::filesystem::path libfuzzer_binary() {
  if (const char* set = std::getenv("CUDIFF_LIBFUZZER"); set && *set) return set;
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw_environment("cannot find the cudiff binary (" + ec.message() + ") to find cudiff-libfuzzer beside it");
  return self.parent_path() / "cudiff-libfuzzer";
}

int run_libfuzzer_engine(const ParsedArgs& args, std::ostream& out, std::ostream& err) {
  for (const char* name : {"--resume", "--batch", "--reduce-in-parallel", "--reduce-share", "--no-sanitizer-gate",
                           "--variants", "--no-variants", "--run-path", "--executors", "--build-path"})
    if (args.has(name)) throw_usage(std::string(name) + " is for the batch engine, not --engine libfuzzer");
  if (args.has("--time") && args.has("--tests")) throw_usage("give --time or --tests, not both");
  if (args.has("--tests") && args.unsigned_number("--tests").value_or(0) == 0)
    throw_usage("--tests must be at least 1");
  if (auto gpus = args.value("--gpus"); gpus && *gpus != "all" && *gpus != "none")
    throw_usage("--engine libfuzzer takes --gpus all or none (each process uses the first GPU)");
  campaign::LibFuzzerCampaign request;
  request.libfuzzer_binary = libfuzzer_binary();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(request.libfuzzer_binary, ec))
    throw_environment(request.libfuzzer_binary.string() +
                      " not found (build it: cmake --build build --target cudiff-libfuzzer)");

  // Everything cudiff-libfuzzer would refuse is refused here, before the campaign exists.
  request.flags = {"--db=" + args.value("--db").value_or("cudiff.db")};
  for (const char* name : {"--known", "--size", "--policy", "--config", "--mode", "--gpus", "--nvcc", "--clang"})
    if (auto value = args.value(name)) request.flags.push_back(std::string(name) + "=" + *value);
  if (args.has("--no-known")) request.flags.push_back("--no-known");
  request.options = guided_options(parse_args(guided_spec(), request.flags));
  if (auto corpus = args.value("--corpus")) {
    request.corpus = *corpus;
    request.corpus_given = true;
  }
  if (args.has("--time")) request.time_budget = parse_duration(*args.value("--time"), "--time");
  request.tests = args.unsigned_number("--tests").value_or(200);
  request.seed = args.unsigned_number("--seed");
  request.jobs = args.unsigned_number("--jobs").value_or(1);
  if (auto extra = args.value("--libfuzzer-flags")) request.libfuzzer_flags = split_flags(*extra);
  request.quiet = args.has("--quiet");
  request.reduce = !args.has("--no-reduce");
  if (auto report = args.value("--report")) request.report = *report;

  const campaign::LibFuzzerSummary summary = campaign::run_libfuzzer_campaign(request, err);
  const triage::Campaign& row = summary.campaign;
  if (args.has("--json")) {
    boost::json::array keys;
    for (const auto& key : summary.new_buckets) keys.push_back(boost::json::string(key));
    out << pretty_json(
        boost::json::object{{"campaign", row.id},
                            {"engine", "libfuzzer"},
                            {"database", request.options.db_path.string()},
                            {"tests", row.tests},
                            {"findings", row.findings},
                            {"new_buckets", std::move(keys)},
                            {"seconds", summary.seconds},
                            {"tests_per_second",
                             summary.seconds > 0 ? static_cast<double>(row.tests) / summary.seconds : 0.0},
                            {"compile_only", !summary.runs},
                            {"libfuzzer_status", summary.status},
                            {"corpus", summary.corpus.string()},
                            {"report", summary.report.string()}});
  } else {
    TextTable table({"campaign", "engine", "programs", "findings", "new buckets", "time", "programs/s", "mode"});
    table.add_row({row.id.substr(0, 12), "libfuzzer", std::to_string(row.tests), std::to_string(row.findings),
                   std::to_string(summary.new_buckets.size()), format_seconds(summary.seconds),
                   rate_text(static_cast<double>(row.tests), summary.seconds), summary.runs ? "GPU" : "compile-only"});
    out << table.render();
    for (const std::string& line : summary.reductions) out << line << "\n";
    if (!summary.new_buckets.empty())
      out << "new buckets: cudiff triage list --db " << request.options.db_path.string() << "\n";
    if (summary.interrupted) out << "note: interrupted (Ctrl-C): what was filed is kept\n";
    out << "corpus: " << summary.corpus.string() << "\nreport: " << summary.report.string() << "\n";
  }
  if (!summary.clean)
    throw_environment("cudiff-libfuzzer ended with " + summary.status +
                      " (its output above says why); what it filed is kept");
  return 0;
}

/// --reduce-share: a fraction (0.25) or a percentage (25%), 0 to campaign::kMaxReduceShare.
std::optional<double> read_reduce_share(const ParsedArgs& args) {
  const auto text = args.value("--reduce-share");
  if (!text) return std::nullopt;
  std::string number = *text;
  const bool percent = !number.empty() && number.back() == '%';
  if (percent) number.pop_back();
  double value = -1;
  try {
    std::size_t used = 0;
    value = std::stod(number, &used);
    if (used != number.size()) value = -1;
  } catch (const std::exception&) {
    value = -1;
  }
  if (percent) value /= 100;
  if (!(value >= 0 && value <= campaign::kMaxReduceShare))
    throw_usage("--reduce-share takes a share of the campaign's time from 0 to " +
                std::to_string(static_cast<int>(100 * campaign::kMaxReduceShare)) + "% (0.25 or 25%), got '" + *text +
                "'");
  return value;
}

int run_fuzz(const ParsedArgs& args, std::ostream& out, std::ostream& err) {
  if (!args.positionals.empty()) throw_usage("fuzz takes no file arguments (see cudiff fuzz --help)");
  const std::string engine = args.value("--engine").value_or("batches");
  if (engine != "batches" && engine != "libfuzzer")
    throw_usage("--engine takes batches or libfuzzer, got '" + engine + "'");
  if (engine == "batches")
    for (const char* name : {"--corpus", "--libfuzzer-flags"})
      if (args.has(name)) throw_usage(std::string(name) + " goes with --engine libfuzzer");
  if (engine == "libfuzzer")
    for (const char* name : {"--shard", "--campaign"})
      if (args.has(name)) throw_usage(std::string(name) + " goes with the batch engine (libFuzzer shards with --jobs)");
  if (engine == "libfuzzer" && args.has("--rediscover"))
    throw_usage("--rediscover goes with the batch engine (the libFuzzer engine applies no avoid rules)");
  if (engine == "libfuzzer") return run_libfuzzer_engine(args, out, err);

  campaign::CampaignSetup setup;
  setup.db_path = *read_db(args, defaults());
  setup.known = read_known(args);
  setup.quiet = args.has("--quiet");
  setup.report = args.value("--report");
  setup.resume = args.has("--resume");
  setup.rediscover = args.has("--rediscover");
  if (setup.resume)
    for (const char* name :
         {"--tests", "--seed", "--batch", "--size", "--policy", "--config", "--mode", "--reduce-in-parallel", "--shard",
          "--campaign", "--no-sanitizer-gate", "--variants", "--no-variants", "--rediscover"})
      if (args.has(name)) throw_usage(std::string("--resume continues a campaign as it was started; drop ") + name);
  // With --resume, --time is more time for a --time campaign (one that ended at its time too).
  if (setup.resume && args.has("--time")) setup.more_time = parse_duration(*args.value("--time"), "--time");
  const std::string run_path = args.value("--run-path").value_or("executor");
  const auto path = runners::parse_run_path(run_path);
  if (!path) throw_usage("--run-path takes executor or process, got '" + run_path + "'");
  setup.run_path = *path;
  setup.build_path = read_build_path(args);
  if (args.has("--executors")) {
    const std::uint64_t executors = args.unsigned_number("--executors").value_or(0);
    if (executors == 0 || executors > 16) throw_usage("--executors must be between 1 and 16");
    setup.executors_per_gpu = executors;
  }
  setup.gpus = runners::choose_gpus(runners::discover_gpus(), args.value("--gpus").value_or("all"));
  if (!setup.resume) setup.params = new_fuzz_params(args, !setup.gpus.gpus.empty());
  setup.no_reduce = args.has("--no-reduce");  // also for a resumed campaign: skip reducing now
  setup.reduce_share = read_reduce_share(args);  // also for a resumed campaign
  if (setup.no_reduce && setup.reduce_share) throw_usage("--no-reduce and --reduce-share contradict each other");
  setup.toolchain = read_toolchain(args);
  setup.jobs = args.unsigned_number("--jobs").value_or(0);  // 0: campaign::plan_cores's

  // The summary and the report come when the tests are done; the reductions follow.
  const bool json = args.has("--json");
  std::size_t printed = 0;
  bool announced = false;
  if (!json)
    setup.on_tests_done = [&](const campaign::CampaignSummary& done) {
      print_tests_summary(done, out);
      out << std::flush;
      printed = done.reductions.size();
      announced = done.params.reduce && !done.unreduced.empty() && (done.reduction.only || done.reduction.window != 0);
    };
  const campaign::CampaignSummary summary = campaign::run_campaign(setup, err);
  if (summary.already_finished) {
    err << "campaign '" << summary.params.name << "' (" << summary.campaign_id.substr(0, 12) << ", shard "
        << summary.params.shard.text() << ") in " << setup.db_path.string()
        << " has finished already: " << summary.tests << " tests, " << summary.findings << " findings";
    // Its tests are done, but a bug its reductions did not reach is still waiting: say how to go on.
    const std::size_t left = summary.params.pending_reductions.size();
    if (left > 0)
      err << "; " << left << " new bug" << (left == 1 ? "" : "s") << " left to reduce: add --resume to reduce "
          << (left == 1 ? "it" : "them") << "\n";
    else err << "; nothing to do\n";
    return 0;
  }
  if (json) out << pretty_json(campaign::to_json(summary));
  else print_reductions_end(summary, printed, announced, out);
  return 0;
}

} // namespace

campaign::FuzzParams new_fuzz_params(const ParsedArgs& args, bool gpu_present) {
  campaign::FuzzParams params;
  name_and_shard(args, params);
  if (args.has("--time") && args.has("--tests")) throw_usage("give --time or --tests, not both");
  if (args.has("--time")) params.time_budget = parse_duration(*args.value("--time"), "--time");
  else params.tests = args.unsigned_number("--tests").value_or(200);
  if (params.tests && *params.tests == 0) throw_usage("--tests must be at least 1");
  // A fresh seed per campaign unless one is given (two nights never test the same programs);
  // a named campaign's comes from its name, so that every shard starts from the same one.
  params.first_seed = args.has("--seed") ? args.unsigned_number("--seed").value_or(0)
                      : !params.name.empty()
                          ? campaign::named_campaign_seed(params.name)
                          : (SeededRng(static_cast<std::uint64_t>(std::time(nullptr))).next_u64() >> 24);
  params.batch = args.unsigned_number("--batch").value_or(8);
  if (params.batch == 0 || params.batch > 256) throw_usage("--batch must be between 1 and 256");
  params.size = read_size(args);
  params.policy = read_policy(args).dump();
  for (const auto& config : read_configs(args, defaults(), binaries_run(args, gpu_present)))
    params.configs.push_back(config.name);
  params.mode = read_mode(args);
  params.reduce = !args.has("--no-reduce");
  params.reduce_in_parallel = args.has("--reduce-in-parallel");
  if (!params.reduce && params.reduce_in_parallel)
    throw_usage("--no-reduce and --reduce-in-parallel contradict each other");
  params.reduce_share = read_reduce_share(args).value_or(campaign::kDefaultReduceShare);
  params.sanitizer_gate = !args.has("--no-sanitizer-gate");
  // Variants are judged by what they print: on by default where binaries run (a GPU).
  if (args.has("--variants") && args.has("--no-variants")) throw_usage("give --variants K or --no-variants, not both");
  params.variants = args.has("--no-variants") ? 0 : args.unsigned_number("--variants").value_or(gpu_present ? 2 : 0);
  if (params.variants > 8) throw_usage("--variants must be between 0 and 8");
  return params;
}

Subcommand fuzz_subcommand() {
  CommandSpec spec{
      "fuzz",
      "cudiff fuzz [--time 8h | --tests N] [--db cudiff.db] [--jobs N] [--gpus all|none|0,1,...] [--batch K]\n"
      "            [--variants K | --no-variants]\n"
      "            [--config LIST] [--build-path device|whole] [--policy FILE] [--seed S] [--size SIZE]\n"
      "            [--no-reduce | --reduce-share SHARE] [--reduce-in-parallel]\n"
      "            [--rediscover] [--quiet] [--resume] [--campaign NAME [--shard I/N]]\n"
      "cudiff fuzz --engine libfuzzer [--time 8h | --tests N] [--jobs N] [--corpus DIR] [--libfuzzer-flags \"...\"]\n"
      "            [the options above but --batch, --resume, --reduce-share, --reduce-in-parallel, --rediscover]",
      "A campaign: generate programs in batches, build them with every config on all cores, run\n"
      "them on every GPU (compile-only when there is none), judge, isolate each finding to one\n"
      "test, file it in the triage database, and write an HTML report; the summary comes when the\n"
      "tests are done. The new bugs' reproducers are reduced, most important first, alongside the\n"
      "tests where the cores allow and after them for a bounded share of the time (--reduce-share);\n"
      "what is left is listed, and --resume reduces it. A campaign killed at any moment continues\n"
      "with --resume.\n"
      "Found bugs are avoided: each confirmed cause (a bucket marked known, reported or fixed with a\n"
      "reduced cause; a known-bug suite case unless --no-known) turns off the generator knob of the\n"
      "construct its reduced form needs (cudiff triage avoid lists them); --rediscover turns none off.\n"
      "A named campaign (--campaign NAME) can be split over databases: --shard I/N tests every\n"
      "N-th batch, so N shards (Slurm array tasks set them themselves) never test the same seed\n"
      "and merge into one campaign (cudiff triage merge). Running a named campaign's command\n"
      "again continues it (see cudiff slurm submit).\n"
      "With --engine libfuzzer, libFuzzer's input bytes drive the generator and what the compilers\n"
      "did (diagnostic ids, PTX instruction kinds, verdicts) is its coverage: it keeps and mutates\n"
      "the inputs that made a compiler do something new (cudiff-libfuzzer, one program per input).\n"
      "Exit status: 0 done (findings or not), 2 usage or environment error.",
      {{"--engine", "ENGINE", "batches (default: seeds in batches) or libfuzzer (guided by the compilers' behaviour)"},
       {"--corpus", "DIR",
        "libfuzzer: where new inputs go (default corpus/guided/live; corpus/guided/seeds is read too)"},
       {"--libfuzzer-flags", "\"FLAGS\"", "libfuzzer: more libFuzzer flags, space-separated (e.g. \"-max_len=8192\")"},
       {"--time", "DURATION",
        "run this long (90s, 15m, 4m30s, 8h): no batch starts after it (nor, while new bugs wait to be reduced, "
        "in its last --reduce-share), batches still running 30 s later are dropped (--resume tests them), "
        "reductions end with it; with --resume: this much more time"},
       {"--tests", "N",
        "test this many generated programs (default 200); libfuzzer: its -runs=N (seed inputs included)"}}};
  for (auto& option : shared_options({Flag::db, Flag::jobs}, defaults())) spec.options.push_back(option);
  spec.options.push_back({"--gpus", "LIST", "all (default), none (compile-only), or GPU indices 0,1,..."});
  spec.options.push_back({"--batch", "K", "programs per translation unit (default 8)"});
  spec.options.push_back({"--run-path", "PATH",
                          "executor (default: batches run in long-lived executors that keep a CUDA context, each "
                          "program loaded as a shared object; a seed alone and any run that is not clean run as a "
                          "process) or process (a process per run)"});
  spec.options.push_back({"--executors", "N", "executors per GPU on the executor path (default 2)"});
  spec.options.push_back({"--variants", "K",
                          "EMI/metamorphic variants of each program, in its batch (0 to 8; default 2 with a GPU, "
                          "0 compile-only): a variant printing another checksum than its original is a "
                          "metamorphic finding"});
  spec.options.push_back({"--no-variants", "", "no variants (the same as --variants 0)"});
  for (auto& option :
       shared_options({Flag::config, Flag::mode, Flag::build_path, Flag::policy, Flag::seed, Flag::size, Flag::known},
                      defaults()))
    spec.options.push_back(option);
  for (auto& option : std::vector<OptionSpec>{
           {"--report", "FILE", "where the HTML report goes (default: the database's name with -report.html)"},
           {"--rediscover", "",
            "apply no avoid rules: generate what the database's confirmed causes and the known-bug suite's cases "
            "need (default: a campaign turns those generator knobs off and says so at its start; cudiff triage "
            "avoid lists the rules)"},
           {"--no-reduce", "", "do not reduce the new bugs' reproducers"},
           {"--reduce-share", "SHARE",
            "the share of the campaign's time kept for reducing its new bugs, most important first (wrong code and "
            "crashes, rejects valid, missed diagnostics; known and dialect buckets are not reduced): 0 to 0.9 or "
            "90% (default 25%); a --tests campaign's reductions get that share after its tests, a --time "
            "campaign's its last part; what is left is listed for --resume"},
           {"--reduce-in-parallel", "",
            "reduce alongside the tests even where the cores do not allow it (default: alongside when the "
            "reductions' share of the cores leaves at least 4 to the workers)"},
           {"--no-sanitizer-gate", "",
            "file run-time findings without running compute-sanitizer on them first (default: a program whose run "
            "faults under it is listed as invalid, not filed)"}})
    spec.options.push_back(option);
  for (auto& option : shared_options({Flag::quiet, Flag::json}, defaults())) spec.options.push_back(option);
  for (auto& option :
       std::vector<OptionSpec>{{"--resume", "", "continue the database's unfinished campaign"},
                               {"--campaign", "NAME",
                                "a named campaign: its id and default seed come from NAME; run again, it continues "
                                "(default in a Slurm array task: slurm-<cluster>-<array job id>)"},
                               {"--shard", "I/N",
                                "test shard I (0 to N-1) of N: every N-th batch; --tests counts the whole campaign "
                                "(default in a Slurm array task: from SLURM_ARRAY_TASK_ID and _COUNT)"}})
    spec.options.push_back(option);
  for (auto& option : shared_options({Flag::nvcc, Flag::clang}, defaults())) spec.options.push_back(option);
  return {spec, run_fuzz};
}

} // namespace cudiff::cli
