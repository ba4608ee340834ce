// campaign: the loop. Worker threads check batches; this thread alone writes the database,
// one transaction per batch (its tests, its findings, the campaign's counts and elapsed time),
// so whatever a kill -9 interrupts was never committed and is simply redone. The steps, in
// order: open_or_resume, start_workers (and the reducer, alongside where the cores allow),
// commit (per batch), close, report, then the reductions' window and the report again.
#include "campaign/batch_parts.h"
#include "campaign/fuzz.h"
#include "campaign/loop_parts.h"
#include "campaign/progress_parts.h"
#include "pipeline/record.h"
#include "pipeline/sanitizer.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <ostream>
#include <sched.h>
#include <set>
#include <unistd.h>

namespace cudiff::campaign {
namespace {

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

/// The unfinished fuzz campaign of the database (the latest), with its parameters. Given more
/// time (`--resume --time D`), the latest --time campaign, ended or not, goes on for D more
/// seconds.
std::pair<triage::Campaign, FuzzParams> unfinished_campaign(const triage::Database& db, double more_time) {
  const auto campaigns = db.campaigns();
  for (auto it = campaigns.rbegin(); it != campaigns.rend(); ++it) {
    if (it->kind != "fuzz") continue;
    const auto params = db.campaign_params(it->id);
    if (!params) continue;
    std::pair<triage::Campaign, FuzzParams> found{*it, stored_params(db, *it, *params)};
    // An ended campaign goes on for its new bugs left to reduce, or with more time.
    if (it->ended > 0 && more_time <= 0 && found.second.pending_reductions.empty()) continue;
    if (more_time > 0) {
      if (found.second.time_budget <= 0)
        throw_usage("campaign " + it->id.substr(0, 12) +
                    " counts tests, not time: --resume --time extends a --time "
                    "campaign (resume it without --time)");
      found.second.time_budget = std::max(found.second.time_budget, found.second.elapsed) + more_time;
      found.first.ended = 0;
    }
    return found;
  }
  throw_environment("no unfinished fuzz campaign (nor one with new bugs left to reduce) in " + db.path().string() +
                    " to resume");
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

/// The campaign being run: its row, its parameters, and what the database holds of it.
struct OpenCampaign {
  triage::Campaign row;
  FuzzParams params;
  bool resuming = false;
  bool compile_only = false;
  bool reductions_only = false;  ///< --resume of an ended campaign: its new bugs left to reduce
  /// This start's choices (--no-reduce, --reduce-share given with --resume); the stored ones
  /// stay as the campaign was started, for the next --resume.
  bool reduce_now = true;
  double share_now = kDefaultReduceShare;
  std::set<std::uint64_t> done;  ///< seeds committed before this start
  std::vector<std::string> avoid_notes;  ///< avoid-rule knobs a --policy file set otherwise
};

/// Step 1: a new campaign row (committed at once, with its parameters), or the one to resume
/// (--resume, or a named campaign whose command ran here before).
OpenCampaign open_or_resume(triage::Database& db, const CampaignSetup& setup) {
  OpenCampaign open;
  open.resuming = setup.resume;
  if (setup.resume) {
    std::tie(open.row, open.params) = unfinished_campaign(db, setup.more_time);
    if (setup.more_time > 0)  // stored at once: the campaign is open again, with its new budget
      db.transaction([&] {
        db.put_campaign(open.row);
        db.put_campaign_params(open.row.id, boost::json::serialize(fuzz_params_json(open.params)));
      });
  } else if (auto stored = stored_named_campaign(db, setup.params)) {
    std::tie(open.row, open.params) = std::move(*stored);
    open.resuming = true;
  } else {
    FuzzParams& params = open.params = setup.params;
    // The avoid rules go into the stored policy: a resumed campaign generates as it began.
    params.rediscover = setup.rediscover;
    params.avoided.clear();
    if (!setup.rediscover) {
      generator::Policy policy = generator::Policy::load(params.policy);
      params.avoided = apply_avoid_rules(policy, campaign_avoid_rules(db, setup.known), open.avoid_notes);
      params.policy = policy.dump();
    }
    triage::Campaign& campaign = open.row;
    campaign.id = params.name.empty() ? triage::unique_key() : named_campaign_id(params.name);
    campaign.kind = "fuzz";
    campaign.host = pipeline::host_name();
    campaign.started = unix_seconds();
    campaign.cudiff_version = CUDIFF_VERSION;
    campaign.nvcc_version = setup.toolchain.nvcc.version;
    campaign.clang_version = setup.toolchain.clang.version;
    campaign.configs = params.configs;
    const bool no_runs = setup.gpus.gpus.empty() || (params.mode && *params.mode != runners::Mode::run);
    campaign.gpus = no_runs ? "" : pipeline::gpus_text(setup.gpus, runners::Mode::run);
    campaign.mode = runners::to_string(params.mode.value_or(no_runs ? runners::Mode::binary : runners::Mode::run));
    db.transaction([&] {
      db.put_campaign(campaign);
      db.put_campaign_params(campaign.id, boost::json::serialize(fuzz_params_json(params)));
    });
  }
  open.reduce_now = open.params.reduce && !(open.resuming && setup.no_reduce);
  open.share_now = setup.reduce_share.value_or(open.params.reduce_share);
  open.reductions_only = setup.resume && open.row.ended > 0;
  // A resumed campaign runs with the GPUs of this start (they may differ from the first's).
  open.compile_only = setup.gpus.gpus.empty() || (open.params.mode && *open.params.mode != runners::Mode::run);
  for (const std::string& seed : db.tested_seeds(open.row.id)) open.done.insert(std::stoull(seed));
  return open;
}

/// How the campaign reduces its new bugs, for its first line.
std::string reductions_text(const OpenCampaign& open, const CorePlan& plan) {
  if (!open.reduce_now) return "no reductions (--no-reduce)";
  const std::string share = std::to_string(static_cast<int>(std::lround(100 * open.share_now))) + "%";
  if (open.share_now <= 0) return "new bugs listed for --resume, not reduced (--reduce-share 0)";
  return std::string("new bugs reduced ") +
         (plan.alongside_jobs > 0 ? "alongside (" + std::to_string(plan.alongside_jobs) + " cores), then " : "") +
         "after the tests for at most " + share + " of the time";
}

std::string start_line(const CampaignSetup& setup, const OpenCampaign& open, const FuzzContext& context,
                       const CorePlan& plan) {
  if (open.reductions_only)
    return "resuming " + open.row.id.substr(0, 12) + " in " + setup.db_path.string() + ": its " +
           std::to_string(open.row.tests) + " tests are done; " +
           std::to_string(open.params.pending_reductions.size()) + " new bug" +
           (open.params.pending_reductions.size() == 1 ? "" : "s") + " left to reduce, most important first (" +
           reduction_order_text() + "), " + std::to_string(plan.after_jobs) + " jobs\n";
  const FuzzParams& params = open.params;
  const std::string named = params.name.empty()
                                ? ""
                                : " ('" + params.name + "'" +
                                      (params.shard.count > 1 ? ", shard " + params.shard.text() : "") + ")";
  return std::string(open.resuming ? "resuming" : "campaign") + " " + open.row.id.substr(0, 12) + named + " in " +
         setup.db_path.string() + ": " +
         (open.compile_only
              ? "compile-only (" +
                    (setup.gpus.gpus.empty() ? "no GPU: " + setup.gpus.note
                                             : "mode " + runners::to_string(*params.mode)) +
                    "; build path " + pipeline::to_string(setup.build_path) + ")"
              : "GPUs " + pipeline::gpus_text(setup.gpus, runners::Mode::run) +
                    (context.executors.empty() ? ", a process per run"
                                               : ", " + std::to_string(setup.executors_per_gpu) + " executor" +
                                                     (setup.executors_per_gpu == 1 ? "" : "s") + " per GPU")) +
         ", " + std::to_string(plan.workers) + " worker" + (plan.workers == 1 ? "" : "s") + ", batches of " +
         std::to_string(params.batch) + ", seeds from " + std::to_string(params.first_seed) + ", configs " +
         join(params.configs, ",") +
         (open.done.empty() ? "" : ", " + std::to_string(open.done.size()) + " tests already done") + "; " +
         reductions_text(open, plan) + "\n";
}

/// Which GPU runs the next batch: the one with the fewest batches in flight (the lowest index
/// among equals), so a campaign of few batches, or --jobs not a multiple of the GPUs, still
/// spreads its batches over every GPU. Thread-safe.
class GpuAssigner {
public:
  explicit GpuAssigner(std::size_t gpus) : in_flight_(gpus, 0) {}
  std::size_t acquire() {
    std::lock_guard lock(mutex_);
    const auto least = std::min_element(in_flight_.begin(), in_flight_.end());
    ++*least;
    return static_cast<std::size_t>(least - in_flight_.begin());
  }
  void release(std::size_t gpu) {
    std::lock_guard lock(mutex_);
    --in_flight_[gpu];
  }

private:
  std::mutex mutex_;
  std::vector<std::size_t> in_flight_;
};

/// Step 2: one thread per job, each taking batches from `source` until it runs dry; each
/// batch's binaries run on one GPU, the one with the fewest batches in flight (none when
/// compile-only). A batch that ends after `hard_stop` (--time ran out and kDrainSeconds passed;
/// what still ran was stopped) is dropped.
std::vector<std::thread> start_workers(const CampaignSetup& setup, const OpenCampaign& open, const FuzzContext& context,
                                       std::size_t count, BatchSource& source, ResultQueue& queue, ActivityBoard& board,
                                       std::chrono::steady_clock::time_point hard_stop,
                                       std::atomic<std::size_t>& dropped) {
  std::vector<std::thread> workers;
  auto assigner = std::make_shared<GpuAssigner>(open.compile_only ? 1 : setup.gpus.gpus.size());
  for (std::size_t w = 0; w < count; ++w) {
    workers.emplace_back([&, assigner, w, hard_stop] {  // hard_stop: a copy, the parameter dies with this call
      const auto dir = context.workdir / ("worker" + std::to_string(w));
      const Activity activity = [&board, w](const std::string& what) { board.set(w, what); };
      for (auto seeds = source.take(); !seeds.empty(); seeds = source.take()) {
        const std::size_t gpu_position = assigner->acquire();
        runners::GpuDiscovery gpu;
        if (!open.compile_only) gpu.gpus.push_back(setup.gpus.gpus[gpu_position]);
        else gpu.note = setup.gpus.gpus.empty() ? setup.gpus.note : "compile-only mode";
        try {
          BatchOutcome outcome = fuzz_batch(context, seeds, gpu, dir, activity);
          assigner->release(gpu_position);
          outcome.gpu = gpu_position;
          if (std::chrono::steady_clock::now() >= hard_stop) ++dropped;
          else queue.push(Finished{std::move(outcome), ""});
        } catch (const std::exception& error) {
          assigner->release(gpu_position);
          if (std::chrono::steady_clock::now() >= hard_stop) {
            ++dropped;  // what a stopped compile left behind: the batch is redone on --resume
          } else {
            queue.push(Finished{std::nullopt, error.what()});
            source.stop();
          }
        }
      }
      board.set(w, "");
      queue.worker_done();
    });
  }
  return workers;
}

/// The invalid-tests row of a seed the sanitizer gate rejected, in this campaign.
triage::InvalidTest invalid_row(const SeedOutcome& seed, const triage::Test& test, double now) {
  triage::InvalidTest invalid = *seed.invalid;
  invalid.id = triage::content_key(test.campaign_id + "/" + test.name + "/invalid");
  invalid.campaign_id = test.campaign_id;
  invalid.test_id = test.id;
  invalid.time = now;
  invalid.name = test.name;
  invalid.seed = test.seed;
  return invalid;
}

/// What a batch's commit opened.
struct Committed {
  std::vector<std::string> fresh;           ///< the keys of the buckets it opened
  std::vector<ReductionItem> to_reduce;     ///< those reduced by default (reduction_item)
};

/// Step 3: one batch's tests, findings and invalid tests, the campaign's counts and its
/// elapsed time, in one transaction; the new bugs to reduce join the campaign's stored
/// pending_reductions in it, so a kill after it loses none of them.
Committed commit(triage::Database& db, const CampaignSetup& setup, OpenCampaign& open, const std::string& policy_hash,
                 const BatchOutcome& outcome, FuzzProgress& progress, std::int64_t& invalid_tests) {
  std::size_t findings = 0;
  Committed committed;
  std::vector<std::string>& fresh = committed.fresh;
  const double now = unix_seconds();
  triage::Campaign& campaign = open.row;
  db.transaction([&] {
    for (const SeedOutcome& seed : outcome.seeds) {
      const std::string seed_text = std::to_string(seed.seed);
      triage::Test test{triage::content_key(campaign.id + "/" + seed_text),
                        campaign.id,
                        (seed.edge ? "cudiff_edge_" : "cudiff_") + seed_text,
                        seed_text,
                        policy_hash,
                        open.params.configs,
                        seed.discrepancy ? "discrepancy"
                        : seed.invalid   ? "invalid"
                                         : "agree",
                        now,
                        outcome.seconds / static_cast<double>(outcome.seeds.size())};
      db.add_test(test);
      if (seed.invalid && db.add_invalid_test(invalid_row(seed, test, now))) ++invalid_tests;
      for (std::size_t i = 0; i < seed.findings.size(); ++i) {
        triage::NewFinding finding{triage::content_key(campaign.id + "/" + seed_text + "/" + std::to_string(i)),
                                   campaign.id,
                                   test.id,
                                   now,
                                   seed.findings[i],
                                   seed.signatures[i],
                                   seed.source_name,
                                   seed.source,
                                   seed.outputs};
        const triage::Recorded recorded = db.add_finding(finding, setup.known.match(seed.signatures[i]));
        ++findings;
        if (!recorded.new_bucket) continue;
        fresh.push_back(recorded.bucket.key);
        if (!open.params.reduce) continue;
        if (auto item = reduction_item(recorded.bucket)) {
          open.params.pending_reductions.push_back(item->key);
          committed.to_reduce.push_back(std::move(*item));
        }
      }
    }
    progress.add(outcome, findings, fresh.size());
    campaign.tests = static_cast<std::int64_t>(progress.tests());
    campaign.findings = db.campaign_finding_count(campaign.id);
    db.put_campaign(campaign);
    open.params.elapsed = progress.elapsed();
    db.put_campaign_params(campaign.id, boost::json::serialize(fuzz_params_json(open.params)));
  });
  return committed;
}

/// The campaign's parameters as this start ran it (its reduction choices).
FuzzParams this_start(const OpenCampaign& open) {
  FuzzParams params = open.params;
  params.reduce = open.reduce_now;
  params.reduce_share = open.share_now;
  return params;
}

/// The campaign's parameters written again: its pending reductions changed.
void store_params(triage::Database& db, const OpenCampaign& open) {
  db.transaction([&] { db.put_campaign_params(open.row.id, boost::json::serialize(fuzz_params_json(open.params))); });
}

/// Step 4: the campaign's end time and final elapsed time.
void close(triage::Database& db, OpenCampaign& open, const FuzzProgress& progress) {
  open.row.ended = unix_seconds();
  open.params.elapsed = progress.elapsed();
  db.transaction([&] {
    db.put_campaign(open.row);
    db.put_campaign_params(open.row.id, boost::json::serialize(fuzz_params_json(open.params)));
  });
}

/// When a --time campaign stops what it does (none without --time).
struct Deadlines {
  std::chrono::steady_clock::time_point time_up = std::chrono::steady_clock::time_point::max();
  std::chrono::steady_clock::time_point hard_stop = std::chrono::steady_clock::time_point::max();
};

Deadlines deadlines_of(const FuzzParams& params) {
  Deadlines deadlines;
  if (params.time_budget <= 0) return deadlines;
  const auto at = [&](double seconds_after_budget) {
    const double from_now = std::max(0.0, params.time_budget - params.elapsed) + seconds_after_budget;
    return std::chrono::steady_clock::now() +
           std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(from_now));
  };
  deadlines.time_up = at(0);
  deadlines.hard_stop = at(kDrainSeconds);
  return deadlines;
}

double seconds_until(std::chrono::steady_clock::time_point then) {
  return std::chrono::duration<double>(then - std::chrono::steady_clock::now()).count();
}

/// The progress line: redrawn in place every second on a terminal, else a line at least every
/// 10 s, whatever the campaign is doing (a batch committed or not).
class Ticker {
public:
  Ticker(std::ostream& err, bool enabled) : err_(err), enabled_(enabled), live_(enabled && ::isatty(2) == 1) {}
  void tick(const std::string& line) {
    if (!enabled_) return;
    const double now = unix_seconds();
    if (live_) {
      err_ << "\r\033[K" << line << std::flush;
      drawn_ = true;
    } else if (now - last_ >= 10) {  // the first tick prints at once
      err_ << line << "\n";
      last_ = now;
    }
  }
  /// Ends a line drawn in place, so what follows starts on its own.
  void end_line() {
    if (live_ && drawn_) err_ << "\n";
    drawn_ = false;
  }

private:
  std::ostream& err_;
  bool enabled_, live_, drawn_ = false;
  double last_ = 0;
};

/// One executor pool per GPU when binaries run on the executor path and cudiff-executor and the
/// CUDA runtime are found; else none, with a note (binaries then run as processes).
std::vector<std::shared_ptr<runners::ExecutorPool>>
start_executors(const CampaignSetup& setup, const std::filesystem::path& workdir, std::vector<std::string>& notes) {
  std::vector<std::shared_ptr<runners::ExecutorPool>> pools;
  if (setup.run_path != runners::RunPath::executor || setup.gpus.gpus.empty()) return pools;
  const auto program = runners::find_executor_program();
  const auto cudart = runners::find_cudart(setup.toolchain.cuda_home);
  if (!program || !cudart) {
    notes.push_back(std::string("binaries run as processes: ") +
                    (!program ? "cudiff-executor not found ($CUDIFF_EXECUTOR, or beside cudiff)"
                              : "no shared CUDA runtime under " + setup.toolchain.cuda_home.string()));
    return pools;
  }
  for (const runners::GpuInfo& gpu : setup.gpus.gpus) {
    runners::ExecutorSetup executor;
    executor.program = *program;
    executor.cudart = *cudart;
    executor.gpu = gpu;
    executor.workdir = workdir / ("executor-gpu" + std::to_string(gpu.index));
    executor.slots = setup.executors_per_gpu;
    pools.push_back(std::make_shared<runners::ExecutorPool>(executor));
  }
  return pools;
}

void add_stats(runners::ExecutorStats& to, const runners::ExecutorStats& from) {
  to.runs += from.runs;
  to.fallbacks += from.fallbacks;
  to.starts += from.starts;
  to.failed_starts += from.failed_starts;
  to.start_seconds += from.start_seconds;
  to.run_seconds += from.run_seconds;
  to.lost += from.lost;
  for (const auto& [reason, count] : from.fallback_reasons) to.fallback_reasons[reason] += count;
}

/// seconds_left() when the reductions have no window (yet).
constexpr double kNoWindow = -1e300;

/// When the reductions must end and how many jobs each gets: shared by the loop, which sets
/// them (a --time campaign's end from its start, a --tests campaign's when its tests are done),
/// and the reducer's thread, which reads them as each reduction starts.
class ReductionWindow {
public:
  std::atomic<bool> stop{false};  ///< set: the reduction under way is stopped at once
  std::size_t jobs = 2;           ///< before the loop shares it
  std::optional<std::chrono::steady_clock::time_point> end;  ///< likewise

