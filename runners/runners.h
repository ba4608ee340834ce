// runners: everything that starts a process — the Command value type, Subprocess (Boost.Process
// v2), the two compilers (Toolchain, Config, compile), execution of built binaries, GPU discovery.
//
// Contract: runners observe, they never judge. A compiler that fails, hangs, crashes or floods
// its output yields a normal result describing what happened; only cudiff's own inability to
// go on (a missing compiler, a bad flag) is an Error. No shell anywhere: argv arrays only.
#pragma once

#include "common/common.h"
#include "pipeline/limits.h"  // constants only: the executors' limits (docs/architecture.md, "Layout")
#include "runners/launch.h"  // a kernel of a module launched with no host program

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <utility>
#include <vector>

namespace cudiff::runners {

// ---- Command and Subprocess -------------------------------------------------------------

/// Resource limits for one child and everything it spawns. Zero means "no limit".
struct Limits {
  double wall_seconds = 120;
  /// Per process (RLIMIT_CPU): a process past it gets SIGXCPU.
  double cpu_seconds = 0;
  /// Resident memory of the whole process group, sampled; the group is killed past it.
  /// Deliberately not RLIMIT_AS: CUDA programs reserve terabytes of address space to create
  /// a context and would fail under any address-space limit that bounds real use.
  std::uint64_t memory_bytes = 0;
  /// Per stream: at most this many bytes of stdout and of stderr are kept (head and tail);
  /// the rest is read and dropped, so a flood of output cannot exhaust memory.
  std::size_t output_cap_bytes = 4u << 20;
  /// An absolute end for the caller's whole work (a campaign's --time): a child still running
  /// then is killed and marked `stopped`, never `timed_out` (it did not hang: the campaign's
  /// time ran out), and one that would start after it is not started. max(): none.
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
  /// A request to stop from whoever waits on the result (a reduction's test whose answer will
  /// not be read): once requested, a child still running is killed and marked `stopped`, as at
  /// the deadline, and one that would start is not started. Default: never requested.
  std::stop_token stop;
  bool operator==(const Limits&) const = default;
};

/// A process to start: a plain value, printable, comparable, never run through a shell.
struct Command {
  std::vector<std::string> argv;  ///< argv[0]: an absolute path or a name looked up on PATH
  std::vector<std::pair<std::string, std::string>> env_overrides;  ///< on top of cudiff's env
  std::filesystem::path cwd;      ///< empty: cudiff's working directory
  Limits limits;

  /// The command as a person would type it (POSIX-quoted), for reports and --keep logs.
  std::string display() const;
  bool operator==(const Command&) const = default;
};

/// What was kept of one output stream.
struct CapturedStream {
  std::string text;             ///< everything, or head + marker line + tail when truncated
  std::uint64_t total_bytes = 0;  ///< bytes the child really wrote
  bool truncated = false;
};

/// Everything observed about one finished (or killed) child.
struct SubprocessResult {
  bool started = false;
  std::string start_error;      ///< why it did not start (e.g. "No such file or directory")
  int exit_code = -1;           ///< valid when signal == 0 and started
  int signal = 0;               ///< the signal that ended it, 0 if it exited
  bool timed_out = false;       ///< killed at the wall-clock limit
  bool memory_limit_hit = false;  ///< killed at the memory limit
  bool stopped = false;           ///< killed (or never started) at Limits::deadline
  double wall_seconds = 0;
  /// When it started (steady clock): with wall_seconds, the span it ran, so a campaign can tell
  /// how long a GPU had at least one binary running rather than summing overlapping runs.
  std::chrono::steady_clock::time_point start_time{};
  double cpu_seconds = 0;       ///< user + system, of the child and its reaped descendants
  std::uint64_t peak_memory_bytes = 0;  ///< largest sampled group RSS, or the child's maxrss
  int process_group = 0;        ///< the child's pid = its process group id
  CapturedStream out;
  CapturedStream err;

