// runners: the executor path — built programs run inside long-lived cudiff-executor processes
// (one CUDA context each) instead of a process per run. The protocol is described at the top of
// executor_main.cpp; this is the parent's side: start, one request at a time, limits, faults.
//
// Faithfulness rule: only a clean run (main returned 0, no CUDA error after it, no refused
// allocation, within the limits) is taken from an executor. Anything else ends in a fallback
// with a reason, and the caller runs the program as a plain process, so a fault is observed
// exactly as the process path observes it.
#include "pipeline/limits.h"
#include "runners/process_group.h"
#include "runners/runners.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <cstdlib>
#include <fstream>
#include <mutex>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

namespace cudiff::runners {
namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// The pool's limits (an executor's start, the programs it runs, the failed starts in a row
// before the pool gives up) are pipeline/limits.h's kExecutor* and kProgramsPerExecutor.

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

std::string signal_text(int status) {
  if (WIFEXITED(status)) return "exit " + std::to_string(WEXITSTATUS(status));
  // SIGXFSZ: a program's stdout or stderr file reached the output cap (RLIMIT_FSIZE, set by
  // the executor): its process run keeps head and tail of the flood, as a process's pipes do.
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGXFSZ) return "output past the cap";
  if (WIFSIGNALED(status)) return "signal " + std::to_string(WTERMSIG(status));
  return "ended";
}

/// A file's text within `cap` bytes (head and tail), as a process's captured stream.
CapturedStream read_capped(const std::filesystem::path& path, std::size_t cap) {
  detail::BoundedCapture capture(cap);
  std::ifstream in(path, std::ios::binary);
  std::vector<char> buffer(1 << 16);
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    if (in.gcount() > 0) capture.append(buffer.data(), static_cast<std::size_t>(in.gcount()));
  }
  return capture.finish();
}

} // namespace

/// One cudiff-executor process and its two pipes.
class ExecutorPool::Slot {
public:
  Slot(const ExecutorSetup& setup, std::size_t index) : setup_(setup), index_(index) {}
  ~Slot() { stop(); }

  bool running() const { return pid_ > 0; }
  std::uint64_t runs() const { return runs_; }
  /// Whether the last run's request never reached the executor (it had ended before): nothing
  /// of that program ran, so another executor may take it.
  bool request_unsent() const { return request_unsent_; }