  struct Now {
    std::size_t jobs;
    std::optional<std::chrono::steady_clock::time_point> end;
    /// While a --tests campaign's end is not known: when its window would end at the tests'
    /// rate so far. A reduction started alongside is told to stop by then (it is not stopped
    /// at it: the real end may come later).
    std::optional<std::chrono::steady_clock::time_point> expected_end;
  };
  /// From now on: `jobs` per reduction, `seconds` from now (negative: no bound).
  void set(std::size_t jobs_now, double seconds) {
    std::lock_guard lock(mutex_);
    jobs = jobs_now;
    end.reset();
    if (seconds >= 0) end = from_now(seconds);
  }
  /// The expected end, `seconds` from now.
  void expect(double seconds) {
    std::lock_guard lock(mutex_);
    expected_end_ = from_now(seconds);
  }
  Now get() const {
    std::lock_guard lock(mutex_);
    return {jobs, end, expected_end_};
  }
  double seconds_left() const {
    const std::optional<std::chrono::steady_clock::time_point> end_now = get().end;
    return end_now ? seconds_until(*end_now) : kNoWindow;
  }

private:
  static std::chrono::steady_clock::time_point from_now(double seconds) {
    return std::chrono::steady_clock::now() +
           std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds));
  }
  mutable std::mutex mutex_;
  std::optional<std::chrono::steady_clock::time_point> expected_end_;
};

