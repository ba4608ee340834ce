// runners: run_subprocess — one child in its own process group, under limits, output captured.
//
// The child is launched with Boost.Process v2's posix default_launcher (fork + exec, with our
// own initializer for what happens between the two); after that the pid is ours: a pidfd says
// when it exits, wait4 reaps it, and the whole process group is killed around that.
#include "runners/process_group.h"
#include "runners/runners.h"

#include <boost/asio/io_context.hpp>
#include <boost/process/v2/environment.hpp>
#include <boost/process/v2/posix/default_launcher.hpp>
#include <boost/process/v2/process.hpp>
#include <boost/process/v2/start_dir.hpp>
#include <boost/process/v2/stdio.hpp>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace cudiff::runners {
namespace {

namespace bp = boost::process::v2;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

/// How long to keep reading pipes, and reaping the group, after the leader is gone: a process
/// that left the group (setsid) may hold the pipes open forever.
constexpr auto kDrainTime = 1s;

/// An owned file descriptor.
class Fd {
public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(Fd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  Fd& operator=(Fd&& other) noexcept {
    reset(std::exchange(other.fd_, -1));
    return *this;
  }
  ~Fd() { reset(); }
  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }
  void reset(int fd = -1) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

private:
  int fd_ = -1;
};

// ---- before the launch: program, environment, pipes -------------------------------------

bool is_executable_file(const std::filesystem::path& path) {
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec) && ::access(path.c_str(), X_OK) == 0;
}

/// argv[0] as the path to exec. A name without '/' is looked up on the PATH the child will
/// see (so an overridden PATH applies, as with `env PATH=... name`); a relative path is taken
/// relative to cudiff's directory, not to command.cwd.
std::optional<std::filesystem::path> find_program(const std::string& name, const std::vector<std::string>& env,
                                                  std::string& error) {
  if (name.find('/') != std::string::npos) {
    std::error_code ec;
    auto path = std::filesystem::absolute(name, ec);
    if (ec) error = "cannot resolve " + name + ": " + ec.message();
    return ec ? std::nullopt : std::optional(path);
  }
  std::string search = "/usr/bin:/bin";  // execvp's default when PATH is unset
  for (const auto& entry : env)
    if (entry.starts_with("PATH=")) search = entry.substr(5);
  for (const auto& dir : split(search, ':')) {
    auto candidate = (dir.empty() ? std::filesystem::path(".") : std::filesystem::path(dir)) / name;
    if (is_executable_file(candidate)) return candidate;
  }
  error = "program not found on PATH: " + name;
  return std::nullopt;
}

/// The child's stdio: stdin from /dev/null, stdout and stderr into pipes. Every descriptor is
/// close-on-exec, so a child started by another thread at the same moment cannot inherit our
/// pipes' write ends (which would keep our reads from ever seeing EOF); dup2 onto 0/1/2 in the
/// child clears the flag on the copies it keeps.
struct Pipes {
  Fd devnull, out_read, out_write, err_read, err_write;
};

bool open_pipe(Fd& read_end, Fd& write_end) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return false;
  read_end.reset(fds[0]);
  write_end.reset(fds[1]);
  // Non-blocking reads: a read after poll() can never stall the watcher.
  ::fcntl(fds[0], F_SETFL, ::fcntl(fds[0], F_GETFL) | O_NONBLOCK);
  // A bigger pipe means fewer wake-ups when a child floods its output (failure is harmless).
  ::fcntl(fds[1], F_SETPIPE_SZ, 1 << 20);
  return true;
}

bool open_pipes(Pipes& pipes, std::string& error) {
  pipes.devnull.reset(::open("/dev/null", O_RDONLY | O_CLOEXEC));
  if (!pipes.devnull.valid() || !open_pipe(pipes.out_read, pipes.out_write) ||
      !open_pipe(pipes.err_read, pipes.err_write)) {
    error = "cannot create pipes: " + detail::errno_text(errno);
    return false;
  }
  return true;
}

// ---- the launch -------------------------------------------------------------------------

