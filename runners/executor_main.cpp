// cudiff-executor: a long-lived process that keeps one CUDA context on one GPU and runs built
// programs (shared objects that define main) in it, one at a time, observing what a process
// running them would: their stdout and stderr, main's return value, and the CUDA state after.
//
// Why: a new process per run pays the CUDA context and module set-up (about 0.3 s) for a run
// of a few milliseconds. Here the context is made once; a program costs its dlopen, its module
// registration and its kernels.
//
// Protocol (runners/executor.cpp is the other side): requests on stdin, replies on stdout, one
// tab-separated line each. The program's own stdin is /dev/null and its stdout and stderr go to
// the files a request names, so neither can touch the control channel.
//   start-up:  "ready\t<context ms>\t<device bytes>"  or  "failed\t<why>" (then exit 1)
//   request:   "run\t<shared object>\t<cwd>\t<stdout file>\t<stderr file>[\t<arg>]..."
//   reply:     "done\t<main's value>\t<CUDA error after, 0: none>\t<refused: 0/1>\t<peak device bytes>"
//              "unloadable\t<dlerror>"
//              "refusing\t<bytes>" first, as soon as an allocation passes the program's share
//   request:   "launch\t<cubin or PTX>\t<launch description file>\t<stdout file>\t<stderr file>"
//              (the description in runners::executor_text's form; runners/launch.h)
//   reply:     "launched" (the printed buffers and checksum lines are in the stdout file)
//              "launch-failed\t<step>\t<CUresult, 0: none>\t<error name or why>\t<exits: 0/1>" (the step: driver,
//              description, module, module load, kernel lookup, parameters, stack limit, symbol
//              lookup, allocation, launch, kernel, copy...; its line is in the stderr file). After a failed launch or kernel
//              (a fault) the context may hold a sticky error: the reply is sent and the process
//              exits, as after a program's CUDA error. A kernel that never ends is the parent's
//              time limit.
// A program that calls exit() or dies of a signal ends this process, which is how the parent
// sees it. After a CUDA error the context may be poisoned (a sticky error): the reply is sent
// and the process exits. End of input: exit 0.
//
// Built without CUDA headers: the runtime is loaded by path (--cudart) and called through the
// few entry points below, by their stable C ABI. cudaMalloc and cudaFree are defined here and
// exported, so the programs' calls bind to them first: that is how a program's device memory
// is counted and one past its share is refused (the parent then runs it as a process).
#include "runners/executor_launch.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <thread>
#include <vector>

namespace {

using CudaError = int;
constexpr CudaError kErrorMemoryAllocation = 2;
constexpr int kLimitStackSize = 0;
constexpr int kLimitPrintfFifoSize = 1;
constexpr int kLimitMallocHeapSize = 2;

struct Runtime {
  CudaError (*malloc)(void**, std::size_t) = nullptr;
  CudaError (*free)(void*) = nullptr;
  CudaError (*synchronize)() = nullptr;
  CudaError (*get_last_error)() = nullptr;
  CudaError (*set_limit)(int, std::size_t) = nullptr;
  CudaError (*get_limit)(std::size_t*, int) = nullptr;
  CudaError (*mem_get_info)(std::size_t*, std::size_t*) = nullptr;
  bool loaded() const { return malloc != nullptr; }
};

/// What the executor keeps between requests. One instance, owned by main(); the exported
/// cudaMalloc/cudaFree reach it through `state` because the programs call them by name.
struct State {
  Runtime cuda;
  std::size_t default_limits[3] = {};
  std::size_t share_bytes = 0;  ///< device memory one program may hold; 0: no limit
  std::size_t live_bytes = 0, peak_bytes = 0;
  bool refused = false;
  int control_out = -1;  ///< where a refusal is said at once: the program may exit() on it
  std::map<void*, std::size_t> allocations;  ///< the running program's, freed if it leaks them
};
State* state = nullptr;

template <typename F>
bool bind(void* library, const char* name, F& function) {
  function = reinterpret_cast<F>(::dlsym(library, name));
  return function != nullptr;
}

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> fields;
  std::size_t start = 0;
  for (std::size_t tab; (tab = line.find('\t', start)) != std::string::npos; start = tab + 1)
    fields.push_back(line.substr(start, tab - start));
  fields.push_back(line.substr(start));
  return fields;
}

/// Writes one reply line on the control channel.
void reply(int control, const std::string& line) {
  const std::string text = line + "\n";
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(control, text.data() + done, text.size() - done);
    if (n <= 0) std::_Exit(3);  // the parent is gone
    done += static_cast<std::size_t>(n);
  }
}

/// Reads one request line; false at end of input.
bool read_line(int control, std::string& line) {
  line.clear();
  char c;
  for (;;) {
    const ssize_t n = ::read(control, &c, 1);
    if (n == 0) return !line.empty();
    if (n < 0) return false;
    if (c == '\n') return true;
    line.push_back(c);
  }
}

