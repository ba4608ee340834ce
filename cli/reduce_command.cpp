// `cudiff reduce FILE.cu`: shrink a file while it keeps showing the same discrepancy (its
// triage signature), or while a C-Reduce-style test script says yes; report the pass log.
#include "cli/commands.h"

#include <algorithm>
#include <cstdio>
#include <ostream>
#include <thread>
#include <unistd.h>

namespace cudiff::cli {
namespace {

/// reduce's own defaults for the shared flags (triage reduce uses the same limits).
Defaults defaults() {
  Defaults d;
  d.compile_seconds = pipeline::kFileCompileSeconds;
  d.run_seconds = pipeline::kRunSeconds;
  d.json = "print the report as JSON";
  return d;
}

std::size_t parse_jobs(const ParsedArgs& args) {
  // As C-Vise does: one test per core. A built-in test runs its first compile alone (the
  // prefilter) and most candidates stop there, so more would mostly wait.
  const std::size_t fallback = std::max(1u, std::thread::hardware_concurrency());
  const auto text = args.value("--jobs");
  if (!text) return fallback;
  std::size_t used = 0;
  unsigned long jobs = 0;
  try {
    jobs = std::stoul(*text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text->size() || jobs == 0 || jobs > 256 || (*text)[0] == '-')
    throw_usage("--jobs needs a whole number from 1 to 256, got '" + *text + "'");
  return jobs;
}

std::filesystem::path existing_file(const std::string& name) {
  const std::filesystem::path file = name;
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) throw_environment("no such file: " + file.string());
  if (std::filesystem::is_directory(file, ec)) throw_environment(file.string() + " is a directory, not a CUDA file");
  return file;
}

/// FILE.cu -> FILE.reduced.cu beside it.
std::filesystem::path default_out(const std::filesystem::path& file) {
  return file.parent_path() / (file.stem().string() + ".reduced" + file.extension().string());
}

/// "IR reduction: 2207 -> 96 lines, ..." or why it did not run; nothing when it was not asked.
void print_ir_stage(const std::optional<pipeline::IrReduction>& ir, const std::string& note, std::ostream& out) {
  if (ir) {
    char rate[32];
    std::snprintf(rate, sizeof rate, "%.2f", ir->seconds > 0 ? double(ir->tests) / ir->seconds : 0.0);
    out << "IR reduction: " << ir->original_lines << " -> "
        << std::count(ir->program.source.begin(), ir->program.source.end(), '\n') << " lines, " << ir->accepted
        << " edits kept of " << ir->tests << " tests in " << ir->rounds << " rounds, " << format_seconds(ir->seconds)
        << " (" << rate << " tests/s)" << (ir->stopped_early ? ", stopped at the time limit" : "") << "\n";
  } else if (!note.empty()) {
    out << "IR reduction: not run (" << note << ")\n";
  }
}

} // namespace

/// The options `cudiff reduce` and `cudiff triage reduce` share.
std::vector<OptionSpec> reduce_options() {
  return {{"--jobs", "N", "candidates tested at once (default: the number of cores)"},
          {"--time-limit", "DURATION", "stop after this long with the best result so far (300, 5m, 1h30m)"},
          {"--schedule", "FILE", "the pass schedule, as JSON (see --dump-schedule)"},
          {"--no-format", "", "do not finish with clang-format"},
          {"--policy", "FILE",
           "the generator policy a generated original was made with, for its IR reduction (default: the "
           "campaign's, else the default policy)"}};
}

pipeline::ReduceRequest reduce_request(const ParsedArgs& args) {
  pipeline::ReduceRequest request;
  request.jobs = parse_jobs(args);
  if (auto limit = args.duration("--time-limit")) request.time_limit_seconds = *limit;
  if (auto schedule = args.value("--schedule"))
    request.schedule = reducer::parse_schedule(read_file(*schedule), *schedule);
  request.format = !args.has("--no-format");
  if (args.value("--policy")) request.policy = read_policy(args);
  return request;
}

void report_reduction(const pipeline::ReduceRequest& request, const pipeline::ReduceOutcome& outcome, bool json,
                      std::ostream& out) {
  const reducer::Result& r = outcome.result;
  const double rate = r.seconds > 0 ? static_cast<double>(r.tests) / r.seconds : 0;
  if (json) {
    boost::json::object report{{"file", request.file.string()},
                               {"out", request.out ? request.out->string() : ""},
                               {"original", reducer::size_json(request.source)},
                               {"reduced", reducer::size_json(r.text)},
                               {"seconds", r.seconds},
                               {"tests", r.tests},
                               {"cache_hits", r.cache_hits},
                               {"tests_per_second", rate},
                               {"jobs", request.jobs},
                               {"rounds", r.rounds},
                               {"stopped_early", r.stopped_early},
                               {"confirmed", outcome.confirmed},
                               {"format", r.format_note},
                               {"passes", reducer::log_json(r)}};
    if (request.test_script) report["test"] = request.test_script->string();
    if (outcome.target)
      report["signature"] = {{"key", outcome.target->key},
                             {"title", outcome.target->title},
                             {"kind", oracle::to_string(outcome.target->kind)}};
    if (outcome.test_mode) report["test_mode"] = runners::to_string(*outcome.test_mode);
    if (outcome.full_mode) report["full_mode"] = runners::to_string(*outcome.full_mode);
    boost::json::array notes;
    for (const auto& note : outcome.notes) notes.emplace_back(note);
    report["notes"] = std::move(notes);
    out << pretty_json(report);
    return;
  }
  char rate_text[32];
  std::snprintf(rate_text, sizeof rate_text, "%.2f", rate);
  out << reducer::log_table(r);
  out << "reduced " << request.file.string() << ": " << reducer::size_text(request.source) << " -> "
      << reducer::size_text(r.text) << "\n";
  out << "in " << format_seconds(r.seconds) << ": " << r.tests << " tests (" << r.cache_hits
      << " more answered from the cache), " << rate_text << " tests/s, jobs " << request.jobs
      << (r.stopped_early ? "; stopped at the time limit" : "") << "\n";
  if (outcome.target)
    out << "signature: " << outcome.target->key.substr(0, 12) << " " << outcome.target->title << " (tested in mode "
        << runners::to_string(*outcome.test_mode)
        << (outcome.confirmed ? ", confirmed in mode " : ", NOT confirmed in mode ")
        << runners::to_string(*outcome.full_mode) << ")\n";
  if (request.test_script) out << "test: " << request.test_script->string() << " (exit 0 = interesting)\n";
  for (const auto& note : outcome.notes) out << "note: " << note << "\n";
  out << "format: " << r.format_note << "\n";
  if (request.out) out << "written: " << request.out->string() << "\n";
}

namespace {

int run_reduce(const ParsedArgs& args, std::ostream& out, std::ostream& err) {
  if (args.has("--dump-schedule")) {
    out << reducer::schedule_json(reducer::default_schedule());
    return 0;
  }
  if (args.positionals.size() != 1)
    throw_usage(args.positionals.empty() ? "reduce needs a CUDA file (see cudiff reduce --help)"
                                         : "reduce takes one file, got " + std::to_string(args.positionals.size()));
  pipeline::ReduceRequest request = reduce_request(args);
  request.file = existing_file(args.positionals.front());
  request.source = read_file(request.file);
  if (auto script = args.value("--test")) request.test_script = *script;
  request.script_timeout_seconds = args.duration("--timeout").value_or(pipeline::kScriptSeconds);
  request.out = args.value("--out") ? std::filesystem::path(*args.value("--out")) : default_out(request.file);
  // The sidecar beside the file (layout probes, the expectation) goes with every candidate.
  const pipeline::TestInput input = pipeline::file_input(request.file);
  request.sidecar = input.sidecar;
  if (auto key = args.value("--key")) request.key = *key;
  // A generated program or batch (the default policy) is reduced on the generator's IR first.
  std::string why_not;
  if (!request.test_script && !args.has("--text-only")) {
    request.generated = pipeline::generated_origin_of(request.source,
                                                      request.policy.value_or(generator::Policy::defaults()), why_not);
    if (!request.generated && why_not != "not a generated program")
      err << "ir-reduce: not run (" << why_not << "): the text passes alone\n";
  }

  pipeline::CheckRequest& check = request.check;
  check.mode = read_mode(args);
  check.configs = read_configs(args);
  check.warnings = args.has("--warnings");
  check.compile_limits = read_compile_limits(args, defaults());
  check.run_limits = read_run_limits(args, defaults());

  // A test script needs no compilers of ours: it may test anything.
  runners::Toolchain toolchain;
  runners::GpuDiscovery gpus;
  if (!request.test_script) {
    toolchain = read_toolchain(args);
    gpus = runners::discover_gpus();
  }
  const pipeline::ReduceOutcome outcome = pipeline::reduce_source(request, toolchain, gpus, err);
  if (::isatty(2) == 1) err << "\n";
  write_file(*request.out, outcome.result.text);  // also when nothing was accepted: the file exists
  if (!args.has("--json")) print_ir_stage(outcome.ir, outcome.ir_note, out);
  report_reduction(request, outcome, args.has("--json"), out);
  return 0;
}

} // namespace

int triage_reduce(const ParsedArgs& args, std::ostream& out, std::ostream& err) {
  if (args.positionals.size() != 2)
    throw_usage("usage: cudiff triage reduce ID [--finding FID] [--jobs N] [--time-limit S] [--db FILE]");
  triage::Database db = triage::Database::open(args.value("--db").value_or("cudiff.db"),
                                               triage::OpenOptions{.create = false});
  pipeline::ReduceRequest request = reduce_request(args);
  request.ir = !args.has("--text-only");
  const runners::Toolchain toolchain = read_toolchain(args);
  const runners::GpuDiscovery gpus = runners::discover_gpus();
  const pipeline::BucketReduction reduction = pipeline::reduce_bucket(db, args.positionals[1], request, toolchain, gpus,
                                                                      err, read_known(args),
                                                                      args.value("--finding").value_or(""));
  if (::isatty(2) == 1) err << "\n";
  const triage::Bucket& bucket = reduction.bucket;
  print_ir_stage(reduction.ir, reduction.ir_note, out);
  // The last line says when the time limit stopped it: a campaign reading it goes on later.
  const bool stopped = reduction.outcome.result.stopped_early || (reduction.ir && reduction.ir->stopped_early);
  const std::string stopped_text = stopped ? "; " + std::string(campaign::kStoppedAtTimeLimit) : "";
  if (!reduction.stored) {
    out << "bucket " << bucket.id << " (" << bucket.key.substr(0, 12) << "): no smaller reproducer than "
        << format_bytes(reduction.original_bytes) << "; nothing stored" << stopped_text << "\n";
    return 0;
  }
  report_reduction(reduction.request, reduction.outcome, false, out);
  // Its cause (docs/triage.md, "Cause keys"), and where it is filed when the cause split the bucket.
  out << "cause " << reduction.cause.key.substr(0, 12) << " (" << reduction.cause.basis << ")"
      << (reduction.cause_note.empty() ? "" : ": " + reduction.cause_note);
  if (!reduction.cause_bucket.empty() && reduction.cause_bucket != bucket.key) {
    const triage::Bucket now = db.bucket(reduction.cause_bucket);
    out << "; its findings have more than one cause: this one is bucket " << now.id << " (" << now.key.substr(0, 12)
        << ")";
  }
  out << "\n";
  if (!reduction.known_reason.empty()) out << "known: " << reduction.known_reason << "\n";
  // Last: what was stored (a campaign reads this line).
  out << "bucket " << bucket.id << " (" << bucket.key.substr(0, 12) << "): reproducer reduced from "
      << format_bytes(reduction.original_bytes) << " to " << format_bytes(reduction.outcome.result.text.size())
      << "; stored as finding " << reduction.stored_finding.substr(0, 12)
      << (reduction.now_best ? ", now the best reproducer" : "") << stopped_text << "\n";
  return 0;
}

Subcommand reduce_subcommand() {
  CommandSpec spec{
      "reduce",
      "cudiff reduce FILE.cu [--out FILE] [--jobs N] [--test SCRIPT] [--mode MODE] [--config LIST] [--json]",
      "Shrink a CUDA file while it still shows the same discrepancy: the same triage signature\n"
      "(kind, side, normalized symptom) as the original, under the same configs. With --test,\n"
      "a C-Reduce-style script decides instead: it runs in a fresh directory holding the\n"
      "candidate under the original's file name, and exit 0 means interesting.\n"
      "The best result so far is written to --out (default FILE.reduced.cu) as it improves.\n"
      "Exit status: 0 reduced, 2 usage or environment error (including an original that shows\n"
      "no discrepancy, or that the script does not find interesting).",
      {{"--out", "FILE", "where the result goes (default: FILE.reduced.cu beside FILE)"},
       {"--test", "SCRIPT", "C-Reduce-compatible interestingness test instead of the signature"},
       {"--key", "PREFIX", "keep the finding whose triage key starts with PREFIX (default: the first)"},
       {"--text-only", "", "a generated program too: the text passes alone, no IR stage first"}}};
  for (auto& option : shared_options({Flag::mode, Flag::config, Flag::arch, Flag::warnings}, defaults()))
    spec.options.push_back(option);
  spec.options.push_back({"--timeout", "DURATION",
                          "limit per compile (default " + std::to_string(int(pipeline::kFileCompileSeconds)) +
                              ") or per script run (default " + std::to_string(int(pipeline::kScriptSeconds)) + ")"});
  for (auto& option : shared_options({Flag::run_timeout, Flag::json}, defaults())) spec.options.push_back(option);
  spec.options.push_back({"--dump-schedule", "", "print the default pass schedule (JSON) and exit"});
  for (auto& option : reduce_options()) spec.options.push_back(option);
  for (auto& option : shared_options({Flag::nvcc, Flag::clang}, defaults())) spec.options.push_back(option);
  return {spec, run_reduce};
}

} // namespace cudiff::cli