/// Boost.Process initializer for the moments between fork and exec in the child. Only
/// async-signal-safe calls here: the parent may have other threads, whose locks are frozen
/// in the child.
struct ChildSetup {
  rlim_t cpu_soft = 0;  ///< RLIMIT_CPU soft limit in seconds; 0: none
  pid_t parent = 0;

  ChildSetup(double cpu_seconds, pid_t parent_pid) : parent(parent_pid) {
    if (cpu_seconds > 0) cpu_soft = static_cast<rlim_t>(std::max(1.0, std::ceil(cpu_seconds)));
  }

  // bp::filesystem is boost::filesystem or std::filesystem, as Boost.Process was configured; a
  // parameter of the other type would make the launcher skip this hook without a word.
  boost::system::error_code on_exec_setup(bp::posix::default_launcher& launcher, const bp::filesystem::path&,
                                          const char* const*) const {
    // Its own process group, so that one kill(-pgid) reaches everything it spawns.
    if (::setpgid(0, 0) != 0) return last_error();
    // Should cudiff die, a hung compiler must not run on unsupervised. Only the leader gets
    // this (the rest of the group is killed by us in every normal path).
    if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) return last_error();
    if (::getppid() != parent) return {ESRCH, boost::system::system_category()};
    // Crashing compilers are expected; their core dumps must not fill the disk.
    struct rlimit no_core = {0, 0};
    if (::setrlimit(RLIMIT_CORE, &no_core) != 0) return last_error();
    if (cpu_soft > 0 && !limit_cpu()) return last_error();
    reset_signals();
    close_other_fds(launcher.fd_whitelist);
    return {};
  }

  /// Boost 1.81 calls exit() in the child when exec fails, which runs the parent's atexit
  /// handlers and may deadlock on a lock another thread held at fork; _exit avoids both. (The
  /// variadic signature is what 1.81's detection of this hook happens to need.)
  template <typename... Args>
  void on_exec_error(Args&&...) const {
    ::_exit(127);
  }

private:
  static boost::system::error_code last_error() { return {errno, boost::system::system_category()}; }

  /// soft = the limit (SIGXCPU), hard = one second later (SIGKILL), never above the current hard.
  bool limit_cpu() const {
    struct rlimit current = {};
    if (::getrlimit(RLIMIT_CPU, &current) != 0) return false;
    struct rlimit wanted = {cpu_soft, cpu_soft + 1};
    if (current.rlim_max != RLIM_INFINITY) {
      wanted.rlim_max = std::min(wanted.rlim_max, current.rlim_max);
      wanted.rlim_cur = std::min(wanted.rlim_cur, wanted.rlim_max);
    }
    return ::setrlimit(RLIMIT_CPU, &wanted) == 0;
  }

  /// Ignored signals and the signal mask survive exec; cudiff's (e.g. SIGPIPE ignored, or
  /// SIGINT blocked in worker threads) must not change how a compiler behaves.
  static void reset_signals() {
    sigset_t none;
    ::sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    struct sigaction default_action = {};
    default_action.sa_handler = SIG_DFL;
    ::sigemptyset(&default_action.sa_mask);
    for (int sig = 1; sig < NSIG; ++sig)
      if (sig != SIGKILL && sig != SIGSTOP) ::sigaction(sig, &default_action, nullptr);
  }

  /// Closes every descriptor but 0-2 and the launcher's own (its exec-error pipe). Boost 1.81's
  /// close_all skips the ones between 2 and its pipe, and a descriptor another thread opened
  /// without O_CLOEXEC would otherwise leak into the compiler.
  static void close_other_fds(const std::vector<int>& keep) {
    int low = 3;
    while (true) {
      int next = INT_MAX;
      for (int fd : keep)
        if (fd >= low && fd < next) next = fd;
      if (next == INT_MAX) {
        ::close_range(static_cast<unsigned>(low), ~0u, 0);
        return;
      }
      if (next > low) ::close_range(static_cast<unsigned>(low), static_cast<unsigned>(next - 1), 0);
      low = next + 1;
    }
  }
};