  bool exited_zero() const { return started && signal == 0 && !timed_out && exit_code == 0; }
  /// "exit 0", "exit 1", "signal 11 (SIGSEGV)", "timed out after 10 s", "killed at memory limit".
  std::string status_text() const;
};

/// Runs a command to completion under its limits. The child is the leader of a new process
/// group; at a timeout, at the memory limit, and after the child exits, the whole group is
/// killed, so nothing it spawned survives. stdin is /dev/null. Never throws for anything the
/// child does; a program that cannot be started gives started == false.
SubprocessResult run_subprocess(const Command& command);
/// The same, and the child is also stopped (killed, marked `stopped`, as at Limits::deadline)
/// once `stop` becomes true: for a caller that learns its deadline after the child started.
SubprocessResult run_subprocess(const Command& command, const std::atomic<bool>& stop);

// ---- compilers --------------------------------------------------------------------------

enum class CompilerKind { nvcc, clang };
std::string to_string(CompilerKind kind);

/// One compiler found on this machine.
struct Compiler {
  CompilerKind kind = CompilerKind::nvcc;
  std::filesystem::path path;
  std::string version;       ///< e.g. "13.0.88" or "22.1.8"
  std::string version_line;  ///< the line the version was read from, verbatim
};

/// Where to look; values from flags and environment, filled in by the caller (cli).
struct ToolchainSearch {
  std::optional<std::filesystem::path> nvcc;       ///< --nvcc, else $CUDIFF_NVCC
  std::optional<std::filesystem::path> clang;      ///< --clang, else $CUDIFF_CLANG
  std::optional<std::filesystem::path> cuda_home;  ///< $CUDA_HOME
};

/// Per compiler: what was found, or why nothing usable was.
struct CompilerProbe {
  std::optional<Compiler> compiler;
  std::string problem;  ///< one line, set when compiler is empty
};

struct ToolchainDiscovery {
  CompilerProbe nvcc;
  CompilerProbe clang;
  std::filesystem::path cuda_home;  ///< the toolkit clang is pointed at (--cuda-path)
};

/// Looks for nvcc (flag, $CUDIFF_NVCC, $CUDA_HOME/bin, /usr/local/cuda/bin, PATH) and clang
/// (flag, $CUDIFF_CLANG, clang++-22 on PATH). A clang older than 22 is refused with a reason:
/// it cannot build CUDA 13 code. Runs each compiler once with --version.
ToolchainDiscovery discover_toolchain(const ToolchainSearch& search);

/// Both compilers, ready to use.
struct Toolchain {
  Compiler nvcc;
  Compiler clang;
  std::filesystem::path cuda_home;
  const Compiler& get(CompilerKind kind) const { return kind == CompilerKind::nvcc ? nvcc : clang; }
  /// Throws Error(environment) naming the first missing or unusable compiler.
  static Toolchain from(const ToolchainDiscovery& discovery);
};

/// How far a check goes. Each mode includes the ones before it, except ptx and cubin (device
/// only). cubin: the device code through ptxas (nvcc -cubin, clang --cuda-device-only -c), with
/// no host compile, which is most of an object's build time: the reducer's cheapest mode for a
/// crash or a rejection of ptxas (docs/reducer.md, "Cheapest mode").
enum class Mode { syntax, ptx, cubin, object, binary, run };
std::string to_string(Mode mode);
std::optional<Mode> parse_mode(std::string_view text);

/// One way to build: a compiler, an optimization level, a GPU architecture, extra flags.
struct Config {
  std::string name;  ///< e.g. "nvcc-O3"
  CompilerKind compiler = CompilerKind::nvcc;
  std::string opt_level = "O3";  ///< "O0".."O3"
  /// "sm_90": SASS for that GPU (nvcc and clang also embed its PTX). "compute_90" (nvcc only):
  /// PTX alone, which the driver's own PTX compiler builds when the program loads (driver JIT).
  std::string arch = "sm_90";
  std::vector<std::string> extra_flags;
  /// ptxas's level when it is not the one the config's level implies ("O0".."O3"; empty: the
  /// implied one, ptxas_level()). nvcc gets `-Xptxas -O<n>`, clang `-Xcuda-ptxas -O<n>`.
  std::string ptxas_opt_level;
  /// nvcc only: cicc's (NVVM's) level when it is not the one the config's level implies ("O0",
  /// "O1"; empty: implied). nvcc gets `-Xcicc -O<n>` and keeps ptxas at its own level, so a
  /// config and its cicc-lowered twin differ only in the PTX NVVM's optimizer emits.
  std::string cicc_opt_level;
  /// The preset names its architecture (a compile-only config for another GPU): `--arch`
  /// leaves it alone (set_arch).
  bool arch_fixed = false;
  bool operator==(const Config&) const = default;
};

/// nvcc-O3 and clang-O3 for sm_90: the compile-only default.
std::vector<Config> default_configs();
/// The cross-level set a campaign or a check uses when a GPU is present and binaries run:
/// nvcc-O3, clang-O3, nvcc-O3-ptxas0 (the same PTX as nvcc-O3, ptxas unoptimized) and
/// clang-O0. With four configs a wrong output is usually outvoted, which stage attribution
/// needs.
std::vector<Config> cross_level_configs();
/// Every named config `--config` accepts, defaults included (nvcc-O0, nvcc-G, clang-O0,
/// clang-O3-old-driver, the ptxas -O0, no-FMA, -rdc, JIT and other-architecture presets, ...).
std::vector<Config> preset_configs();
/// A comma-separated list of preset names; throws Error(usage) naming an unknown one.
std::vector<Config> parse_configs(std::string_view list);
/// `--arch`: the target of a config ("sm_80"); a PTX-only config gets the matching virtual
/// architecture ("compute_80"), a config whose preset fixes its architecture is left alone.
void set_arch(Config& config, std::string_view arch);

/// The level ptxas assembles this config's device code at: "O0".."O3", or "" where it has
/// none to swap (-G debug code, a PTX-only config whose PTX the driver compiles).
std::string ptxas_level(const Config& config);
/// True for a PTX-only config (arch "compute_XY"): the driver compiles its PTX at load time.
bool ptx_only(const Config& config);
/// True for a separate-compilation config (nvcc -rdc=true, clang -fgpu-rdc).
bool relocatable_device_code(const Config& config);
/// The config with cicc (NVVM) at -O0 and everything else, ptxas's level included, as it was
/// (nvcc-O3-cicc0 for nvcc-O3, renamed so). Only for an nvcc config whose cicc optimizes:
/// nullopt for clang, -O0 and -G configs (cicc already unoptimized) and cicc-lowered ones.
std::optional<Config> cicc_lowered_twin(const Config& config);

/// How a binary (Mode::binary, Mode::run) is linked: an executable, which runs as a process
/// of its own, or a shared object that keeps its main() and links the CUDA runtime
/// dynamically, which a persistent executor loads (ExecutorPool). Device code is the same
/// either way: only the host side is position-independent. Other modes ignore it.
enum class Linkage { executable, shared_object };

/// The exact command line that builds `source` in `mode` into `output`. Deterministic: the
/// same inputs give the same argv. `scratch` is a private directory for the compiler's
/// temporary and crash-reproducer files (TMPDIR, clang's -fcrash-diagnostics-dir).
Command compile_command(const Toolchain& toolchain, const Config& config, Mode mode,
                        const std::filesystem::path& source, const std::filesystem::path& output,
                        const std::filesystem::path& scratch, Linkage linkage = Linkage::executable);

/// One build of one source under one config.
struct CompileResult {
  Config config;
  Mode mode = Mode::binary;
  Command command;
  SubprocessResult process;
  std::filesystem::path artifact;  ///< the binary / PTX / object when it was produced
  Linkage linkage = Linkage::executable;  ///< of a binary: an executable, or a shared object
  /// nvcc: the CSV its `--time FILE` wrote (one row per sub-command; compile() adds the flag to
  /// every nvcc command); empty for clang or when nvcc wrote none.
  std::string nvcc_times;
  /// The device path (assemble): the front end's PTX compile that `command`, ptxas, ran on;
  /// empty argv for a build of one command.
  Command front_end;
};

/// Builds `source` with `config` in `mode` (Mode::run builds a binary) inside `workdir`.
/// A shared object (Linkage::shared_object) is `<stem>.so`, beside where the executable goes.
CompileResult compile(const Toolchain& toolchain, const Config& config, Mode mode, const std::filesystem::path& source,
                      const std::filesystem::path& workdir, const Limits& limits,
                      Linkage linkage = Linkage::executable);

// ---- the device path: each front end once to PTX, ptxas once per level --------------------

/// Whether a config's device code can be built in two steps, a PTX compile and ptxas on it,
/// as its driver builds it: not a PTX-only config (the driver's JIT assembles it), not
/// separate compilation (nvlink links it), not -G (no ptxas level of its own).
bool device_buildable(const Config& config);
/// The config whose PTX compile (Mode::ptx) gives the PTX `config`'s ptxas reads: the same
/// but for ptxas's level, which a PTX compile does not use.
Config front_end_config(const Config& config);
/// What makes two configs' PTX the same: the PTX compile's argv, paths left out. nvcc-O3 and
/// nvcc-O3-ptxas0 share one, clang-O3 and clang-O3-ptxas0 another.
std::vector<std::string> front_end_key(const Toolchain& toolchain, const Config& config);
/// ptxas as the config's driver runs it on `ptx` (nvcc -dryrun, clang -###): the toolkit's
/// ptxas, the config's architecture and ptxas level.
Command ptxas_command(const Toolchain& toolchain, const Config& config, const std::filesystem::path& ptx,
                      const std::filesystem::path& cubin);
/// ptxas's result as the config's driver would report it: the driver's line after a ptxas that
/// failed appended to stderr (clang: "ptxas command failed with exit code N", "... due to
/// signal"; nvcc: "'ptxas' died due to signal N (...)") and the driver's status (nvcc passes
/// ptxas's on, clang exits 1): so a rejection or a crash of ptxas on the device path reads as
/// it does in a whole build, and a crash is attributed to ptxas.
SubprocessResult as_driver_reports(const Config& config, const Toolchain& toolchain, SubprocessResult ptxas);
/// ptxas on a front end's PTX (`front_end`, a Mode::ptx result with an artifact) for `config`,
/// in `workdir/<config name>`: a Mode::cubin result standing for the config's whole device
/// build. Its stderr is the front end's, ptxas's and the driver's line; its time both steps';
/// its status the driver's (nvcc passes ptxas's on, clang exits 1); `front_end` keeps the
/// PTX compile's command.
CompileResult assemble(const Toolchain& toolchain, const Config& config, const CompileResult& front_end,
                       const std::filesystem::path& workdir, const Limits& limits);

// ---- GPUs and execution -----------------------------------------------------------------

struct GpuInfo {
  int index = 0;  ///< the driver's ordinal (among the devices this process sees)
  /// What a child's CUDA_VISIBLE_DEVICES must say to see this GPU alone: the ordinal, or the
  /// matching entry of this process's own CUDA_VISIBLE_DEVICES (a Slurm job's GPUs are
  /// listed there; ordinal 0 of such a job may be physical GPU 3).
  std::string visible_device = "0";
  std::string name;
  int cc_major = 0;
  int cc_minor = 0;
  std::string arch() const;  ///< "sm_90"
  /// "0: NVIDIA H200 (sm_90)", with ", CUDA_VISIBLE_DEVICES=3" when that differs from the index.
  std::string describe() const;
};

struct GpuDiscovery {
  std::vector<GpuInfo> gpus;
  std::string note;  ///< when gpus is empty: why (no driver, no device, driver error)
};

/// Asks the CUDA driver (libcuda.so.1, loaded at run time) for the GPUs. No driver or no
/// device is a normal answer, not an error.
GpuDiscovery discover_gpus();
/// The GPUs `wanted` names among those `found` (`cudiff fuzz --gpus`): "all" (found as it is),
/// "none" (no GPU: compile-only), or driver ordinals "0,1,..."; the note says "--gpus WANTED"
/// unless all. Throws Error(usage) for an ordinal not found, with how many were.
GpuDiscovery choose_gpus(const GpuDiscovery& found, const std::string& wanted);
/// GpuInfo::visible_device of driver ordinal `ordinal`, given this process's
/// CUDA_VISIBLE_DEVICES (`parent`, if set): the driver numbers the listed devices in order.
std::string visible_device(const std::optional<std::string>& parent, int ordinal);

/// Whether a binary built with `config` runs on `gpu` as the config means it: SASS of exactly
/// the GPU's architecture, or PTX-only code of a virtual architecture the GPU can JIT
/// (compute_XY with XY no newer than the GPU). A binary for another architecture is
/// compile-only there: nvcc and clang embed PTX beside the SASS, so it might still load
/// through the driver's JIT, but that would test another path than the config names.
bool runs_on(const Config& config, const GpuInfo& gpu);

/// The environment every run of a built program gets on top of cudiff's own, whichever way it
/// runs (execute()'s process, an executor, compute-sanitizer's run, `--layout`): pinned to one
/// GPU when `visible_device` (a GpuInfo::visible_device) is given (CUDA_VISIBLE_DEVICES), and
/// the driver's JIT cache off (CUDA_CACHE_DISABLE=1), so a PTX-only binary is compiled by the
/// driver on every load, never handed back from ~/.nv/ComputeCache. One function, so a check's
/// baseline runs, its attribution rebuilds and the sanitizer gate's runs see the same.
std::vector<std::pair<std::string, std::string>> program_environment(const std::optional<std::string>& visible_device);

/// Runs a built binary under `limits` with program_environment(visible_device): pinned to one
/// GPU when `visible_device` is given, the driver's JIT cache off.
SubprocessResult execute(const std::filesystem::path& binary, const Limits& limits,
                         const std::optional<std::string>& visible_device, const std::filesystem::path& cwd);

// ---- the executor: runs without a process each ----------------------------------------

/// How built programs run on a GPU: a process each (execute()), or loaded into a persistent
/// executor that keeps its CUDA context (ExecutorPool; docs/runners.md, "Executor").
enum class RunPath { process, executor };
std::string to_string(RunPath path);
std::optional<RunPath> parse_run_path(std::string_view text);

/// What one GPU's executors need.
struct ExecutorSetup {
  std::filesystem::path program;  ///< cudiff-executor (find_executor_program)
  /// The CUDA runtime the programs link (find_cudart); empty: no CUDA at all, for programs
  /// that use none (the executor's own tests on a machine without a GPU).
  std::filesystem::path cudart;
  GpuInfo gpu;
  std::filesystem::path workdir;  ///< the executors' own files (logs, captured output)
  std::size_t slots = 2;          ///< executor processes on this GPU, each running one program at a time
  /// The share of the GPU's memory, after the `slots` executors' contexts
  /// (pipeline::kExecutorContextBytes each), that their programs may hold together: one program
  /// may hold program_device_share(total, context, slots, device_share) (runners/device_share.h)
  /// at once; past it the allocation is refused and the program runs as a process.
  double device_share = pipeline::kExecutorsDeviceShare;
};

/// What a pool did, for the progress line and benchmarks.
struct ExecutorStats {
  std::uint64_t runs = 0;       ///< programs handed to an executor
  std::uint64_t fallbacks = 0;  ///< of those (or refused outright), left to the process path
  std::uint64_t starts = 0;     ///< executor processes started (each said "ready")
  /// Starts that failed (no "ready" in time, or the executor was killed while it set up its
  /// context): each left that run to the process path.
  std::uint64_t failed_starts = 0;
  double start_seconds = 0;     ///< their CUDA context set-up, summed
  double run_seconds = 0;       ///< time in executor runs, summed
  /// Executors found ended between two runs (killed from outside, or gone by themselves): nothing
  /// of a program ran in them, so no run fell back. Each is replaced by a start, or by a failed
  /// start: starts + failed_starts >= lost.
  std::uint64_t lost = 0;
  std::map<std::string, std::uint64_t> fallback_reasons;  ///< by kind ("time limit", ...)
};

/// One GPU's executors. Thread-safe: run() waits for a free executor, starting (or replacing)
/// it when needed. Only a clean run is taken from an executor: main returned 0, no CUDA error
/// after it, no allocation past the share, within the wall-clock and host-memory limits.
/// Anything else (a signal, exit(), a sticky error, a hang) gives no result and the reason;
/// an executor that faulted is replaced, and the caller runs the program as a process, so a
/// fault is observed exactly as the process path observes it.
class ExecutorPool {
public:
  explicit ExecutorPool(ExecutorSetup setup);
  ~ExecutorPool();
  ExecutorPool(const ExecutorPool&) = delete;
  ExecutorPool& operator=(const ExecutorPool&) = delete;