/// One reduction in the window: not started with less than kLeastReductionStartSeconds left
/// (no line: it is listed), else told to stop before the window ends and stopped
/// kReductionStopSeconds after it.
ReductionDone reduce_in_window(const std::filesystem::path& db_path, const ReductionItem& item,
                               ReductionWindow& window) {
  const ReductionWindow::Now now = window.get();
  double left = -1;
  auto kill = std::chrono::steady_clock::time_point::max();
  if (now.end) {
    left = seconds_until(*now.end);
    if (left < kLeastReductionStartSeconds) return {item.key, "", false};
    kill = *now.end + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                          std::chrono::duration<double>(kReductionStopSeconds));
  } else if (now.expected_end) {
    left = std::max(kLeastReductionStartSeconds, seconds_until(*now.expected_end));
  }
  ChildReduction child = reduce_bucket_in_child(db_path, item.key, now.jobs, reduction_time_limit(left), kill,
                                                &window.stop, item.finding);
  return {item.key, std::move(child.line), child.finished};
}

/// The bugs a previous start left to reduce, queued first; one whose bucket is gone or no
/// longer reduced by default (a person marked it) leaves the list.
void requeue_pending(const triage::Database& db, OpenCampaign& open, BackgroundReducer& reducer) {
  std::vector<std::string> kept;
  for (const std::string& key : open.params.pending_reductions) {
    std::optional<ReductionItem> item;
    try {
      item = reduction_item(db.bucket(key));
    } catch (const Error&) {
      continue;
    }
    if (!item) continue;
    kept.push_back(key);
    reducer.add(std::move(*item));
  }
  open.params.pending_reductions = std::move(kept);
}