/// Starts the child; returns its pid, or 0 with `error` set. Never leaves a zombie behind.
int launch(const Command& command, const std::filesystem::path& executable, const std::vector<std::string>& env,
           const Pipes& pipes, std::string& error) {
  std::vector<const char*> argv;
  for (const auto& arg : command.argv) argv.push_back(arg.c_str());
  argv.push_back(nullptr);
  // A const char** is passed to the child as the whole argv, so argv[0] stays what the caller
  // wrote (clang picks its driver mode from it) instead of the resolved path.
  const char** argv_data = argv.data();

  boost::asio::io_context context;  // local: run_subprocess runs in many threads at once
  const bp::filesystem::path program(executable.string());
  bp::posix::default_launcher launcher;
  bp::process_environment environment(env);
  bp::process_stdio stdio{pipes.devnull.get(), pipes.out_write.get(), pipes.err_write.get()};
  ChildSetup setup(command.limits.cpu_seconds, ::getpid());
  boost::system::error_code ec;
  try {
    // The setup goes last: it closes descriptors, which must happen after stdio's dup2.
    auto process = command.cwd.empty()
                       ? launcher(context.get_executor(), ec, program, argv_data, stdio, environment, setup)
                       : launcher(context.get_executor(), ec, program, argv_data, stdio,
                                  bp::process_start_dir(bp::filesystem::path(command.cwd.string())), environment,
                                  setup);
    // Its destructor would kill the child; from here on the pid is managed by hand.
    process.detach();
  } catch (const std::exception& e) {
    ec = boost::system::error_code(EIO, boost::system::system_category());
    error = "cudiff could not watch " + executable.string() + ": " + e.what();
  }
  if (ec) {
    if (launcher.pid > 0) {  // forked, but exec failed (the child has _exit'ed) or we threw
      detail::kill_group(launcher.pid);
      ::kill(launcher.pid, SIGKILL);
      ::waitpid(launcher.pid, nullptr, 0);
    }
    if (error.empty()) error = "cannot execute " + executable.string() + ": " + ec.message();
    return 0;
  }
  // The child did this itself before exec; repeating it here closes the race for anyone who
  // looks at the group before then. After exec it fails with EACCES, which is fine.
  ::setpgid(launcher.pid, launcher.pid);
  return launcher.pid;
}

// ---- watching the child -----------------------------------------------------------------

/// The running child as the watcher sees it.
struct Child {
  int pid = 0;
  Fd pidfd;  ///< readable once the leader has exited; invalid if pidfd_open is unavailable
  Fd out, err;
  detail::BoundedCapture out_capture, err_capture;
  std::uint64_t peak_group_rss = 0;
  std::vector<char> buffer = std::vector<char>(256 << 10);

  Child(int child_pid, Fd out_read, Fd err_read, std::size_t cap)
      : pid(child_pid), pidfd(static_cast<int>(::syscall(SYS_pidfd_open, child_pid, 0))), out(std::move(out_read)),
        err(std::move(err_read)), out_capture(cap), err_capture(cap) {}
};

/// Reads once from one ready pipe into its capture; closes the pipe at EOF or error.
void read_pipe(Fd& pipe, detail::BoundedCapture& capture, std::vector<char>& buffer) {
  ssize_t n = ::read(pipe.get(), buffer.data(), buffer.size());
  if (n > 0) {
    capture.append(buffer.data(), static_cast<std::size_t>(n));
  } else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
    pipe.reset();
  }
}

/// Polls the open pipes (and the pidfd when given) for at most `timeout_ms`, reading what came.
/// Returns the pidfd's revents.
short poll_child(Child& child, int timeout_ms, bool with_pidfd) {
  pollfd fds[3] = {{child.out.get(), POLLIN, 0},
                   {child.err.get(), POLLIN, 0},
                   {with_pidfd ? child.pidfd.get() : -1, POLLIN, 0}};  // fd -1: ignored
  if (::poll(fds, 3, timeout_ms) <= 0) return 0;
  if (fds[0].revents != 0) read_pipe(child.out, child.out_capture, child.buffer);
  if (fds[1].revents != 0) read_pipe(child.err, child.err_capture, child.buffer);
  return fds[2].revents;
}

