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
//   start-up:  "ready\t<context ms>\t<device bytes one program may hold>"  or  "failed\t<why>" (then exit 1)
//   request:   "run\t<shared object>\t<cwd>\t<stdout file>\t<stderr file>[\t<arg>]..."
//   reply:     "done\t<main's value>\t<CUDA error after, 0: none>\t<refused: 0/1>\t<peak device bytes>"
//              "unloadable\t<dlerror>"
//              "refusing\t<bytes>" first, as soon as an allocation passes the program's share
//              "unsupported\t<entry point>" first, as soon as the program calls an allocation
//              entry point the loaded runtime lacks (it gets cudaErrorNotSupported)
//   request:   "launch\t<cubin or PTX>\t<launch description file>\t<stdout file>\t<stderr file>"
//              (the description in runners::executor_text's form, one or several kernels run in
//              order on one load of the module; runners/launch.h)
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
// few entry points below, by their stable C ABI. The allocation entry points (cudaMalloc,
// cudaMallocAsync, cudaMallocFromPoolAsync, cudaMallocPitch, cudaMallocManaged, cudaMallocHost,
// cudaHostAlloc and their frees) are defined here and exported, so the programs' calls bind to
// them first: that is how a program's device memory is counted, one allocation past its share
// refused (the parent then runs it as a process), and what it leaks freed. They may be called
// from any of the program's threads: the accounting is under one mutex.
//
// The share (--executors, --context-bytes, --device-share: runners/device_share.h) is the GPU's
// memory left after its executors' contexts, times the share the executors' programs may hold
// together, divided among the GPU's executors. Host pinned memory (cudaMallocHost,
// cudaHostAlloc) is not counted against it: it is host memory, resident in the executor's
// process group, which the run's host-memory limit already bounds; it is recorded only so that
// what a program leaks is freed after it, as a process's exit frees it (an executor runs 2,000
// programs).
#include "runners/device_share.h"
#include "runners/executor_launch.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

using CudaError = int;
using Stream = void*;  // cudaStream_t
using MemPool = void*;  // cudaMemPool_t
constexpr CudaError kErrorMemoryAllocation = 2;
constexpr CudaError kErrorNotSupported = 801;
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
  // Bound when the runtime has them; a runtime without one still starts, and a program that
  // calls it is told it is not supported and runs as a process (see unsupported()).
  CudaError (*malloc_async)(void**, std::size_t, Stream) = nullptr;
  CudaError (*malloc_from_pool_async)(void**, std::size_t, MemPool, Stream) = nullptr;
  CudaError (*free_async)(void*, Stream) = nullptr;
  CudaError (*malloc_pitch)(void**, std::size_t*, std::size_t, std::size_t) = nullptr;
  CudaError (*malloc_managed)(void**, std::size_t, unsigned) = nullptr;
  CudaError (*malloc_host)(void**, std::size_t) = nullptr;
  CudaError (*host_alloc)(void**, std::size_t, unsigned) = nullptr;
  CudaError (*free_host)(void*) = nullptr;
  bool loaded() const { return malloc != nullptr; }
};

/// Where an allocation lives: device memory (counted against the share, freed with cudaFree)
/// or host pinned memory (not counted, freed with cudaFreeHost).
enum class Memory { device, host };

struct Allocation {
  std::size_t bytes = 0;
  Memory memory = Memory::device;
};