/// The keys still to reduce, most important first (as --resume takes them).
std::vector<std::string> pending_order(const triage::Database& db, const std::vector<std::string>& keys) {
  std::vector<triage::Bucket> buckets;
  for (const std::string& key : keys) {
    try {
      buckets.push_back(db.bucket(key));
    } catch (const Error&) {
    }
  }
  std::vector<std::string> ordered;
  for (const ReductionItem& item : reduction_order(buckets)) ordered.push_back(item.key);
  return ordered;
}

} // namespace

ChildReduction reduce_bucket_in_child(const std::filesystem::path& db_path, const std::string& key, std::size_t jobs,
                                      double time_limit, std::chrono::steady_clock::time_point deadline,
                                      const std::atomic<bool>* stop, const std::string& finding) {
  const std::string head = "reduce " + key.substr(0, 12) +
                           (finding.empty() ? "" : " (sighting " + finding.substr(0, 12) + ")") + ": ";
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return {head + "cannot find the cudiff binary (" + ec.message() + ")", true};
  runners::Command command;
  command.argv = {self.string(), "triage", "reduce", key, "--db", db_path.string(), "--jobs", std::to_string(jobs)};
  if (!finding.empty()) command.argv.insert(command.argv.end(), {"--finding", finding});
  // The child stops at its time limit itself and stores what it reduced so far: the window's
  // (`windowed`: --resume goes on with it), else the bucket's own, short of the kill.
  const double own_limit = pipeline::kBucketReductionSeconds - kReductionFinalCheckSeconds;
  const bool windowed = time_limit > 0 && time_limit < own_limit;
  const double limit = windowed ? time_limit : own_limit;
  command.argv.insert(command.argv.end(),
                      {"--time-limit", std::to_string(static_cast<long>(std::max(1.0, std::floor(limit))))});
  command.limits.wall_seconds = pipeline::kBucketReductionSeconds;
  command.limits.deadline = deadline;
  const runners::SubprocessResult result = stop ? runners::run_subprocess(command, *stop)
                                                : runners::run_subprocess(command);
  if (result.stopped) return {head + "stopped when its time ran out, nothing stored", false};
  const auto lines = split(trim(result.out.text.empty() ? result.err.text : result.out.text), '\n');
  if (result.timed_out)
    return {head + "stopped at " + std::to_string(static_cast<int>(pipeline::kBucketReductionSeconds / 60)) +
                " minutes",
            true};
  if (lines.empty()) return {head + result.status_text(), true};
  // Stopped at the window's time limit: what it reduced is stored, and it is not done.
  const bool cut = windowed && lines.back().find(kStoppedAtTimeLimit) != std::string::npos;
  return {head + lines.back(), !cut};
}