  /// Whether the executor, started and idle, has ended since its last run (killed from
  /// outside, or gone by itself). It is reaped here, so the next run starts a new one.
  bool ended_while_idle() {
    if (pid_ <= 0) return false;
    siginfo_t info{};
    // WNOWAIT: only a look; reap() kills what is left of its group before it reaps the leader,
    // whose unreaped pid keeps the group's id from being reused meanwhile.
    if (::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) != 0 || info.si_pid != pid_)
      return false;
    reap();
    return true;
  }

  /// Starts the executor and waits for its "ready"; false with `why` when it did not come.
  bool start(std::string& why) {
    stop();
    // Requests go over a socket pair, so that a write to an executor that died is an error
    // (send with MSG_NOSIGNAL), never a SIGPIPE to cudiff; replies come over a pipe.
    int requests[2], replies[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, requests) != 0)
      return fail(why, "cannot create pipes: " + detail::errno_text(errno));
    if (::pipe2(replies, O_CLOEXEC) != 0) {
      ::close(requests[0]);
      ::close(requests[1]);
      return fail(why, "cannot create pipes: " + detail::errno_text(errno));
    }
    const std::filesystem::path log = setup_.workdir / ("executor" + std::to_string(index_) + ".log");
    // The executor's RLIMIT_FSIZE (the output cap, below) bounds its own log too, which the
    // slot's executors append to one after another: a log past half the cap starts over, or one
    // at the cap would end every new executor at its first line.
    std::error_code ec;
    const std::uintmax_t log_bytes = std::filesystem::file_size(log, ec);
    const bool restart_log = !ec && log_bytes > Limits{}.output_cap_bytes / 2;
    posix_spawn_file_actions_t actions;
    ::posix_spawn_file_actions_init(&actions);
    ::posix_spawn_file_actions_adddup2(&actions, requests[0], 0);
    ::posix_spawn_file_actions_adddup2(&actions, replies[1], 1);
    ::posix_spawn_file_actions_addopen(&actions, 2, log.c_str(),
                                       O_WRONLY | O_CREAT | (restart_log ? O_TRUNC : O_APPEND), 0644);
    ::posix_spawn_file_actions_addchdir_np(&actions, setup_.workdir.c_str());
    posix_spawnattr_t attributes;
    ::posix_spawnattr_init(&attributes);
    sigset_t none;
    ::sigemptyset(&none);
    ::posix_spawnattr_setsigmask(&attributes, &none);
    ::posix_spawnattr_setpgroup(&attributes, 0);  // its own group: one kill reaches all of it
    ::posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);

    std::vector<std::string> args = {setup_.program.string()};
    if (!setup_.cudart.empty()) args.insert(args.end(), {"--cudart", setup_.cudart.string()});
    // One program's share of the GPU's memory (runners/device_share.h): what is left after the
    // contexts of this GPU's `slots` executors, times device_share, split among them.
    args.insert(args.end(), {"--executors", std::to_string(std::max<std::size_t>(1, setup_.slots)), "--context-bytes",
                             std::to_string(pipeline::kExecutorContextBytes), "--device-share",
                             std::to_string(setup_.device_share)});
    // A program's stdout or stderr file may grow to the default output cap while it runs (the
    // executor's RLIMIT_FSIZE); past it the executor ends (SIGXFSZ) and the run falls back to a
    // process ("output past the cap"), whose pipes keep head and tail as execute()'s do.
    args.insert(args.end(), {"--output-cap", std::to_string(Limits{}.output_cap_bytes)});
    std::vector<char*> argv;
    for (std::string& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    Command settings;  // only its environment: every run of a program's, as execute() gives a process
    settings.env_overrides = program_environment(setup_.gpu.visible_device);
    std::vector<std::string> env = detail::child_environment(settings);
    std::vector<char*> envp;
    for (std::string& entry : env) envp.push_back(entry.data());
    envp.push_back(nullptr);

    pid_t pid = 0;
    const int status = ::posix_spawn(&pid, argv[0], &actions, &attributes, argv.data(), envp.data());
    ::posix_spawn_file_actions_destroy(&actions);
    ::posix_spawnattr_destroy(&attributes);
    ::close(requests[0]);
    ::close(replies[1]);
    if (status != 0) {
      ::close(requests[1]);
      ::close(replies[0]);
      return fail(why, "cannot start " + setup_.program.string() + ": " + detail::errno_text(status));
    }
    pid_ = pid;
    to_ = requests[1];
    from_ = replies[0];
    runs_ = 0;
    std::string line;
    const auto start_limit = std::chrono::duration_cast<Clock::duration>(
        std::chrono::duration<double>(pipeline::kExecutorStartSeconds));
    const Wait waited = read_reply(line, Clock::now() + start_limit, 0);
    if (waited != Wait::line || !line.starts_with("ready")) {
      const std::string said = line.starts_with("failed\t") ? line.substr(7) : "";
      stop();
      const std::string silent = waited == Wait::timed_out
                                     ? "no answer in " +
                                           std::to_string(static_cast<int>(pipeline::kExecutorStartSeconds)) + " s"
                                     : "it ended";
      return fail(why, said.empty() ? "the executor did not start (" + silent + "; see " + log.string() + ")" : said);
    }
    const auto fields = split(line, '\t');
    if (fields.size() >= 2) start_ms_ = std::atof(fields[1].c_str());
    return true;
  }

  /// One program; a result only for a clean run (see the top of the file).
  ExecutorPool::RunAttempt run(const std::filesystem::path& program, const std::vector<std::string>& args,
                               const Limits& limits, const std::filesystem::path& cwd) {
    ExecutorPool::RunAttempt outcome;
    const std::filesystem::path out = setup_.workdir / ("out" + std::to_string(index_));
    const std::filesystem::path err = setup_.workdir / ("err" + std::to_string(index_));
    std::string request = "run\t" + std::filesystem::absolute(program).string() + "\t" +
                          (cwd.empty() ? setup_.workdir : cwd).string() + "\t" + out.string() + "\t" + err.string();
    for (const std::string& arg : args) request += "\t" + arg;
    request += "\n";
    const std::optional<Sent> sent = send(request, limits, outcome);
    if (!sent) return outcome;
    bool refused = false;
    std::string unsupported;  // the entry point the runtime lacks, which the program called
    std::string line;
    for (;;) {
      const Wait waited = read_reply(line, sent->deadline(), limits.memory_bytes);
      if (waited == Wait::line && line.starts_with("refusing")) {
        refused = true;
        continue;
      }
      if (waited == Wait::line && line.starts_with("unsupported\t")) {
        unsupported = line.substr(12);
        continue;
      }
      if (waited == Wait::timed_out) {
        stop();
        outcome.fallback = sent->stopped_at_deadline() ? "stopped at the deadline" : "time limit";
        return outcome;
      }
      if (waited == Wait::memory) {
        stop();
        outcome.fallback = "host memory limit";
        return outcome;
      }
      if (waited == Wait::ended) {
        // The program's exit() or signal, or a kill from outside: the parent cannot tell
        // which, and need not: the process run that follows shows what the program does.
        outcome.fallback = !unsupported.empty() ? "the CUDA runtime lacks " + unsupported
                           : refused            ? "device memory share"
                                                : "the executor ended during the run (" + ended_text() + ")";
        return outcome;
      }
      break;
    }
    const auto fields = split(line, '\t');
    if (fields.empty() || fields[0] != "done" || fields.size() < 5) {
      outcome.fallback = "not loadable by the executor (" + (fields.size() > 1 ? fields[1] : line) + ")";
      return outcome;
    }
    const int value = std::atoi(fields[1].c_str());
    const int cuda_error = std::atoi(fields[2].c_str());
    if (cuda_error != 0) {
      stop();  // it exits by itself: its context may be poisoned
      outcome.fallback = "CUDA error " + std::to_string(cuda_error) + " after the program";
      return outcome;
    }
    if (!unsupported.empty()) {
      outcome.fallback = "the CUDA runtime lacks " + unsupported;
      return outcome;
    }
    if (refused || fields[3] == "1") {
      outcome.fallback = "device memory share";
      return outcome;
    }
    if (value != 0) {
      outcome.fallback = "main returned " + std::to_string(value);
      return outcome;
    }
    SubprocessResult result;
    result.started = true;
    result.exit_code = 0;
    result.wall_seconds = seconds_since(sent->start);
    result.start_time = sent->start;
    result.process_group = pid_;
    result.out = read_capped(out, limits.output_cap_bytes);
    result.err = read_capped(err, limits.output_cap_bytes);
    outcome.result = std::move(result);
    return outcome;
  }

  /// Kernels of a module, in order on one load of it (ExecutorPool::launch): a result for
  /// everything the kernels did, none only when the executor could not take it.
  ExecutorPool::RunAttempt launch(const std::filesystem::path& module, const std::vector<LaunchDescription>& launch,
                                  const Limits& limits) {
    ExecutorPool::RunAttempt outcome;
    const std::string index = std::to_string(index_);
    const std::filesystem::path out = setup_.workdir / ("out" + index), err = setup_.workdir / ("err" + index);
    const std::filesystem::path description = setup_.workdir / ("launch" + index + ".txt");
    try {
      write_file(description, executor_text(launch));
    } catch (const Error& error) {
      outcome.fallback = error.what();
      return outcome;
    }
    const std::string request = "launch\t" + std::filesystem::absolute(module).string() + "\t" + description.string() +
                                "\t" + out.string() + "\t" + err.string() + "\n";
    const std::optional<Sent> sent = send(request, limits, outcome);
    if (!sent) return outcome;
    const auto start = sent->start;
    std::string line;
    const Wait waited = read_reply(line, sent->deadline(), limits.memory_bytes);
    SubprocessResult result;
    result.started = true;
    result.start_time = start;
    result.process_group = pid_;
    if (waited == Wait::timed_out && sent->stopped_at_deadline()) {
      stop();
      outcome.fallback = "stopped at the deadline";
      return outcome;
    }
    if (waited == Wait::timed_out) {
      // A kernel that does not end: a result (a hang), and the executor it holds is replaced.
      stop();
      result.timed_out = true;
      result.wall_seconds = seconds_since(start);
      outcome.failure = "time limit";
      outcome.result = std::move(result);
      return outcome;
    }
    if (waited == Wait::memory) {
      stop();
      outcome.fallback = "host memory limit";
      return outcome;
    }
    if (waited == Wait::ended) {
      outcome.fallback = "the executor ended during the launch (" + ended_text() + ")";
      return outcome;
    }
    const auto fields = split(line, '\t');
    if (fields.empty() || (fields[0] != "launched" && (fields[0] != "launch-failed" || fields.size() < 5))) {
      outcome.fallback = "not understood: " + line;
      return outcome;
    }
    result.wall_seconds = seconds_since(start);
    result.exit_code = fields[0] == "launched" ? 0 : 1;
    result.out = read_capped(out, limits.output_cap_bytes);
    result.err = read_capped(err, limits.output_cap_bytes);
    if (result.exit_code != 0) {
      outcome.failure = fields[1] + ": " + fields[3];
      if (fields[4] == "1") stop();  // it exits by itself: its context may hold a sticky error
    }
    outcome.result = std::move(result);
    return outcome;
  }

  double start_ms() const { return start_ms_; }

  /// Kills the executor (if it runs) and reaps it.
  void stop() {
    if (to_ >= 0) ::close(to_);
    if (from_ >= 0) ::close(from_);
    to_ = from_ = -1;
    if (pid_ > 0) {
      detail::kill_group(pid_);
      ::kill(pid_, SIGKILL);
      reap();
    }
  }