  /// A program handed to an executor: its clean run, or why it must run as a process instead.
  struct RunAttempt {
    std::optional<SubprocessResult> result;  ///< a clean run, as the process would have shown it
    std::string fallback;                    ///< otherwise: why it must run as a process
    std::string failure = {};  ///< launch(): the step that failed, with result set ("" when it ran)
  };
  /// Runs `program` (built with Linkage::shared_object) with `args` in `cwd` under `limits`.
  RunAttempt run(const std::filesystem::path& program, const std::vector<std::string>& args, const Limits& limits,
                 const std::filesystem::path& cwd);
  /// A kernel of `module` (a cubin, or PTX the driver compiles) launched as `launch` says
  /// (runners/launch.h). result, as a process would show it: exit 0 and the printed buffers on
  /// stdout; exit 1, the failing step's CUDA error on stderr and `failure` set for a module
  /// that does not load, a kernel that is not there or does not match, or a fault (that
  /// executor is replaced); timed_out for a kernel that does not end in `limits`. No result,
  /// and `fallback` says why, only when no executor could take it.
  RunAttempt launch(const std::filesystem::path& module, const LaunchDescription& launch, const Limits& limits);
  /// Several kernels of one `module` on one load of it, in order, as a program's main launches
  /// them (a test's kernels on the device path): their lines in that order; the first that
  /// fails ends the request, and `failure` names its kernel. One module load and one round trip
  /// for the lot, where a request per kernel loads the module again each time.
  RunAttempt launch(const std::filesystem::path& module, const std::vector<LaunchDescription>& launches,
                    const Limits& limits);
  ExecutorStats stats() const;
  const GpuInfo& gpu() const;

private:
  class Slot;
  template <typename Work>
  RunAttempt dispatch(const Limits& limits, Work work);
  ExecutorSetup setup_;
  std::vector<std::unique_ptr<Slot>> slots_;
  mutable std::mutex mutex_;
  std::condition_variable available_;
  std::vector<std::size_t> free_;
  ExecutorStats stats_;
  int failed_starts_ = 0;
  std::string unavailable_;  ///< set after repeated failed starts: every run falls back
};

/// cudiff-executor: $CUDIFF_EXECUTOR, else the file of that name beside the running binary.
std::optional<std::filesystem::path> find_executor_program();
/// The toolkit's shared CUDA runtime (lib64/libcudart.so), which programs built with
/// Linkage::shared_object load.
std::optional<std::filesystem::path> find_cudart(const std::filesystem::path& cuda_home);

// ---- JSON -------------------------------------------------------------------------------

boost::json::value to_json(const Command& command);
boost::json::value to_json(const SubprocessResult& result);
boost::json::value to_json(const Compiler& compiler);
/// The compiler found, or {"problem"}.
boost::json::value to_json(const CompilerProbe& probe);
/// {"index", "name", "arch", "visible_device"}.
boost::json::value to_json(const GpuInfo& gpu);
/// {"runs", "ran_as_processes", "fallback_reasons", "executors_started", "executors_lost",
/// "context_seconds", "run_seconds"}.
boost::json::value to_json(const ExecutorStats& stats);
/// In words: "executor: 1204 runs (2.1 ms each), 3 ran as processes (time limit 3), 2
/// executors started", and the executors replaced when any were lost.
std::string describe(const ExecutorStats& stats);

} // namespace cudiff::runners
