// fuzz_campaign: the campaign loop. Worker threads check batches; this thread alone writes
// the database, one transaction per batch (its tests, its findings, the campaign's counts and
// elapsed time), so whatever a kill -9 interrupts was never committed and is simply redone.
#include "cli/fuzz_campaign.h"

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <ostream>
#include <sched.h>
#include <set>
#include <thread>
#include <unistd.h>

namespace cudiff::cli {
namespace {

/// Hands out batches of untested seeds: batch b is seeds [first + bK, first + (b+1)K), less
/// those already committed (a resumed campaign), up to the campaign's end; a shard takes the
/// campaign's batches b = index, index + count, ...
class BatchSource {
public:
  BatchSource(const FuzzParams& params, std::set<std::uint64_t> done, const FuzzProgress& progress)
      : params_(params), done_(std::move(done)), progress_(progress) {}

  /// The next batch, or nothing when the campaign is over (or stopping).
  std::vector<std::uint64_t> take() {
    std::lock_guard lock(mutex_);
    while (!stopping_) {
      if (params_.time_budget > 0 && progress_.elapsed() >= params_.time_budget) break;
      const std::uint64_t start = shard_batch_start(params_, next_);
      const std::uint64_t end_limit = params_.tests ? params_.first_seed + *params_.tests : ~0ull;
      if (start >= end_limit) break;
      ++next_;
      std::vector<std::uint64_t> seeds;
      for (std::uint64_t seed = start; seed < std::min(start + params_.batch, end_limit); ++seed)
        if (!done_.count(seed)) seeds.push_back(seed);
      if (!seeds.empty()) return seeds;
    }
    stopping_ = true;
    return {};
  }
  void stop() {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }

private:
  const FuzzParams& params_;
  std::set<std::uint64_t> done_;
  const FuzzProgress& progress_;
  std::mutex mutex_;
  std::uint64_t next_ = 0;
  bool stopping_ = false;
};

/// What workers hand to the writer.
struct Finished {
  std::optional<BatchOutcome> outcome;
  std::string error;  ///< a worker's Error: the campaign stops after committing what it has
};

class ResultQueue {
public:
  void push(Finished item) {
    {
      std::lock_guard lock(mutex_);
      items_.push_back(std::move(item));
    }
    ready_.notify_one();
  }
  void worker_done() {
    {
      std::lock_guard lock(mutex_);
      ++workers_done_;
    }
    ready_.notify_one();
  }
  /// The next result; nothing when every worker is done and the queue is empty. Wakes at
  /// least every `tick` seconds (with nothing) so the progress line stays live.
  std::optional<Finished> pop(std::size_t workers, double tick, bool& timed_out) {
    std::unique_lock lock(mutex_);
    timed_out = !ready_.wait_for(lock, std::chrono::duration<double>(tick),
                                 [&] { return !items_.empty() || workers_done_ == workers; });
    if (items_.empty()) return std::nullopt;
    Finished item = std::move(items_.front());
    items_.pop_front();
    return item;
  }

private:
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<Finished> items_;
  std::size_t workers_done_ = 0;
};

std::string gpus_text(const runners::GpuDiscovery& gpus) {
  std::vector<std::string> names;
  for (const auto& gpu : gpus.gpus) names.push_back(gpu.describe());
  return join(names, ", ");
}

/// A stored campaign's parameters.
FuzzParams stored_params(const triage::Database& db, const triage::Campaign& campaign, const std::string& text) {
  boost::json::value json;
  try {
    json = boost::json::parse(text);
  } catch (const std::exception&) {
    throw_environment("campaign " + campaign.id.substr(0, 12) + " in " + db.path().string() +
                      " has unreadable parameters; it cannot be resumed");
  }
  return fuzz_params_from_json(json);
}

/// The unfinished fuzz campaign of the database (the latest), with its parameters.
std::pair<triage::Campaign, FuzzParams> unfinished_campaign(const triage::Database& db) {
  const auto campaigns = db.campaigns();
  for (auto it = campaigns.rbegin(); it != campaigns.rend(); ++it) {
    if (it->kind != "fuzz" || it->ended > 0) continue;
    if (const auto params = db.campaign_params(it->id)) return {*it, stored_params(db, *it, *params)};
  }
  throw_environment("no unfinished fuzz campaign in " + db.path().string() + " to resume");
}

/// The named campaign when the database has it already: its command ran here before (a
/// requeued Slurm task, a rerun), and it goes on with the stored parameters, which must be
/// for the same shard.
std::optional<std::pair<triage::Campaign, FuzzParams>> stored_named_campaign(const triage::Database& db,
                                                                             const FuzzParams& wanted) {
  if (wanted.name.empty()) return std::nullopt;
  const auto campaign = db.campaign(named_campaign_id(wanted.name));
  if (!campaign) return std::nullopt;
  const auto params = db.campaign_params(campaign->id);
  if (campaign->kind != "fuzz" || !params)
    throw_usage(db.path().string() + " has a campaign named '" + wanted.name + "' that is not a fuzz campaign");
  FuzzParams stored = stored_params(db, *campaign, *params);
  if (stored.shard != wanted.shard)
    throw_usage(db.path().string() + " holds shard " + stored.shard.text() + " of campaign '" + wanted.name +
                "', not shard " + wanted.shard.text());
  return std::pair{*campaign, std::move(stored)};
}

CheckRequest check_request(const FuzzParams& params) {
  CheckRequest request;
  request.mode = params.mode;
  request.configs = runners::parse_configs(join(params.configs, ","));
  request.compile_limits.wall_seconds = 120;
  request.compile_limits.memory_bytes = 16ull << 30;
  request.run_limits.wall_seconds = 60;
  request.run_limits.memory_bytes = 16ull << 30;
  return request;
}

/// --reduce-in-parallel: new buckets are reduced one at a time on a thread of their own while
/// the campaign goes on (the child opens the database too; WAL and the busy timeout keep the
/// two writers apart).
class BackgroundReducer {
public:
  explicit BackgroundReducer(const CampaignSetup& setup) : setup_(setup), thread_([this] { loop(); }) {}
  ~BackgroundReducer() { finish(); }
  void add(const std::string& key) {
    {
      std::lock_guard lock(mutex_);
      keys_.push_back(key);
    }
    wake_.notify_one();
  }
  /// Waits for the reductions still queued; returns their lines.
  std::vector<std::string> finish() {
    {
      std::lock_guard lock(mutex_);
      closing_ = true;
    }
    wake_.notify_one();
    if (thread_.joinable()) thread_.join();
    return lines_;
  }

private:
  void loop() {
    for (;;) {
      std::string key;
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return closing_ || !keys_.empty(); });
        if (keys_.empty()) return;
        key = keys_.front();
        keys_.pop_front();
      }
      std::string line = reduce_bucket(setup_.db_path, key, setup_.jobs * 2);
      std::lock_guard lock(mutex_);
      lines_.push_back(std::move(line));
    }
  }
  const CampaignSetup& setup_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::string> keys_;
  std::vector<std::string> lines_;
  bool closing_ = false;
  std::thread thread_;
};

} // namespace