/// Whether the leader has exited (is a zombie), without reaping it: the zombie keeps the
/// process group id reserved until the rest of the group has been killed.
bool leader_exited(const Child& child, short pidfd_events) {
  if (child.pidfd.valid()) return pidfd_events != 0;
  siginfo_t info = {};
  return ::waitid(P_PID, static_cast<id_t>(child.pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
         info.si_pid == child.pid;
}

int milliseconds_until(Clock::time_point now, Clock::time_point then) {
  if (then <= now) return 0;
  auto ms = std::chrono::ceil<std::chrono::milliseconds>(then - now).count();
  return static_cast<int>(std::min<decltype(ms)>(ms, INT_MAX));
}

enum class Ending { exited, timed_out, memory_limit, stopped };

/// Reads the child's output until the leader exits, the wall-clock limit or the deadline passes,
/// `stop` (when given) is set or Limits::stop requested, or the group's resident memory goes past its limit. The group's memory is sampled even without a limit, for
/// peak_memory_bytes. Not RLIMIT_AS: see Limits::memory_bytes (CUDA reserves terabytes of
/// address space), and RLIMIT_RSS is not enforced by Linux at all.
Ending watch(Child& child, const Limits& limits, Clock::time_point start, const std::atomic<bool>* stop) {
  const bool wall_limit = limits.wall_seconds > 0 && limits.wall_seconds < 1e7;
  const auto deadline = wall_limit ? start + std::chrono::duration_cast<Clock::duration>(
                                                 std::chrono::duration<double>(limits.wall_seconds))
                                   : Clock::time_point::max();
  const auto interval = limits.memory_bytes > 0 ? 50ms : 100ms;
  auto next_sample = Clock::now() + interval;
  while (true) {
    int timeout = milliseconds_until(Clock::now(), std::min({deadline, limits.deadline, next_sample}));
    if (!child.pidfd.valid()) timeout = std::min(timeout, 10);  // no pidfd: poll waitid
    short pidfd_events = poll_child(child, timeout, true);
    if (leader_exited(child, pidfd_events)) return Ending::exited;
    auto now = Clock::now();
    if (now >= limits.deadline && limits.deadline < deadline) return Ending::stopped;
    if ((stop != nullptr && stop->load()) || limits.stop.stop_requested()) return Ending::stopped;
    if (now >= deadline) return Ending::timed_out;
    if (now >= next_sample) {
      std::uint64_t rss = detail::group_resident_bytes(child.pid);
      child.peak_group_rss = std::max(child.peak_group_rss, rss);
      if (limits.memory_bytes > 0 && rss > limits.memory_bytes) return Ending::memory_limit;
      next_sample = now + interval;
    }
  }
}

/// Reads what is left in the pipes until both are at EOF or `deadline` passes.
void drain(Child& child, Clock::time_point deadline) {
  while (child.out.valid() || child.err.valid()) {
    int timeout = milliseconds_until(Clock::now(), deadline);
    if (timeout == 0) return;
    poll_child(child, timeout, false);
  }
}

/// Reaps the leader (it has exited or was just sent SIGKILL) and records how it ended.
void reap_leader(int pid, SubprocessResult& result) {
  int status = 0;
  struct rusage usage = {};
  while (::wait4(pid, &status, 0, &usage) == -1 && errno == EINTR) {
  }
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  auto seconds = [](const timeval& tv) { return static_cast<double>(tv.tv_sec) + tv.tv_usec / 1e6; };
  result.cpu_seconds = seconds(usage.ru_utime) + seconds(usage.ru_stime);
  result.peak_memory_bytes = static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;  // KiB
}

/// Kills and reaps the child if run_subprocess is left before it was reaped (an exception,
/// e.g. out of memory), so no process outlives the call.
class LeaderGuard {
public:
  explicit LeaderGuard(int pid) : pid_(pid) {}
  ~LeaderGuard() {
    if (pid_ <= 0) return;
    detail::kill_group(pid_);
    ::waitpid(pid_, nullptr, 0);
  }
  LeaderGuard(const LeaderGuard&) = delete;
  LeaderGuard& operator=(const LeaderGuard&) = delete;
  void release() { pid_ = 0; }

private:
  int pid_;
};

void run(const Command& command, SubprocessResult& result, const std::atomic<bool>* stop) {
  if (command.argv.empty()) {
    result.start_error = "empty command";
    return;
  }
  if (!command.cwd.empty()) {
    std::error_code ec;
    if (!std::filesystem::is_directory(command.cwd, ec)) {
      result.start_error = "working directory does not exist: " + command.cwd.string();
      return;
    }
  }
  if (Clock::now() >= command.limits.deadline || (stop != nullptr && stop->load()) ||
      command.limits.stop.stop_requested()) {
    result.stopped = true;
    result.start_error = "past the deadline";
    return;
  }
  const auto env = detail::child_environment(command);
  const auto executable = find_program(command.argv[0], env, result.start_error);
  if (!executable) return;
  Pipes pipes;
  if (!open_pipes(pipes, result.start_error)) return;
  // Descendants orphaned inside the group are re-parented to this process rather than to init,
  // so that reap_group can reap them: in a container whose init does not reap, they would
  // otherwise stay zombies, and still count as members of the group. Idempotent.
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);

  const auto start = Clock::now();
  result.start_time = start;
  const int pid = launch(command, *executable, env, pipes, result.start_error);
  if (pid <= 0) return;
  LeaderGuard guard(pid);
  result.started = true;
  result.process_group = pid;
  pipes.out_write.reset();  // the child holds the only write ends now: EOF when it is done
  pipes.err_write.reset();
  Child child(pid, std::move(pipes.out_read), std::move(pipes.err_read), command.limits.output_cap_bytes);

  const Ending ending = watch(child, command.limits, start, stop);
  // The leader is a zombie (or about to be killed): while it is unreaped its pid cannot be
  // reused, so killing the group first cannot hit an unrelated process.
  detail::kill_group(pid);
  ::kill(pid, SIGKILL);  // the leader too, should it somehow not lead its group
  reap_leader(pid, result);
  guard.release();
  result.wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  result.timed_out = ending == Ending::timed_out;
  result.memory_limit_hit = ending == Ending::memory_limit;
  result.stopped = ending == Ending::stopped;
  result.peak_memory_bytes = std::max(result.peak_memory_bytes, child.peak_group_rss);

  const auto after = Clock::now() + kDrainTime;
  drain(child, after);
  detail::reap_group(pid, after);
  result.out = child.out_capture.finish();
  result.err = child.err_capture.finish();
}

}  // namespace