/// Points fd `target` at `path` (truncated), or at /dev/null for an empty path.
void redirect(int target, const std::string& path, int flags) {
  const int fd = path.empty() ? ::open("/dev/null", O_RDWR) : ::open(path.c_str(), flags, 0644);
  if (fd < 0) return;
  ::dup2(fd, target);
  ::close(fd);
}

/// Loads the runtime and makes the context (cudaFree(0) is the usual way to force it).
std::string start_cuda(State& s, const char* cudart, double device_share) {
  void* library = ::dlopen(cudart, RTLD_NOW | RTLD_GLOBAL);
  if (library == nullptr) return std::string("cannot load the CUDA runtime: ") + ::dlerror();
  Runtime& r = s.cuda;
  if (!bind(library, "cudaMalloc", r.malloc) || !bind(library, "cudaFree", r.free) ||
      !bind(library, "cudaDeviceSynchronize", r.synchronize) || !bind(library, "cudaGetLastError", r.get_last_error) ||
      !bind(library, "cudaDeviceSetLimit", r.set_limit) || !bind(library, "cudaDeviceGetLimit", r.get_limit) ||
      !bind(library, "cudaMemGetInfo", r.mem_get_info))
    return "the CUDA runtime lacks an expected entry point";
  if (const CudaError status = r.free(nullptr); status != 0)
    return "no CUDA context (cudaError " + std::to_string(status) + ")";
  for (int limit : {kLimitStackSize, kLimitPrintfFifoSize, kLimitMallocHeapSize})
    r.get_limit(&s.default_limits[limit], limit);
  std::size_t free_bytes = 0, total_bytes = 0;
  r.mem_get_info(&free_bytes, &total_bytes);
  s.share_bytes = static_cast<std::size_t>(static_cast<double>(total_bytes) * device_share);
  return {};
}

/// Before each program: the device limits a fresh process would have, and no allocations.
void reset_for_program(State& s) {
  s.live_bytes = s.peak_bytes = 0;
  s.refused = false;
  s.allocations.clear();
  if (!s.cuda.loaded()) return;
  for (int limit : {kLimitStackSize, kLimitPrintfFifoSize, kLimitMallocHeapSize})
    s.cuda.set_limit(limit, s.default_limits[limit]);  // the heap's may refuse once used: harmless
  s.cuda.get_last_error();
}

/// After each program: what it leaked is freed, so the next one finds the memory it would
/// find in a process of its own.
void release_leaks(State& s) {
  if (!s.cuda.loaded()) return;
  for (const auto& [pointer, bytes] : s.allocations) s.cuda.free(pointer);
  s.allocations.clear();
}

/// Ends this process when cudiff is gone, even while a hung kernel blocks the main thread. Not
/// PR_SET_PDEATHSIG: that follows the thread that started us (a campaign worker), not cudiff.
void watch_parent() {
  const pid_t parent = ::getppid();
  std::thread([parent] {
    for (;;) {
      std::this_thread::sleep_for(std::chrono::seconds(1));
      if (::getppid() != parent) std::_Exit(5);
    }
  }).detach();
}

}  // namespace

// The programs' cudaMalloc and cudaFree (see the top of the file).
extern "C" __attribute__((visibility("default"))) CudaError cudaMalloc(void** pointer, std::size_t bytes) {
  if (state == nullptr || !state->cuda.loaded()) return kErrorMemoryAllocation;
  if (state->share_bytes > 0 && state->live_bytes + bytes > state->share_bytes) {
    if (!state->refused) reply(state->control_out, "refusing\t" + std::to_string(state->live_bytes + bytes));
    state->refused = true;
    return kErrorMemoryAllocation;
  }
  const CudaError status = state->cuda.malloc(pointer, bytes);
  if (status == 0) {
    state->allocations[*pointer] = bytes;
    state->live_bytes += bytes;
    if (state->live_bytes > state->peak_bytes) state->peak_bytes = state->live_bytes;
  }
  return status;
}

extern "C" __attribute__((visibility("default"))) CudaError cudaFree(void* pointer) {
  if (state == nullptr || !state->cuda.loaded()) return 0;
  if (const auto found = state->allocations.find(pointer); found != state->allocations.end()) {
    state->live_bytes -= found->second;
    state->allocations.erase(found);
  }
  return state->cuda.free(pointer);
}

