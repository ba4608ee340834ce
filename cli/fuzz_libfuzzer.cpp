// `cudiff fuzz --engine libfuzzer`: a guided campaign. Creates the campaign in the database,
// starts cudiff-libfuzzer (cli/libfuzzer_target.cpp) with the campaign's options translated
// into its flags, shows progress from the database while it runs, and ends like the batch
// engine: new buckets reduced, a summary table (or JSON), the HTML report.
#include "cli/fuzz_campaign.h"
#include "cli/guided.h"

#include <csignal>
#include <cstring>
#include <ostream>
#include <set>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace cudiff::cli {
namespace {

std::filesystem::path libfuzzer_binary() {
  if (const char* set = std::getenv("CUDIFF_LIBFUZZER"); set && *set) return set;
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw_environment("cannot find the cudiff binary (" + ec.message() + ") to find cudiff-libfuzzer beside it");
  return self.parent_path() / "cudiff-libfuzzer";
}

/// Passes a cudiff option on as cudiff-libfuzzer's "--name=value" flag.
void pass(const ParsedArgs& args, const std::string& name, std::vector<std::string>& argv) {
  if (auto value = args.value(name)) argv.push_back(name + "=" + *value);
}

/// Starts `argv` with this process's stdin, stdout and stderr, and SIGINT at its default
/// (this process ignores it while the child runs, so Ctrl-C stops libFuzzer, which prints its
/// statistics, and cudiff still closes the campaign); returns its pid.
pid_t spawn(const std::vector<std::string>& argv) {
  std::vector<char*> raw;
  for (const std::string& arg : argv) raw.push_back(const_cast<char*>(arg.c_str()));
  raw.push_back(nullptr);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGINT);
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF);
  pid_t pid = 0;
  const int error = posix_spawn(&pid, raw.front(), nullptr, &attributes, raw.data(), environ);
  posix_spawnattr_destroy(&attributes);
  if (error != 0) throw_environment("cannot start " + argv.front() + ": " + std::strerror(error));
  return pid;
}

/// libFuzzer's exit status after SIGINT (-interrupted_exitcode).
constexpr int kInterrupted = 72;

std::set<std::string> bucket_keys(const triage::Database& db) {
  std::set<std::string> keys;
  for (const triage::Bucket& bucket : db.buckets()) keys.insert(bucket.key);
  return keys;
}

std::string progress(const triage::Database& db, const std::string& campaign_id, double elapsed, double budget,
                     std::size_t buckets_before) {
  const auto campaign = db.campaign(campaign_id);
  const std::int64_t tests = campaign ? campaign->tests : 0;
  char rate[32];
  std::snprintf(rate, sizeof rate, "%.2f", elapsed > 0 ? static_cast<double>(tests) / elapsed : 0.0);
  std::string line = "guided: programs " + std::to_string(tests) + ", findings " +
                     std::to_string(campaign ? campaign->findings : 0) + " (" +
                     std::to_string(db.buckets().size() - buckets_before) + " new buckets), " + rate + " programs/s, " +
                     format_seconds(elapsed) + " elapsed";
  if (budget > 0) line += ", " + format_seconds(std::max(0.0, budget - elapsed)) + " left";
  return line;
}

} // namespace