private:
  enum class Wait { line, ended, timed_out, memory };

  /// A request sent: when, and by when its reply must come.
  struct Sent {
    Clock::time_point start;
    Clock::time_point wall_deadline;   ///< start + the run's wall-clock limit (max(): none)
    Clock::time_point limits_deadline;  ///< the caller's whole work's end (Limits::deadline)
    Clock::time_point deadline() const { return std::min(wall_deadline, limits_deadline); }
    /// Whether running out of time is the caller's deadline, not the run's own limit.
    bool stopped_at_deadline() const { return limits_deadline < wall_deadline; }
  };

  /// Sends one request (a run's or a launch's) and counts it; nothing, with the fallback in
  /// `outcome`, when the executor had ended before it read it: it is reaped here, so the next
  /// run starts a new one, and request_unsent() says that nothing of the program ran.
  std::optional<Sent> send(const std::string& request, const Limits& limits, ExecutorPool::RunAttempt& outcome) {
    Sent sent;
    sent.start = Clock::now();
    ++runs_;
    request_unsent_ = false;
    if (!write_all(request)) {
      stop();
      request_unsent_ = true;
      outcome.fallback = "the executor was gone (" + ended_text() + ")";
      return std::nullopt;
    }
    const bool wall_limit = limits.wall_seconds > 0 && limits.wall_seconds < 1e7;
    sent.wall_deadline = wall_limit ? sent.start + std::chrono::duration_cast<Clock::duration>(
                                                       std::chrono::duration<double>(limits.wall_seconds))
                                    : Clock::time_point::max();
    sent.limits_deadline = limits.deadline;
    return sent;
  }

  static bool fail(std::string& why, std::string text) {
    why = std::move(text);
    return false;
  }

  bool write_all(const std::string& text) {
    std::size_t done = 0;
    while (done < text.size()) {
      const ssize_t n = ::send(to_, text.data() + done, text.size() - done, MSG_NOSIGNAL);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      done += static_cast<std::size_t>(n);
    }
    return true;
  }

  /// The next reply line, or why none came: the executor ended, the deadline passed, or the
  /// group's resident memory went past `memory_bytes` (0: no limit).
  Wait read_reply(std::string& line, Clock::time_point deadline, std::uint64_t memory_bytes) {
    line.clear();
    for (;;) {
      if (const auto newline = buffer_.find('\n'); newline != std::string::npos) {
        line = buffer_.substr(0, newline);
        buffer_.erase(0, newline + 1);
        return Wait::line;
      }
      const auto now = Clock::now();
      if (now >= deadline) return Wait::timed_out;
      const auto until = std::min(deadline, now + 50ms);
      pollfd fd = {from_, POLLIN, 0};
      const auto ms = std::chrono::ceil<std::chrono::milliseconds>(until - now).count();
      const int ready = ::poll(&fd, 1, static_cast<int>(std::clamp<long long>(ms, 0, INT_MAX)));
      if (ready > 0) {
        char chunk[4096];
        const ssize_t n = ::read(from_, chunk, sizeof chunk);
        if (n > 0) {
          buffer_.append(chunk, static_cast<std::size_t>(n));
          continue;
        }
        if (n < 0 && errno == EINTR) continue;
        reap();
        return Wait::ended;
      }
      if (memory_bytes > 0 && detail::group_resident_bytes(pid_) > memory_bytes) return Wait::memory;
    }
  }

  void reap() {
    if (pid_ <= 0) return;
    detail::kill_group(pid_);
    int status = 0;
    while (::waitpid(pid_, &status, 0) == -1 && errno == EINTR) {
    }
    ended_ = signal_text(status);
    pid_ = 0;
    if (to_ >= 0) ::close(to_);
    if (from_ >= 0) ::close(from_);
    to_ = from_ = -1;
    buffer_.clear();
  }

  std::string ended_text() const { return ended_.empty() ? "ended" : ended_; }

  const ExecutorSetup& setup_;
  std::size_t index_;
  pid_t pid_ = 0;
  int to_ = -1, from_ = -1;
  std::string buffer_;
  std::string ended_;
  std::uint64_t runs_ = 0;
  double start_ms_ = 0;
  bool request_unsent_ = false;
};

