// pipeline: the limits — every limit a compile or a run of a test gets, and those of the
// executors, test scripts and Slurm commands, declared here and nowhere else. Constants only,
// including no other stage: runners' executor pool takes its limits from here too
// (docs/architecture.md, "Layout").
#pragma once

#include <cstddef>
#include <cstdint>

namespace cudiff::runners {
struct Limits;
} // namespace cudiff::runners

namespace cudiff::pipeline {

// ---- compiles and runs -------------------------------------------------------------------

/// Host memory for every compile and every run: a compiler or a generated program that wants
/// more is stopped, and that is its result.
inline constexpr std::uint64_t kMemoryLimitBytes = 16ull << 30;
/// A compile of a person's file (check, reduce, triage reduce): a large file may take minutes.
inline constexpr double kFileCompileSeconds = 300;
/// A compile of one generated program in a campaign, guided fuzzing or the conformance
/// measurement (a batch of K programs gets 1 + kBatchTestShare * (K - 1) times as long).
inline constexpr double kProgramCompileSeconds = 120;
/// One run of a built program.
inline constexpr double kRunSeconds = 60;
/// A check of a batch of K tests (a campaign's seeds and each one's variants, all in one
/// translation unit) gets 1 + kBatchTestShare * (K - 1) times one program's compile and run
/// limits: a batch's compile may take longer than one program's before it is a hang.
inline constexpr double kBatchTestShare = 0.25;
/// A compute-sanitizer run gets this many times a normal run's limit: the sanitizers are slow.
inline constexpr double kSanitizerTimeFactor = 10;
/// One run of a C-Reduce-style test script.
inline constexpr double kScriptSeconds = 120;
/// Of a test script's output, this much per stream is kept: only its exit status matters.
inline constexpr std::size_t kScriptOutputBytes = 64 * 1024;
/// A reduction's candidates compile in seconds; a candidate that hangs a compiler must not cost
/// five minutes: its compile limit is kCandidateCompileFactor times the original's slowest
/// compile, at least kCandidateCompileFloorSeconds, at most the request's (a hang keeps that).
inline constexpr double kCandidateCompileFactor = 10;
inline constexpr double kCandidateCompileFloorSeconds = 30;
/// A generated program's IR stage under the text passes' own test (a finding not found by
/// running) gets at most this share of the reduction's time limit: the text passes, which
/// remove what the generator's edits cannot say (the host side's statements, a line of PTX, a
/// token), get the rest. On a ptxas crash in a 2,200-line batch the IR stage kept one edit in
/// two tests and reached 61 lines in 500 s of a 600 s limit, and the text passes ran out of
/// time at 37 formatted lines.
/// A wrong-code finding's IR stage (reduce_generated) gets the same share.
inline constexpr double kIrTimeShare = 2.0 / 3.0;
/// What reduce_bucket keeps of its time limit for the steps after the text passes, counted in
/// checks of the original (ReduceRequest::reserved_checks): the final check in the full mode,
/// its sanitizer gate, the cause's compiles. A campaign's reduction given the time left in its
/// window must end inside it, or it is killed and stores nothing; on an H100 two reductions
/// given 90 s overran by more than a minute when the text passes took the whole limit.
inline constexpr double kFinalChecksReserved = 3;
/// One bucket's reduction in a child process at the end of (or alongside) a campaign.
inline constexpr double kBucketReductionSeconds = 15 * 60;
/// A compile past its limit is confirmed once with this many times the limit before it is
/// called a hang (docs/architecture.md, "Oracles" 4): a slow machine must not produce hangs.
inline constexpr double kHangConfirmationFactor = 3.0;

/// The compile of a small CUDA program that tells whether a clang release installed side by side
/// builds CUDA with this toolkit (`cudiff triage bisect`).
inline constexpr double kClangProbeCompileSeconds = 120;

/// `seconds` of wall clock and kMemoryLimitBytes.
runners::Limits limits(double seconds);

// ---- executors (runners::ExecutorPool) ---------------------------------------------------

/// An executor's start: context creation takes a fraction of a second; a machine under load
/// may take much longer.
inline constexpr double kExecutorStartSeconds = 120;
/// An executor is replaced after this many programs: modules that dlclose could not unload
/// (and what they hold on the device) stay bounded.
inline constexpr std::uint64_t kProgramsPerExecutor = 2000;
/// After this many starts in a row that fail, the pool stops trying: every run falls back.
inline constexpr int kExecutorStartAttempts = 3;
/// What one executor's CUDA context is allowed of its GPU's memory when the programs' device
/// memory is shared out (runners::program_device_share): the context, the modules it loads, and
/// the device stack, printf FIFO and malloc heap a program's limits make it reserve. An
/// allowance, not a measurement: a context on a large GPU takes some hundreds of MiB.
inline constexpr std::uint64_t kExecutorContextBytes = 1ull << 30;
/// Of a GPU's memory after its executors' contexts, the share their programs may hold together;
/// each of the GPU's executors gets an even part of it (`--executors`: 2 by default, a quarter
/// each; 16, a 32nd). The rest is for the programs that run as processes on that GPU beside them
/// (fallbacks, compute-sanitizer runs, attribution rebuilds), which must find memory too.
inline constexpr double kExecutorsDeviceShare = 0.5;
/// The executors an IR reduction starts for its candidates' runs when its caller gives none: one
/// per job up to this many (each holds a CUDA context on the GPU; runs take milliseconds).
inline constexpr std::size_t kIrExecutors = 8;

// ---- Slurm's commands (campaign/slurm_*.cpp) ---------------------------------------------

/// One squeue call (a campaign's status).
inline constexpr double kSlurmQuerySeconds = 60;
/// One sbatch call (a campaign's submission).
inline constexpr double kSlurmSubmitSeconds = 120;

} // namespace cudiff::pipeline