std::vector<std::string> detail::child_environment(const Command& command) {
  const auto& overrides = command.env_overrides;
  auto overridden = [&](std::string_view entry) {
    std::string_view name = entry.substr(0, entry.find('='));
    return std::any_of(overrides.begin(), overrides.end(), [&](const auto& o) { return o.first == name; });
  };
  std::vector<std::string> env;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry)
    if (!overridden(*entry)) env.emplace_back(*entry);
  for (std::size_t i = 0; i < overrides.size(); ++i) {
    bool later = std::any_of(overrides.begin() + static_cast<std::ptrdiff_t>(i) + 1, overrides.end(),
                             [&](const auto& o) { return o.first == overrides[i].first; });
    if (!later) env.push_back(overrides[i].first + "=" + overrides[i].second);
  }
  return env;
}

SubprocessResult run_subprocess(const Command& command) {
  SubprocessResult result;
  try {
    run(command, result, nullptr);
  } catch (const std::exception& e) {  // out of memory and the like: still a result, no throw
    if (!result.started) result.start_error = std::string("cannot start: ") + e.what();
  }
  return result;
}

SubprocessResult run_subprocess(const Command& command, const std::atomic<bool>& stop) {
  SubprocessResult result;
  try {
    run(command, result, &stop);
  } catch (const std::exception& e) {  // out of memory and the like: still a result, no throw
    if (!result.started) result.start_error = std::string("cannot start: ") + e.what();
  }
  return result;
}

}  // namespace cudiff::runners