ExecutorPool::ExecutorPool(ExecutorSetup setup) : setup_(std::move(setup)) {
  std::error_code ec;
  std::filesystem::create_directories(setup_.workdir, ec);
  for (std::size_t i = 0; i < std::max<std::size_t>(1, setup_.slots); ++i) {
    slots_.push_back(std::make_unique<Slot>(setup_, i));
    free_.push_back(i);
  }
}

ExecutorPool::~ExecutorPool() = default;

ExecutorPool::RunAttempt ExecutorPool::run(const std::filesystem::path& program, const std::vector<std::string>& args,
                                           const Limits& limits, const std::filesystem::path& cwd) {
  return dispatch(limits, [&](Slot& slot) { return slot.run(program, args, limits, cwd); });
}

ExecutorPool::RunAttempt ExecutorPool::launch(const std::filesystem::path& module, const LaunchDescription& launch,
                                              const Limits& limits) {
  return this->launch(module, std::vector<LaunchDescription>{launch}, limits);
}

ExecutorPool::RunAttempt ExecutorPool::launch(const std::filesystem::path& module,
                                              const std::vector<LaunchDescription>& launches, const Limits& limits) {
  return dispatch(limits, [&](Slot& slot) { return slot.launch(module, launches, limits); });
}

template <typename Work>
ExecutorPool::RunAttempt ExecutorPool::dispatch(const Limits& limits, Work work) {
  if (Clock::now() >= limits.deadline) return RunAttempt{std::nullopt, "stopped at the deadline"};
  std::size_t index = 0;
  {
    std::unique_lock lock(mutex_);
    if (!unavailable_.empty()) {
      ++stats_.fallbacks;
      ++stats_.fallback_reasons["executor unavailable"];
      return RunAttempt{std::nullopt, "executor unavailable: " + unavailable_};
    }
    available_.wait(lock, [&] { return !free_.empty(); });
    index = free_.back();
    free_.pop_back();
  }
  Slot& slot = *slots_[index];
  std::uint64_t starts = 0, lost = 0;
  double start_seconds = 0, run_seconds = 0;
  std::string why;
  bool start_failed = false;
  RunAttempt outcome;
  // Twice at most: an executor that ended while idle (killed from outside, say) is replaced
  // and the program handed to the new one, since none of it ran; that costs no fallback.
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (slot.ended_while_idle()) ++lost;
    if (!slot.running() || slot.runs() >= pipeline::kProgramsPerExecutor) {
      if (!slot.start(why)) {
        start_failed = true;
        outcome = RunAttempt{std::nullopt, "executor did not start: " + why};
        break;
      }
      ++starts;
      start_seconds += slot.start_ms() / 1000;
    }
    const auto start = Clock::now();
    outcome = work(slot);
    run_seconds += seconds_since(start);
    if (!slot.request_unsent()) break;
    ++lost;
  }
  {
    std::lock_guard lock(mutex_);
    stats_.starts += starts;
    stats_.start_seconds += start_seconds;
    stats_.lost += lost;
    if (start_failed) {
      if (++failed_starts_ >= pipeline::kExecutorStartAttempts) unavailable_ = why;
      ++stats_.failed_starts;
      ++stats_.fallbacks;
      ++stats_.fallback_reasons["executor did not start"];
    } else {
      if (starts > 0) failed_starts_ = 0;
      ++stats_.runs;
      stats_.run_seconds += run_seconds;
      if (!outcome.result) {
        ++stats_.fallbacks;
        // The reason's kind, without its numbers: "CUDA error 700 after..." counts as one kind.
        const std::string& reason = outcome.fallback;
        const auto cut = reason.find_first_of("0123456789(");
        ++stats_.fallback_reasons[std::string(trim(cut == std::string::npos ? reason : reason.substr(0, cut)))];
      }
    }
    free_.push_back(index);
  }
  available_.notify_one();
  return outcome;
}