int main(int argc, char** argv) {
  const char* cudart = nullptr;
  double device_share = 0.25;
  unsigned long long output_cap = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--cudart") == 0) cudart = argv[i + 1];
    else if (std::strcmp(argv[i], "--device-share") == 0) device_share = std::atof(argv[i + 1]);
    else if (std::strcmp(argv[i], "--output-cap") == 0) output_cap = std::strtoull(argv[i + 1], nullptr, 10);
  }
  // As every other child of cudiff: no core files (a program that faults would write one of the
  // executor's whole address space, CUDA's reservations included).
  const rlimit no_core{0, 0};
  ::setrlimit(RLIMIT_CORE, &no_core);
  // The programs' output files are capped while they run, not only when read back: a flood ends
  // the executor with SIGXFSZ and the parent runs the program as a process.
  if (output_cap > 0) {
    const rlimit files{output_cap, output_cap};
    ::setrlimit(RLIMIT_FSIZE, &files);
  }
  // The control channel is moved off 0 and 1, which the programs get (stdin: /dev/null).
  const int control_in = ::fcntl(0, F_DUPFD_CLOEXEC, 3);
  const int control_out = ::fcntl(1, F_DUPFD_CLOEXEC, 3);
  redirect(0, "", 0);
  redirect(1, "", 0);
  watch_parent();

  State s;
  s.control_out = control_out;
  state = &s;
  const auto start = std::chrono::steady_clock::now();
  if (cudart != nullptr) {
    if (const std::string problem = start_cuda(s, cudart, device_share); !problem.empty()) {
      reply(control_out, "failed\t" + problem);
      return 1;
    }
  }
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
  reply(control_out, "ready\t" + std::to_string(ms.count()) + "\t" + std::to_string(s.share_bytes));

  const int saved_err = ::fcntl(2, F_DUPFD_CLOEXEC, 3);
  for (std::string line; read_line(control_in, line);) {
    const std::vector<std::string> fields = split_tabs(line);
    if (fields.size() == 5 && fields[0] == "launch") {
      std::fflush(stdout);
      std::fflush(stderr);
      redirect(1, fields[3], O_WRONLY | O_CREAT | O_TRUNC);
      redirect(2, fields[4], O_WRONLY | O_CREAT | O_TRUNC);
      const cudiff::executor::LaunchReply launched = cudiff::executor::launch_module(fields[1], fields[2]);
      std::fflush(stdout);
      std::fflush(stderr);
      redirect(1, "", 0);
      ::dup2(saved_err, 2);
      reply(control_out, launched.line);
      if (launched.poisoned) return 2;  // a fresh executor takes over
      continue;
    }
    if (fields.size() < 5 || fields[0] != "run") {
      reply(control_out, "unloadable\tbad request");
      continue;
    }
    if (::chdir(fields[2].c_str()) != 0) ::chdir("/");
    reset_for_program(s);
    std::fflush(stdout);
    std::fflush(stderr);
    redirect(1, fields[3], O_WRONLY | O_CREAT | O_TRUNC);
    redirect(2, fields[4], O_WRONLY | O_CREAT | O_TRUNC);
    void* program = ::dlopen(fields[1].c_str(), RTLD_NOW | RTLD_LOCAL);
    using Main = int (*)(int, char**);
    Main program_main = program == nullptr ? nullptr : reinterpret_cast<Main>(::dlsym(program, "main"));
    if (program_main == nullptr) {
      const char* why = ::dlerror();
      if (program != nullptr) ::dlclose(program);
      redirect(1, "", 0);
      ::dup2(saved_err, 2);
      reply(control_out, std::string("unloadable\t") + (why ? why : "no main"));
      continue;
    }
    std::vector<std::string> args(fields.begin() + 5, fields.end());
    args.insert(args.begin(), fields[1]);
    std::vector<char*> program_argv;
    for (std::string& arg : args) program_argv.push_back(arg.data());
    program_argv.push_back(nullptr);
    const int value = program_main(static_cast<int>(args.size()), program_argv.data());
    // What a process's exit flushes: its stdio buffers. Not what the device printed after the
    // program's last synchronization: a process's exit races its kernels there, and its output
    // shows those lines or not (seen both ways on one GPU). The sync that waits for the
    // program's last kernels writes them to /dev/null: one of the outcomes a process has.
    std::fflush(stdout);
    std::fflush(stderr);
    redirect(1, "", 0);
    redirect(2, "", 0);
    CudaError after = 0;
    if (s.cuda.loaded()) {
      after = s.cuda.synchronize();
      if (after == 0) after = s.cuda.get_last_error();
    }
    std::fflush(stdout);
    std::fflush(stderr);
    release_leaks(s);
    ::dlclose(program);
    redirect(1, "", 0);
    ::dup2(saved_err, 2);
    reply(control_out, "done\t" + std::to_string(value) + "\t" + std::to_string(after) + "\t" +
                           (s.refused ? "1" : "0") + "\t" + std::to_string(s.peak_bytes));
    if (after != 0) return 2;  // the context may be poisoned: a fresh executor takes over
  }
  return 0;
}
