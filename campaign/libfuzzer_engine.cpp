// campaign: the libFuzzer engine — a guided campaign run by cudiff-libfuzzer. Creates the
// campaign in the database, starts cudiff-libfuzzer with the campaign's options as its flags,
// shows progress from the database while it runs, and ends like the batch engine: new buckets
// reduced, the HTML report written.
#include "campaign/fuzz.h"
#include "campaign/guided.h"
#include "campaign/loop_parts.h"

#include <csignal>
#include <cstring>
#include <ostream>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace cudiff::campaign {
namespace {

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

LibFuzzerSummary run_libfuzzer_campaign(const LibFuzzerCampaign& request, std::ostream& err) {
  const GuidedOptions& options = request.options;
  const runners::Toolchain toolchain = runners::Toolchain::from(runners::discover_toolchain(options.search));

  triage::Database db = triage::Database::open(options.db_path);
  const std::set<std::string> before = bucket_keys(db);
  const runners::GpuDiscovery gpus = options.no_gpu ? runners::GpuDiscovery{} : runners::discover_gpus();
  LibFuzzerSummary summary;
  summary.runs = guided_runs(options, gpus);
  triage::Campaign campaign = new_guided_campaign("guided", options, toolchain, gpus);
  db.transaction([&] { db.put_campaign(campaign); });

  // The corpus: new inputs go to the first directory (default corpus/guided/live); the
  // checked-in seeds (corpus/guided/seeds) follow when they are there.
  summary.corpus = request.corpus;
  std::error_code ec;
  std::filesystem::create_directories(request.corpus, ec);
  if (ec) throw_environment("cannot create the corpus directory " + request.corpus.string() + ": " + ec.message());
  std::vector<std::string> argv = {request.libfuzzer_binary.string(), request.corpus.string()};
  if (!request.corpus_given && std::filesystem::is_directory("corpus/guided/seeds", ec))
    argv.push_back("corpus/guided/seeds");
  for (const std::string& flag : request.flags) argv.push_back(flag);
  argv.push_back("--campaign=" + campaign.id);
  if (request.quiet) argv.push_back("--quiet");
  if (request.time_budget > 0)
    argv.push_back("-max_total_time=" + std::to_string(static_cast<std::uint64_t>(request.time_budget)));
  else argv.push_back("-runs=" + std::to_string(request.tests));
  if (request.seed) argv.push_back("-seed=" + std::to_string(*request.seed));
  if (request.jobs > 1) argv.push_back("-fork=" + std::to_string(request.jobs));
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
  const std::filesystem::path artifacts = request.corpus.parent_path() / "artifacts";
  std::filesystem::create_directories(artifacts, ec);
  argv.push_back("-artifact_prefix=" + artifacts.string() + "/");
  argv.push_back("-rss_limit_mb=8192");
  argv.push_back("-print_final_stats=1");
  for (const std::string& flag : request.libfuzzer_flags) argv.push_back(flag);

  if (!request.quiet) err << "cudiff: guided campaign " << campaign.id.substr(0, 12) << ": " << join(argv, " ") << "\n";
  const auto started = std::chrono::steady_clock::now();
  const auto previous_int = std::signal(SIGINT, SIG_IGN);
  const pid_t child = spawn(argv);
  int status = 0;
  double last_line = 0;
  for (;;) {
    const pid_t done = ::waitpid(child, &status, WNOHANG);
    if (done == child) break;
    if (done < 0 && errno != EINTR)
      throw_environment(std::string("waiting for cudiff-libfuzzer: ") + std::strerror(errno));
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (!request.quiet && elapsed - last_line >= 30) {
      err << "cudiff: " << progress(db, campaign.id, elapsed, request.time_budget, before.size()) << "\n";
      last_line = elapsed;
    }
  }
  std::signal(SIGINT, previous_int);
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  campaign = db.campaign(campaign.id).value_or(campaign);
  campaign.ended = unix_seconds();
  db.transaction([&] { db.put_campaign(campaign); });
  summary.campaign = campaign;

  // libFuzzer exits 0 when its budget is used up; anything else is cudiff-libfuzzer failing
  // (its stderr said why) or a crash of cudiff's own code, which libFuzzer saved as an input.
  summary.interrupted = WIFEXITED(status) && WEXITSTATUS(status) == kInterrupted;
  summary.clean = WIFEXITED(status) && (WEXITSTATUS(status) == 0 || summary.interrupted);
  summary.status = WIFEXITED(status) ? "exit " + std::to_string(WEXITSTATUS(status))
                                     : "signal " + std::to_string(WTERMSIG(status));
  for (const std::string& key : bucket_keys(db))
    if (!before.count(key)) summary.new_buckets.push_back(key);
  if (request.reduce) {  // the new bugs, most important first; known and dialect buckets are not reduced
    std::vector<triage::Bucket> fresh;
    for (const std::string& key : summary.new_buckets) fresh.push_back(db.bucket(key));
    for (const ReductionItem& item : reduction_order(fresh))
      summary.reductions.push_back(reduce_bucket_in_child(options.db_path, item.key, default_fuzz_jobs() * 2).line);
  }

  summary.report = request.report.value_or(options.db_path.parent_path() /
                                           (options.db_path.stem().string() + "-report.html"));
  write_file(summary.report, triage::render_html_report(db, unix_seconds()));
  return summary;
}

} // namespace cudiff::campaign