std::size_t usable_cores() {
  // The cores this process may run on (a Slurm task, taskset, a container's cpuset), not the
  // machine's: a task given 8 of a node's 128 cores must not start 64 workers.
  std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
    cores = static_cast<std::size_t>(CPU_COUNT(&set));
  // Without CPU binding Slurm still says how many cores the task was given.
  if (const char* given = std::getenv("SLURM_CPUS_PER_TASK")) {
    char* end = nullptr;
    const unsigned long value = std::strtoul(given, &end, 10);
    if (end != given && *end == '\0' && value > 0) cores = std::min<std::size_t>(cores, value);
  }
  return cores;
}

std::size_t default_fuzz_jobs() { return std::max<std::size_t>(1, usable_cores() / 2); }

CampaignSummary run_campaign(const CampaignSetup& setup, std::ostream& err) {
  triage::Database db = triage::Database::open(setup.db_path);  // a bad database fails here
  // What this cudiff knows labels the buckets already there too (a database filed by an older
  // one keeps its `new` labels otherwise, and --resume's summary would count them as new).
  db.apply_known(setup.known);
  OpenCampaign open = open_or_resume(db, setup);
  CampaignSummary summary;
  summary.campaign_id = open.row.id;
  summary.db_path = setup.db_path;
  summary.compile_only = open.compile_only;
  if (open.resuming && !setup.resume && open.row.ended > 0) {
    summary.already_finished = true;
    summary.params = open.params;
    summary.tests = open.row.tests;
    summary.findings = open.row.findings;
    return summary;
  }

  TempDir workdir("cudiff-fuzz");
  const Deadlines deadlines = deadlines_of(open.params);
  pipeline::CheckRequest check = campaign_check_request(open.params);
  check.build_path = setup.build_path;
  check.compile_limits.deadline = check.run_limits.deadline = deadlines.hard_stop;
  pipeline::SanitizerGate gate = pipeline::make_sanitizer_gate(open.params.sanitizer_gate && !open.compile_only,
                                                               setup.toolchain, check.run_limits.wall_seconds);
  gate.deadline = deadlines.hard_stop;
  const FuzzContext context{generator::Policy::load(open.params.policy), open.params.size, check, setup.toolchain,
                            workdir.path(), gate,
                            // Variants print checksums: worth their build only where binaries run.
                            open.compile_only ? 0 : static_cast<int>(open.params.variants),
                            open.compile_only || open.reductions_only
                                ? std::vector<std::shared_ptr<runners::ExecutorPool>>{}
                                : start_executors(setup, workdir.path(), summary.notes)};
  // Said once: without compute-sanitizer run-time findings are filed, each with the note
  // "not sanitizer-checked" in its details, rather than the campaign failing.
  if (open.params.sanitizer_gate && !open.compile_only && !context.sanitizer_gate.sanitizer) {
    const std::string line = "not sanitizer-checked: " + context.sanitizer_gate.missing_reason +
                             "; run-time findings are filed with that note";
    summary.notes.insert(summary.notes.begin(), line);
  }
  const double share = open.share_now;
  const CorePlan plan = plan_cores(usable_cores(), setup.jobs, share, open.reduce_now, open.params.reduce_in_parallel);
  const std::size_t worker_count = open.reductions_only ? 0 : plan.workers;
  FuzzProgress progress(open.done.size(), open.params.elapsed, shard_test_count(open.params), open.params.time_budget,
                        open.compile_only ? 0 : setup.gpus.gpus.size(), std::max<std::size_t>(1, worker_count));
  if (!setup.quiet) err << start_line(setup, open, context, plan) << avoid_lines(open.params, setup.db_path);
  summary.notes.insert(summary.notes.end(), open.avoid_notes.begin(), open.avoid_notes.end());
  if (!setup.quiet)
    for (const std::string& note : summary.notes) err << "note: " << note << "\n";

  // The reductions (docs/campaign.md, "Reductions"): new bugs, most important first, one at a
  // time in a child process; alongside the tests where plan_cores allows, else after them; in a
  // window that ends at a --time campaign's time, or a --tests campaign's share after its tests.
  ReductionWindow window;
  window.jobs = plan.alongside_jobs > 0 ? plan.alongside_jobs : plan.after_jobs;
  if (open.params.time_budget > 0 && !open.reductions_only) window.end = deadlines.time_up;
  const auto reduce = [&](const ReductionItem& item) { return reduce_in_window(setup.db_path, item, window); };
  std::optional<BackgroundReducer> reducer;
  if (open.reduce_now) reducer.emplace(reduce, plan.alongside_jobs > 0);
  if (reducer) requeue_pending(db, open, *reducer);  // a previous start's, first
  summary.reduction.share = share;
  summary.reduction.alongside_jobs = plan.alongside_jobs;
  summary.reduction.after_jobs = plan.after_jobs;
  summary.reduction.queued = open.params.pending_reductions.size();
  summary.reduction.only = open.reductions_only;
  // A --time campaign keeps the share of its time for the bugs waiting to be reduced.
  const double elapsed_at_start = open.params.elapsed;
  BatchSource source(
      open.params, open.done, [&progress] { return progress.elapsed(); },
      [&] {
        return tests_time_limit(open.params.time_budget, elapsed_at_start, share, reducer && reducer->waiting() > 0);
      });
  const auto record_reductions = [&] {
    if (!reducer) return;
    std::vector<ReductionDone> ended = reducer->take_done();
    if (ended.empty()) return;
    for (ReductionDone& done : ended) {
      if (!done.finished && !done.line.empty()) {
        // Its window ended it: still to do unless what it stored is small enough now.
        std::optional<ReductionItem> still;
        try {
          still = reduction_item(db.bucket(done.key));
        } catch (const Error&) {
        }
        done.finished = !still;
        done.line += still ? " (cudiff fuzz --resume goes on from it)" : " (small enough now)";
      }
      if (!done.line.empty()) summary.reductions.push_back(done.line);
      if (!done.finished) continue;
      ++summary.reduction.ended;
      std::erase(open.params.pending_reductions, done.key);
    }
    store_params(db, open);
  };
  // Further sightings of the new wrong-code and crash buckets, reduced for their causes once no
  // first reduction waits (campaign::cause_sample): one at a time, not kept for --resume.
  std::set<std::string> sampled;
  const auto queue_cause_sample = [&] {
    if (!reducer || reducer->pending() > 0) return false;
    for (const std::string& key : summary.new_buckets) {
      std::optional<ReductionItem> item;
      try {
        const triage::Bucket bucket = db.bucket(key);
        if (!samples_causes(bucket)) continue;  // no query for the other kinds, every second
        item = cause_sample(bucket, db.cause_sampling(bucket.key), sampled);
      } catch (const Error&) {
        continue;  // split away by its causes: its parts are reduced
      }
      if (!item) continue;
      sampled.insert(item->finding);
      ++summary.reduction.queued;
      reducer->add(std::move(*item));
      return true;
    }
    return false;
  };

  ResultQueue queue;
  ActivityBoard board(std::max<std::size_t>(1, worker_count));
  std::atomic<std::size_t> dropped{0};
  std::vector<std::thread> workers = start_workers(setup, open, context, worker_count, source, queue, board,
                                                   deadlines.hard_stop, dropped);

  Ticker ticker(err, !setup.quiet);
  const std::string policy_hash = context.policy.hash();
  std::string worker_error;
  for (;;) {
    bool idle = false;
    std::optional<Finished> item = queue.pop(workers.size(), 1.0, idle);
    if (!item) {
      if (!idle) break;  // every worker done, nothing left
    } else if (!item->outcome) {
      worker_error = item->error;
    } else {
      Committed committed = commit(db, setup, open, policy_hash, *item->outcome, progress, summary.invalid_tests);
      summary.new_buckets.insert(summary.new_buckets.end(), committed.fresh.begin(), committed.fresh.end());
      summary.notes.insert(summary.notes.end(), item->outcome->notes.begin(), item->outcome->notes.end());
      summary.reduction.queued += committed.to_reduce.size();
      if (reducer)
        for (ReductionItem& fresh : committed.to_reduce) reducer->add(std::move(fresh));  // once committed
    }
    record_reductions();
    if (plan.alongside_jobs > 0) queue_cause_sample();
    std::string activity = board.summary();
    if (open.params.time_budget > 0 && progress.elapsed() >= open.params.time_budget && !activity.empty())
      activity = "time is up, finishing batches in flight (dropped in " +
                 format_seconds(std::max(0.0, seconds_until(deadlines.hard_stop))) + "): " + activity;
    if (reducer && plan.alongside_jobs > 0) {
      // A --tests campaign's window, as the tests' rate so far puts it, for what starts alongside.
      if (open.params.time_budget <= 0 && progress.seconds_left() >= 0)
        window.expect(progress.seconds_left() +
                      reductions_window(share, progress.session_seconds() + progress.seconds_left()));
      if (reducer->pending() > 0)
        activity += std::string(activity.empty() ? "" : "; ") + "reducing " + reducer->status();
    }
    ticker.tick(progress.line(activity));
  }
  for (std::thread& worker : workers) worker.join();
  ticker.end_line();
  summary.dropped_batches = dropped;
  if (!worker_error.empty()) {
    if (reducer) {
      reducer->hold();
      window.stop = true;
    }
    throw_environment("campaign " + open.row.id.substr(0, 12) + " stopped: " + worker_error +
                      " (resume with --resume)");
  }

  if (!open.reductions_only) close(db, open, progress);
  std::vector<triage::Bucket> fresh_buckets;
  for (const std::string& key : summary.new_buckets) fresh_buckets.push_back(db.bucket(key));
  summary.bugs = triage::tally_bugs(fresh_buckets);
  for (const triage::Bucket& bucket : fresh_buckets) {
    if (!reduction_rank(bucket)) ++summary.reduction.not_queued;
    else if (already_small(bucket)) ++summary.reduction.small;
  }
  // Each GPU's share, over the time the workers ran (not the reductions after them).
  if (!open.compile_only)
    for (std::size_t i = 0; i < setup.gpus.gpus.size(); ++i) {
      GpuShare share_of_gpu = progress.gpu_share(i);
      share_of_gpu.gpu = setup.gpus.gpus[i];
      if (i < context.executors.size()) share_of_gpu.executor = context.executors[i]->stats();
      summary.gpus.push_back(std::move(share_of_gpu));
    }
  if (!context.executors.empty()) {
    runners::ExecutorStats all;
    for (const auto& pool : context.executors) add_stats(all, pool->stats());
    summary.executor = all;
  }
  summary.params = this_start(open);
  summary.tests = open.row.tests;
  summary.findings = open.row.findings;
  summary.seconds = progress.elapsed();
  summary.report = setup.report.value_or(setup.db_path.parent_path() /
                                         (setup.db_path.stem().string() + "-report.html"));
  // Step 5: the summary and the report as the tests leave them, at once.
  if (!open.reductions_only) write_file(summary.report, triage::render_html_report(db, unix_seconds()));
  record_reductions();
  summary.reduction.under_way = reducer ? reducer->status() : "done";
  if (reducer && (reducer->pending() > 0 || queue_cause_sample())) {
    // The window after the tests: until a --time campaign's time is up, a --tests campaign's
    // share of its tests' time, no bound for a --resume that only reduces.
    summary.reduction.window = open.reductions_only          ? -1
                               : open.params.time_budget > 0 ? std::max(0.0, seconds_until(deadlines.time_up))
                                                             : reductions_window(share, progress.session_seconds());
    window.set(plan.after_jobs, summary.reduction.window);
  }
  summary.unreduced = pending_order(db, open.params.pending_reductions);
  if (setup.on_tests_done) setup.on_tests_done(summary);

  // Step 6: the reductions' window, then the report again with the reduced reproducers.
  if (reducer && reducer->pending() > 0) {
    const auto started = std::chrono::steady_clock::now();
    if (open.reductions_only || summary.reduction.window > 0) reducer->start();
    const std::size_t lines_before = summary.reductions.size();
    for (;;) {
      const bool idle = reducer->wait_idle(1.0);
      record_reductions();
      const double left = window.seconds_left();
      if (idle && (left != kNoWindow && left <= kLeastReductionStartSeconds)) break;
      if (idle && !queue_cause_sample()) break;
      if (left != kNoWindow && left <= kLeastReductionStartSeconds) reducer->hold();  // nothing more starts
      if (left != kNoWindow && left <= -kReductionStopSeconds) window.stop = true;
      ticker.tick("reductions: " + reducer->status() +
                  (left == kNoWindow ? ""
                   : left > 0        ? ", " + format_seconds(left) + " left"
                                     : ", time is up (stopped in " +
                                           format_seconds(std::max(0.0, left + kReductionStopSeconds)) + ")"));
    }
    reducer->hold();
    reducer->finish();
    record_reductions();
    ticker.end_line();
    summary.reduction.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (summary.reductions.size() > lines_before)  // something was stored, or tried
      write_file(summary.report, triage::render_html_report(db, unix_seconds()));
  }
  if (reducer) {
    reducer->hold();
    reducer->finish();
    record_reductions();
  }
  summary.unreduced = pending_order(db, open.params.pending_reductions);
  open.params.pending_reductions = summary.unreduced;
  store_params(db, open);
  summary.params = this_start(open);
  return summary;
}

}  // namespace cudiff::campaign