std::string reduce_bucket(const std::filesystem::path& db_path, const std::string& key, std::size_t jobs) {
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return "reduce " + key.substr(0, 12) + ": cannot find the cudiff binary (" + ec.message() + ")";
  runners::Command command;
  command.argv = {self.string(), "triage", "reduce", key, "--db", db_path.string(), "--jobs", std::to_string(jobs)};
  command.limits.wall_seconds = 15 * 60;
  const runners::SubprocessResult result = runners::run_subprocess(command);
  const auto lines = split(trim(result.out.text.empty() ? result.err.text : result.out.text), '\n');
  return "reduce " + key.substr(0, 12) + ": " +
         (result.timed_out ? "stopped at 15 minutes" : lines.empty() ? result.status_text() : lines.back());
}

std::size_t usable_cores() {
  // The cores this process may run on (a Slurm task, taskset, a container's cpuset), not the
  // machine's: a task given 8 of a node's 128 cores must not start 64 workers.
  std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) cores = static_cast<std::size_t>(CPU_COUNT(&set));
  // Without CPU binding Slurm still says how many cores the task was given.
  if (const char* given = std::getenv("SLURM_CPUS_PER_TASK")) {
    char* end = nullptr;
    const unsigned long value = std::strtoul(given, &end, 10);
    if (end != given && *end == '\0' && value > 0) cores = std::min<std::size_t>(cores, value);
  }
  return cores;
}

std::size_t default_fuzz_jobs() { return std::max<std::size_t>(1, usable_cores() / 2); }