ExecutorStats ExecutorPool::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

const GpuInfo& ExecutorPool::gpu() const { return setup_.gpu; }

std::optional<std::filesystem::path> find_executor_program() {
  std::error_code ec;
  if (const char* named = std::getenv("CUDIFF_EXECUTOR"); named != nullptr && *named != '\0') {
    if (std::filesystem::is_regular_file(named, ec)) return std::filesystem::path(named);
    return std::nullopt;
  }
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return std::nullopt;
  const auto beside = self.parent_path() / "cudiff-executor";
  if (std::filesystem::is_regular_file(beside, ec)) return beside;
  return std::nullopt;
}

std::optional<std::filesystem::path> find_cudart(const std::filesystem::path& cuda_home) {
  std::error_code ec;
  for (const char* dir : {"lib64", "targets/x86_64-linux/lib", "lib"})
    for (const char* name : {"libcudart.so", "libcudart.so.13", "libcudart.so.12"})
      if (const auto path = cuda_home / dir / name; std::filesystem::exists(path, ec)) return path;
  return std::nullopt;
}

std::string to_string(RunPath path) { return path == RunPath::executor ? "executor" : "process"; }

std::optional<RunPath> parse_run_path(std::string_view text) {
  if (text == "executor") return RunPath::executor;
  if (text == "process") return RunPath::process;
  return std::nullopt;
}

}  // namespace cudiff::runners