/// What the executor keeps between requests. One instance, owned by main(); the exported
/// allocation entry points reach it through `state` because the programs call them by name,
/// from any of their threads: everything below `mutex` is guarded by it.
struct State {
  Runtime cuda;
  std::size_t default_limits[3] = {};
  std::size_t share_bytes = 0;  ///< device memory one program may hold (with a runtime; without, none)
  int control_out = -1;  ///< where a refusal is said at once: the program may exit() on it
  std::mutex mutex;
  std::size_t live_bytes = 0, peak_bytes = 0;
  bool refused = false;
  bool unsupported = false;
  std::map<void*, Allocation> allocations;  ///< the running program's, freed if it leaks them
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
/// What the share is made of (main's arguments): see runners/device_share.h.
struct ShareSetup {
  std::uint64_t executors = 1;  ///< the executors of this GPU, this one among them
  std::uint64_t context_bytes = 0;  ///< what each one's context is allowed
  double share = 0.5;  ///< what their programs may hold together, after the contexts
};

std::string start_cuda(State& s, const char* cudart, const ShareSetup& share) {
  void* library = ::dlopen(cudart, RTLD_NOW | RTLD_GLOBAL);
  if (library == nullptr) return std::string("cannot load the CUDA runtime: ") + ::dlerror();
  Runtime& r = s.cuda;
  if (!bind(library, "cudaMalloc", r.malloc) || !bind(library, "cudaFree", r.free) ||
      !bind(library, "cudaDeviceSynchronize", r.synchronize) || !bind(library, "cudaGetLastError", r.get_last_error) ||
      !bind(library, "cudaDeviceSetLimit", r.set_limit) || !bind(library, "cudaDeviceGetLimit", r.get_limit) ||
      !bind(library, "cudaMemGetInfo", r.mem_get_info))
    return "the CUDA runtime lacks an expected entry point";
  // Optional: a missing one stays null (see Runtime).
  bind(library, "cudaMallocAsync", r.malloc_async);
  bind(library, "cudaMallocFromPoolAsync", r.malloc_from_pool_async);
  bind(library, "cudaFreeAsync", r.free_async);
  bind(library, "cudaMallocPitch", r.malloc_pitch);
  bind(library, "cudaMallocManaged", r.malloc_managed);
  // The host entry points together or not at all: one allocated by a real cudaHostAlloc and freed
  // through this cudaFreeHost is fine, but not the other way round.
  if (!bind(library, "cudaMallocHost", r.malloc_host) || !bind(library, "cudaHostAlloc", r.host_alloc) ||
      !bind(library, "cudaFreeHost", r.free_host))
    r.malloc_host = nullptr, r.host_alloc = nullptr, r.free_host = nullptr;
  if (const CudaError status = r.free(nullptr); status != 0)
    return "no CUDA context (cudaError " + std::to_string(status) + ")";
  for (int limit : {kLimitStackSize, kLimitPrintfFifoSize, kLimitMallocHeapSize})
    r.get_limit(&s.default_limits[limit], limit);
  std::size_t free_bytes = 0, total_bytes = 0;
  r.mem_get_info(&free_bytes, &total_bytes);
  s.share_bytes = static_cast<std::size_t>(
      cudiff::runners::program_device_share(total_bytes, share.context_bytes, share.executors, share.share));
  return {};
}

/// Before each program: the device limits a fresh process would have, and no allocations.
void reset_for_program(State& s) {
  {
    std::lock_guard lock(s.mutex);
    s.live_bytes = s.peak_bytes = 0;
    s.refused = s.unsupported = false;
    s.allocations.clear();
  }
  if (!s.cuda.loaded()) return;
  for (int limit : {kLimitStackSize, kLimitPrintfFifoSize, kLimitMallocHeapSize})
    s.cuda.set_limit(limit, s.default_limits[limit]);  // the heap's may refuse once used: harmless
  s.cuda.get_last_error();
}

/// After each program: what it leaked is freed, so the next one finds the memory it would
/// find in a process of its own.
void release_leaks(State& s) {
  std::map<void*, Allocation> leaked;
  {
    std::lock_guard lock(s.mutex);
    leaked.swap(s.allocations);
    s.live_bytes = 0;
  }
  if (!s.cuda.loaded()) return;
  // Stream-ordered allocations too: cudaFree takes them once the device is synchronized.
  for (const auto& [pointer, allocation] : leaked)
    allocation.memory == Memory::host ? s.cuda.free_host(pointer) : s.cuda.free(pointer);
}

/// Counts `bytes` more against the running program's share; false past it, said at once on the
/// control channel (the first time) since the program may exit() on the failed allocation.
bool reserve(State& s, std::size_t bytes) {
  std::lock_guard lock(s.mutex);
  if (bytes > s.share_bytes || s.live_bytes > s.share_bytes - bytes) {
    if (!s.refused) {
      const std::size_t wanted = s.live_bytes + std::min(bytes, SIZE_MAX - s.live_bytes);
      reply(s.control_out, "refusing\t" + std::to_string(wanted));
    }
    s.refused = true;
    return false;
  }
  s.live_bytes += bytes;
  s.peak_bytes = std::max(s.peak_bytes, s.live_bytes);
  return true;
}

void unreserve(State& s, std::size_t bytes) {
  std::lock_guard lock(s.mutex);
  s.live_bytes -= std::min(bytes, s.live_bytes);
}

void record(State& s, void* pointer, Allocation allocation) {
  std::lock_guard lock(s.mutex);
  s.allocations[pointer] = allocation;
}

/// Forgets `pointer` before it is freed (after, the runtime could hand its address to another
/// thread's allocation first), and the device bytes it held.
void forget(State& s, void* pointer) {
  std::lock_guard lock(s.mutex);
  if (const auto found = s.allocations.find(pointer); found != s.allocations.end()) {
    if (found->second.memory == Memory::device) s.live_bytes -= std::min(found->second.bytes, s.live_bytes);
    s.allocations.erase(found);
  }
}

/// A call of an entry point the loaded runtime lacks: the program gets cudaErrorNotSupported,
/// and the parent, told at once, runs it as a process (where it would not even have loaded).
CudaError unsupported(State& s, const char* entry_point) {
  std::lock_guard lock(s.mutex);
  if (!s.unsupported) reply(s.control_out, std::string("unsupported\t") + entry_point);
  s.unsupported = true;
  return kErrorNotSupported;
}

/// Whether this thread is inside a runtime call one of the entry points below made: should the
/// runtime call its own exported entry points (cudaMallocPitch through cudaMalloc, say), those
/// calls reach this executor's and pass straight through, so nothing is counted twice.
thread_local bool nested = false;

/// Calls `call` (the runtime's entry point) with `nested` set.
template <typename Call>
CudaError in_runtime(Call call) {
  nested = true;
  const CudaError status = call();
  nested = false;
  return status;
}

/// A device allocation of `bytes` made by `allocate` (the runtime's entry point), counted.
template <typename Allocate>
CudaError allocate_device(void** pointer, std::size_t bytes, Allocate allocate) {
  if (!reserve(*state, bytes)) return kErrorMemoryAllocation;
  const CudaError status = in_runtime(allocate);
  if (status == 0 && pointer != nullptr) record(*state, *pointer, {bytes, Memory::device});
  else unreserve(*state, bytes);
  return status;
}

/// Whether the exported entry points can do anything: the runtime is loaded.
bool ready() { return state != nullptr && state->cuda.loaded(); }

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

// The programs' allocation entry points (see the top of the file). Without a runtime (the
// executor's own tests) there is no device memory to give.
#define CUDIFF_EXPORTED extern "C" __attribute__((visibility("default")))

CUDIFF_EXPORTED CudaError cudaMalloc(void** pointer, std::size_t bytes) {
  if (!ready()) return kErrorMemoryAllocation;
  if (nested) return state->cuda.malloc(pointer, bytes);
  return allocate_device(pointer, bytes, [&] { return state->cuda.malloc(pointer, bytes); });
}

CUDIFF_EXPORTED CudaError cudaMallocAsync(void** pointer, std::size_t bytes, Stream stream) {
  if (!ready()) return kErrorMemoryAllocation;
  if (state->cuda.malloc_async == nullptr) return unsupported(*state, "cudaMallocAsync");
  if (nested) return state->cuda.malloc_async(pointer, bytes, stream);
  return allocate_device(pointer, bytes, [&] { return state->cuda.malloc_async(pointer, bytes, stream); });
}

CUDIFF_EXPORTED CudaError cudaMallocFromPoolAsync(void** pointer, std::size_t bytes, MemPool pool, Stream stream) {
  if (!ready()) return kErrorMemoryAllocation;
  if (state->cuda.malloc_from_pool_async == nullptr) return unsupported(*state, "cudaMallocFromPoolAsync");
  if (nested) return state->cuda.malloc_from_pool_async(pointer, bytes, pool, stream);
  return allocate_device(pointer, bytes,
                         [&] { return state->cuda.malloc_from_pool_async(pointer, bytes, pool, stream); });
}

CUDIFF_EXPORTED CudaError cudaMallocManaged(void** pointer, std::size_t bytes, unsigned flags) {
  if (!ready()) return kErrorMemoryAllocation;
  if (state->cuda.malloc_managed == nullptr) return unsupported(*state, "cudaMallocManaged");
  if (nested) return state->cuda.malloc_managed(pointer, bytes, flags);
  // Counted as device memory: it is the device's once a kernel touches it.
  return allocate_device(pointer, bytes, [&] { return state->cuda.malloc_managed(pointer, bytes, flags); });
}

CUDIFF_EXPORTED CudaError cudaMallocPitch(void** pointer, std::size_t* pitch, std::size_t width, std::size_t height) {
  if (!ready()) return kErrorMemoryAllocation;
  if (state->cuda.malloc_pitch == nullptr) return unsupported(*state, "cudaMallocPitch");
  if (nested) return state->cuda.malloc_pitch(pointer, pitch, width, height);
  // Counted at width * height first (the pitch is known after), then at pitch * height.
  std::size_t least = 0;
  if (__builtin_mul_overflow(width, height, &least)) least = SIZE_MAX;
  const CudaError status = allocate_device(pointer, least,
                                           [&] { return state->cuda.malloc_pitch(pointer, pitch, width, height); });
  if (status != 0 || pointer == nullptr || pitch == nullptr || *pitch <= width) return status;
  std::size_t bytes = 0;
  if (__builtin_mul_overflow(*pitch, height, &bytes)) bytes = SIZE_MAX;
  if (!reserve(*state, bytes - least)) {
    forget(*state, *pointer);
    in_runtime([&] { return state->cuda.free(*pointer); });
    *pointer = nullptr;
    return kErrorMemoryAllocation;
  }
  record(*state, *pointer, {bytes, Memory::device});
  return status;
}

CUDIFF_EXPORTED CudaError cudaFree(void* pointer) {
  if (!ready()) return 0;
  if (nested) return state->cuda.free(pointer);
  forget(*state, pointer);
  return in_runtime([&] { return state->cuda.free(pointer); });
}

CUDIFF_EXPORTED CudaError cudaFreeAsync(void* pointer, Stream stream) {
  if (!ready()) return 0;
  if (state->cuda.free_async == nullptr) return unsupported(*state, "cudaFreeAsync");
  if (nested) return state->cuda.free_async(pointer, stream);
  forget(*state, pointer);
  return in_runtime([&] { return state->cuda.free_async(pointer, stream); });
}

CUDIFF_EXPORTED CudaError cudaMallocHost(void** pointer, std::size_t bytes) {
  if (!ready()) return kErrorMemoryAllocation;
  if (state->cuda.malloc_host == nullptr) return unsupported(*state, "cudaMallocHost");
  if (nested) return state->cuda.malloc_host(pointer, bytes);
  const CudaError status = in_runtime([&] { return state->cuda.malloc_host(pointer, bytes); });
  if (status == 0 && pointer != nullptr) record(*state, *pointer, {bytes, Memory::host});
  return status;
}

CUDIFF_EXPORTED CudaError cudaHostAlloc(void** pointer, std::size_t bytes, unsigned flags) {
  if (!ready()) return kErrorMemoryAllocation;
  if (state->cuda.host_alloc == nullptr) return unsupported(*state, "cudaHostAlloc");
  if (nested) return state->cuda.host_alloc(pointer, bytes, flags);
  const CudaError status = in_runtime([&] { return state->cuda.host_alloc(pointer, bytes, flags); });
  if (status == 0 && pointer != nullptr) record(*state, *pointer, {bytes, Memory::host});
  return status;
}

CUDIFF_EXPORTED CudaError cudaFreeHost(void* pointer) {
  if (!ready()) return 0;
  if (state->cuda.free_host == nullptr) return unsupported(*state, "cudaFreeHost");
  if (nested) return state->cuda.free_host(pointer);
  forget(*state, pointer);
  return in_runtime([&] { return state->cuda.free_host(pointer); });
}

#undef CUDIFF_EXPORTED

int main(int argc, char** argv) {
  const char* cudart = nullptr;
  ShareSetup share;
  unsigned long long output_cap = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--cudart") == 0) cudart = argv[i + 1];
    else if (std::strcmp(argv[i], "--executors") == 0) share.executors = std::strtoull(argv[i + 1], nullptr, 10);
    else if (std::strcmp(argv[i], "--context-bytes") == 0)
      share.context_bytes = std::strtoull(argv[i + 1], nullptr, 10);
    else if (std::strcmp(argv[i], "--device-share") == 0) share.share = std::atof(argv[i + 1]);
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
    if (const std::string problem = start_cuda(s, cudart, share); !problem.empty()) {
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
    bool refused = false;
    std::size_t peak = 0;
    {
      std::lock_guard lock(s.mutex);
      refused = s.refused;
      peak = s.peak_bytes;
    }
    reply(control_out, "done\t" + std::to_string(value) + "\t" + std::to_string(after) + "\t" + (refused ? "1" : "0") +
                           "\t" + std::to_string(peak));
    if (after != 0) return 2;  // the context may be poisoned: a fresh executor takes over
  }
  return 0;
}