int run_campaign(CampaignSetup& setup, std::ostream& out, std::ostream& err) {
  triage::Database db = triage::Database::open(setup.db_path);  // a bad database fails here
  triage::Campaign campaign;
  FuzzParams params;
  bool resuming = setup.resume;
  if (setup.resume) {
    std::tie(campaign, params) = unfinished_campaign(db);
  } else if (auto stored = stored_named_campaign(db, setup.params)) {
    std::tie(campaign, params) = std::move(*stored);
    if (campaign.ended > 0) {
      err << "campaign '" << params.name << "' (" << campaign.id.substr(0, 12) << ", shard " << params.shard.text()
          << ") in " << setup.db_path.string() << " has finished already: " << campaign.tests << " tests, "
          << campaign.findings << " findings; nothing to do\n";
      return 0;
    }
    resuming = true;
  } else {
    params = setup.params;
    campaign.id = params.name.empty() ? triage::unique_key() : named_campaign_id(params.name);
    campaign.kind = "fuzz";
    campaign.host = host_name();
    campaign.started = unix_seconds();
    campaign.cudiff_version = CUDIFF_VERSION;
    campaign.nvcc_version = setup.toolchain.nvcc.version;
    campaign.clang_version = setup.toolchain.clang.version;
    campaign.configs = params.configs;
    const bool no_runs = setup.gpus.gpus.empty() || (params.mode && *params.mode != runners::Mode::run);
    campaign.gpus = no_runs ? "" : gpus_text(setup.gpus);
    campaign.mode = runners::to_string(params.mode.value_or(no_runs ? runners::Mode::binary : runners::Mode::run));
    db.transaction([&] {
      db.put_campaign(campaign);
      db.put_campaign_params(campaign.id, boost::json::serialize(fuzz_params_json(params)));
    });
  }
  if (resuming && setup.no_reduce) params.reduce = false;
  // A resumed campaign runs with the GPUs of this start (they may differ from the first's).
  const bool compile_only = setup.gpus.gpus.empty() || (params.mode && *params.mode != runners::Mode::run);

  std::set<std::uint64_t> done;
  for (const std::string& seed : db.tested_seeds(campaign.id)) done.insert(std::stoull(seed));

  TempDir workdir("cudiff-fuzz");
  FuzzContext context{generator::Policy::load(params.policy), params.size, check_request(params), setup.toolchain,
                      workdir.path()};
  FuzzProgress progress(done.size(), params.elapsed, shard_test_count(params), params.time_budget,
                        compile_only ? 0 : setup.gpus.gpus.size(), setup.jobs);
  BatchSource source(params, done, progress);

  const std::string id = campaign.id.substr(0, 12);
  if (!setup.quiet) {
    const std::string named = params.name.empty() ? ""
                              : " ('" + params.name + "'" +
                                    (params.shard.count > 1 ? ", shard " + params.shard.text() : "") + ")";
    err << (resuming ? "resuming" : "campaign") << " " << id << named << " in " << setup.db_path.string() << ": "
        << (compile_only ? "compile-only (" + (setup.gpus.gpus.empty() ? "no GPU: " + setup.gpus.note
                                                                       : "mode " + runners::to_string(*params.mode)) + ")"
                         : "GPUs " + gpus_text(setup.gpus))
        << ", " << setup.jobs << " worker" << (setup.jobs == 1 ? "" : "s") << ", batches of " << params.batch
        << ", seeds from " << params.first_seed << ", configs " << join(params.configs, ",")
        << (done.empty() ? "" : ", " + std::to_string(done.size()) + " tests already done") << "\n";
  }

  std::optional<BackgroundReducer> background;
  if (params.reduce && params.reduce_in_parallel) background.emplace(setup);
  ResultQueue queue;
  std::vector<std::thread> workers;
  for (std::size_t w = 0; w < setup.jobs; ++w) {
    runners::GpuDiscovery gpu;  // one GPU per worker, round robin; none when compile-only
    if (!compile_only) gpu.gpus.push_back(setup.gpus.gpus[w % setup.gpus.gpus.size()]);
    else gpu.note = setup.gpus.gpus.empty() ? setup.gpus.note : "compile-only mode";
    workers.emplace_back([&, gpu, w] {
      const auto dir = workdir.path() / ("worker" + std::to_string(w));
      for (auto seeds = source.take(); !seeds.empty(); seeds = source.take()) {
        try {
          queue.push(Finished{check_batch(context, seeds, gpu, dir), ""});
        } catch (const std::exception& error) {
          queue.push(Finished{std::nullopt, error.what()});
          source.stop();
        }
      }
      queue.worker_done();
    });
  }

  const bool live = !setup.quiet && ::isatty(2) == 1;
  std::vector<std::string> new_buckets, notes;
  std::string worker_error;
  double last_line = 0;
  for (;;) {
    bool idle = false;
    std::optional<Finished> item = queue.pop(workers.size(), 1.0, idle);
    if (!item) {
      if (!idle) break;  // every worker done, nothing left
    } else if (!item->outcome) {
      worker_error = item->error;
    } else {
      const BatchOutcome& outcome = *item->outcome;
      std::size_t findings = 0, fresh = 0;
      const double now = unix_seconds();
      const std::string policy_hash = context.policy.hash();
      std::vector<std::string> fresh_keys;  // handed to the reducer once committed
      db.transaction([&] {
        for (const SeedOutcome& seed : outcome.seeds) {
          const std::string seed_text = std::to_string(seed.seed);
          triage::Test test{triage::content_key(campaign.id + "/" + seed_text), campaign.id,
                            (seed.edge ? "cudiff_edge_" : "cudiff_") + seed_text, seed_text, policy_hash, params.configs,
                            seed.discrepancy ? "discrepancy" : "agree", now, outcome.seconds / static_cast<double>(outcome.seeds.size())};
          db.add_test(test);
          for (std::size_t i = 0; i < seed.findings.size(); ++i) {
            triage::NewFinding finding{triage::content_key(campaign.id + "/" + seed_text + "/" + std::to_string(i)), campaign.id,
                                       test.id, now, seed.findings[i], seed.signatures[i], seed.source_name, seed.source,
                                       seed.outputs};
            const triage::Recorded recorded = db.add_finding(finding, setup.known.match(seed.signatures[i]));
            ++findings;
            if (recorded.new_bucket) {
              ++fresh;
              new_buckets.push_back(recorded.bucket.key);
              fresh_keys.push_back(recorded.bucket.key);
            }
          }
        }
        progress.add(outcome, findings, fresh);
        campaign.tests = static_cast<std::int64_t>(progress.tests());
        campaign.findings = db.campaign_finding_count(campaign.id);
        db.put_campaign(campaign);
        params.elapsed = progress.elapsed();
        db.put_campaign_params(campaign.id, boost::json::serialize(fuzz_params_json(params)));
      });
      notes.insert(notes.end(), outcome.notes.begin(), outcome.notes.end());
      if (background)
        for (const std::string& key : fresh_keys) background->add(key);
    }
    if (setup.quiet) continue;
    const double now = unix_seconds();
    if (live) {
      err << "\r\033[K" << progress.line() << std::flush;
    } else if (item && item->outcome && now - last_line >= 10) {
      err << progress.line() << "\n";
      last_line = now;
    }
  }
  for (std::thread& worker : workers) worker.join();
  if (live) err << "\n";
  if (!worker_error.empty()) throw_environment("campaign " + id + " stopped: " + worker_error + " (resume with --resume)");

  campaign.ended = unix_seconds();
  params.elapsed = progress.elapsed();
  db.transaction([&] {
    db.put_campaign(campaign);
    db.put_campaign_params(campaign.id, boost::json::serialize(fuzz_params_json(params)));
  });
  if (background) {
    if (!setup.quiet && !new_buckets.empty()) err << "waiting for the reductions still running\n";
    for (const std::string& line : background->finish()) out << line << "\n";
  } else if (params.reduce) {
    for (const std::string& key : new_buckets) out << reduce_bucket(setup.db_path, key, setup.jobs * 2) << "\n";
  }

  const std::filesystem::path report =
      setup.report.value_or(setup.db_path.parent_path() / (setup.db_path.stem().string() + "-report.html"));
  write_file(report, triage::render_html_report(db, unix_seconds()));

  const double seconds = progress.elapsed();
  if (setup.json) {
    boost::json::array bucket_keys, note_list;
    for (const auto& key : new_buckets) bucket_keys.push_back(boost::json::string(key));
    for (const auto& note : notes) note_list.push_back(boost::json::string(note));
    out << pretty_json(boost::json::object{{"campaign", campaign.id},
                                           {"name", params.name},
                                           {"shard", params.shard.text()},
                                           {"database", setup.db_path.string()},
                                           {"tests", campaign.tests},
                                           {"findings", campaign.findings},
                                           {"new_buckets", std::move(bucket_keys)},
                                           {"seconds", seconds},
                                           {"tests_per_second", seconds > 0 ? static_cast<double>(campaign.tests) / seconds : 0.0},
                                           {"compile_only", compile_only},
                                           {"notes", std::move(note_list)},
                                           {"report", report.string()}});
    return 0;
  }
  TextTable table({"campaign", "tests", "findings", "new buckets", "time", "tests/s", "mode"});
  char rate[32];
  std::snprintf(rate, sizeof rate, "%.2f", seconds > 0 ? static_cast<double>(campaign.tests) / seconds : 0.0);
  table.add_row({id, std::to_string(campaign.tests), std::to_string(campaign.findings), std::to_string(new_buckets.size()),
             format_seconds(seconds), rate, compile_only ? "compile-only" : "GPU"});
  out << table.render();
  for (const std::string& note : notes) out << "note: " << note << "\n";
  if (!new_buckets.empty()) out << "new buckets: cudiff triage list --db " << setup.db_path.string() << "\n";
  out << "report: " << report.string() << "\n";
  return 0;
}

} // namespace cudiff::cli