int run_libfuzzer_engine(const ParsedArgs& args, double time_budget, std::ostream& out, std::ostream& err) {
  for (const char* name : {"--resume", "--batch", "--reduce-in-parallel"})
    if (args.has(name)) throw_usage(std::string(name) + " is for the batch engine, not --engine libfuzzer");
  if (auto gpus = args.value("--gpus"); gpus && *gpus != "all" && *gpus != "none")
    throw_usage("--engine libfuzzer takes --gpus all or none (each process uses the first GPU)");
  const std::filesystem::path binary = libfuzzer_binary();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(binary, ec))
    throw_environment(binary.string() + " not found (build it: cmake --build build --target cudiff-libfuzzer)");

  // Everything cudiff-libfuzzer would refuse is refused here, before the campaign exists.
  std::vector<std::string> ours = {"--db=" + args.value("--db").value_or("cudiff.db")};
  for (const char* name : {"--known", "--size", "--policy", "--config", "--mode", "--gpus", "--nvcc", "--clang"})
    pass(args, name, ours);
  ParsedArgs checked = parse_args(guided_spec(), ours);
  GuidedOptions options = guided_options(checked);
  const runners::Toolchain toolchain = runners::Toolchain::from(runners::discover_toolchain(options.search));

  triage::Database db = triage::Database::open(options.db_path);
  const std::set<std::string> before = bucket_keys(db);
  const runners::GpuDiscovery gpus = options.no_gpu ? runners::GpuDiscovery{} : runners::discover_gpus();
  const bool runs = guided_runs(options, gpus);
  triage::Campaign campaign = new_guided_campaign("guided", options, toolchain, gpus);
  db.transaction([&] { db.put_campaign(campaign); });

  // The corpus: new inputs go to the first directory (--corpus, default corpus/guided/live);
  // the checked-in seeds (corpus/guided/seeds) follow when they are there.
  const std::filesystem::path corpus = args.value("--corpus").value_or("corpus/guided/live");
  std::filesystem::create_directories(corpus, ec);
  if (ec) throw_environment("cannot create the corpus directory " + corpus.string() + ": " + ec.message());
  std::vector<std::string> argv = {binary.string(), corpus.string()};
  if (!args.has("--corpus") && std::filesystem::is_directory("corpus/guided/seeds", ec)) argv.push_back("corpus/guided/seeds");
  for (std::string& flag : ours) argv.push_back(std::move(flag));
  argv.push_back("--campaign=" + campaign.id);
  if (args.has("--quiet")) argv.push_back("--quiet");
  if (time_budget > 0) argv.push_back("-max_total_time=" + std::to_string(static_cast<std::uint64_t>(time_budget)));
  else argv.push_back("-runs=" + std::to_string(args.unsigned_number("--tests").value_or(200)));
  if (auto seed = args.unsigned_number("--seed")) argv.push_back("-seed=" + std::to_string(*seed));
  if (std::uint64_t jobs = args.unsigned_number("--jobs").value_or(1); jobs > 1) argv.push_back("-fork=" + std::to_string(jobs));
  // A check takes seconds (two compilers), a large program's generation tens of MiB. At a few
  // programs a second, libFuzzer's default length control (start at a few bytes, grow after
  // hundreds of runs without news) would keep every input in the seeded tail for hours: full
  // length from the start lets mutations change single decisions of a program.
  argv.push_back("-len_control=0");
  argv.push_back("-max_len=4096");
  argv.push_back("-timeout=1200");
  // Every program takes seconds: libFuzzer's "slow unit" reports (at 10 s) would be noise.
  argv.push_back("-report_slow_units=1200");
  // A crash here is cudiff's own bug (a compiler's crash is a finding): its input goes beside
  // the corpus, not into the working directory.
  const std::filesystem::path artifacts = corpus.parent_path() / "artifacts";
  std::filesystem::create_directories(artifacts, ec);
  argv.push_back("-artifact_prefix=" + artifacts.string() + "/");
  argv.push_back("-rss_limit_mb=8192");
  argv.push_back("-print_final_stats=1");
  if (auto extra = args.value("--libfuzzer-flags"))
    for (std::string& flag : split_flags(*extra)) argv.push_back(std::move(flag));

  if (!args.has("--quiet")) err << "cudiff: guided campaign " << campaign.id.substr(0, 12) << ": " << join(argv, " ") << "\n";
  const auto started = std::chrono::steady_clock::now();
  const auto previous_int = std::signal(SIGINT, SIG_IGN);
  const pid_t child = spawn(argv);
  int status = 0;
  double last_line = 0;
  for (;;) {
    const pid_t done = ::waitpid(child, &status, WNOHANG);
    if (done == child) break;
    if (done < 0 && errno != EINTR) throw_environment(std::string("waiting for cudiff-libfuzzer: ") + std::strerror(errno));
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (!args.has("--quiet") && elapsed - last_line >= 30) {
      err << "cudiff: " << progress(db, campaign.id, elapsed, time_budget, before.size()) << "\n";
      last_line = elapsed;
    }
  }
  std::signal(SIGINT, previous_int);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  campaign = db.campaign(campaign.id).value_or(campaign);
  campaign.ended = unix_seconds();
  db.transaction([&] { db.put_campaign(campaign); });

  // libFuzzer exits 0 when its budget is used up; anything else is cudiff-libfuzzer failing
  // (its stderr said why) or a crash of cudiff's own code, which libFuzzer saved as an input.
  const bool interrupted = WIFEXITED(status) && WEXITSTATUS(status) == kInterrupted;
  const bool clean = WIFEXITED(status) && (WEXITSTATUS(status) == 0 || interrupted);
  const std::string how = WIFEXITED(status) ? "exit " + std::to_string(WEXITSTATUS(status))
                                            : "signal " + std::to_string(WTERMSIG(status));
  std::vector<std::string> new_buckets;
  for (const std::string& key : bucket_keys(db))
    if (!before.count(key)) new_buckets.push_back(key);
  std::vector<std::string> reduced;
  if (!args.has("--no-reduce"))
    for (const std::string& key : new_buckets) reduced.push_back(reduce_bucket(options.db_path, key, default_fuzz_jobs() * 2));

  const std::filesystem::path report = args.value("--report").value_or(
      (options.db_path.parent_path() / (options.db_path.stem().string() + "-report.html")).string());
  write_file(report, triage::render_html_report(db, unix_seconds()));
  if (args.has("--json")) {
    boost::json::array keys;
    for (const auto& key : new_buckets) keys.push_back(boost::json::string(key));
    out << pretty_json(boost::json::object{{"campaign", campaign.id},
                                           {"engine", "libfuzzer"},
                                           {"database", options.db_path.string()},
                                           {"tests", campaign.tests},
                                           {"findings", campaign.findings},
                                           {"new_buckets", std::move(keys)},
                                           {"seconds", seconds},
                                           {"tests_per_second", seconds > 0 ? static_cast<double>(campaign.tests) / seconds : 0.0},
                                           {"compile_only", !runs},
                                           {"libfuzzer_status", how},
                                           {"corpus", corpus.string()},
                                           {"report", report.string()}});
  } else {
    TextTable table({"campaign", "engine", "programs", "findings", "new buckets", "time", "programs/s", "mode"});
    char rate[32];
    std::snprintf(rate, sizeof rate, "%.2f", seconds > 0 ? static_cast<double>(campaign.tests) / seconds : 0.0);
    table.add_row({campaign.id.substr(0, 12), "libfuzzer", std::to_string(campaign.tests), std::to_string(campaign.findings),
                   std::to_string(new_buckets.size()), format_seconds(seconds), rate, runs ? "GPU" : "compile-only"});
    out << table.render();
    for (const std::string& line : reduced) out << line << "\n";
    if (!new_buckets.empty()) out << "new buckets: cudiff triage list --db " << options.db_path.string() << "\n";
    if (interrupted) out << "note: interrupted (Ctrl-C): what was filed is kept\n";
    out << "corpus: " << corpus.string() << "\nreport: " << report.string() << "\n";
  }
  if (!clean) throw_environment("cudiff-libfuzzer ended with " + how + " (its output above says why); what it filed is kept");
  return 0;
}

} // namespace cudiff::cli
