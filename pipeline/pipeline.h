// pipeline: one test case through every config — build, run, observe, layout views, judge,
// record — and the reducer's test that a candidate still shows the same finding.
//
// Contract: a check takes the test case in memory (source, name, sidecar); the only files it
// writes are the ones the compilers read and what they produce, under a work directory the
// caller owns. A check records nothing and prints nothing unless asked (record_check), and is
// safe to run from several threads at once with different work directories. Every limit a
// compile or a run gets is declared in the "limits" section below, nowhere else.
#pragma once

#include "generator/generator.h"
#include "oracle/oracle.h"
#include "reducer/reducer.h"
#include "runners/runners.h"
#include "triage/triage.h"

#include <filesystem>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cudiff::pipeline {

// ---- limits ------------------------------------------------------------------------------

/// Host memory for every compile and every run: a compiler or a generated program that wants
/// more is stopped, and that is its result.
inline constexpr std::uint64_t kMemoryLimitBytes = 16ull << 30;
/// A compile of a person's file (check, reduce, triage reduce): a large file may take minutes.
inline constexpr double kFileCompileSeconds = 300;
/// A compile of one generated program in a campaign, guided fuzzing or the conformance
/// measurement (a batch of K programs gets 1 + (K - 1) / 4 times as long).
inline constexpr double kProgramCompileSeconds = 120;
/// One run of a built program.
inline constexpr double kRunSeconds = 60;
/// One run of a C-Reduce-style test script.
inline constexpr double kScriptSeconds = 120;
/// One bucket's reduction in a child process at the end of (or alongside) a campaign.
inline constexpr double kBucketReductionSeconds = 15 * 60;
/// A compile past its limit is confirmed once with this many times the limit before it is
/// called a hang (docs/architecture.md, "Oracles" 4): a slow machine must not produce hangs.
inline constexpr double kHangConfirmationFactor = 3.0;

/// `seconds` of wall clock and kMemoryLimitBytes.
runners::Limits limits(double seconds);

// ---- one check -----------------------------------------------------------------------------

/// A test case as the pipeline takes it: in memory. A generated program is written for the
/// compilers into the work directory under `name`; a person's file (`file` set) is compiled
/// where it is, so that its own includes resolve and the commands a report shows are the ones
/// a person re-runs.
struct TestInput {
  std::string name;    ///< file name, e.g. "cudiff_batch_000000000001_8.cu"
  std::string source;
  std::optional<std::filesystem::path> file;  ///< on disk already: compiled in place
  /// The sidecar (generated programs; `<stem>.json` beside a person's file), if there is one.
  std::optional<generator::Sidecar> sidecar;
  std::filesystem::path sidecar_path;  ///< where a person's sidecar file is, for notes; else empty
  /// Why that file could not be read: "not JSON (...)" or "not a sidecar (...)"; else empty.
  std::string sidecar_error;
};

/// A person's file (and its sidecar `<stem>.json`, if there is one) as a TestInput. Throws
/// Error(environment) for a file that does not exist, is a directory or cannot be read; a
/// sidecar that is not JSON or not a sidecar (generator::sidecar_from_json) is left out and
/// `sidecar_error` says why.
TestInput file_input(const std::filesystem::path& file);

/// The layout probes a sidecar lists, as the oracle takes them (none when it lists none).
std::vector<oracle::LayoutProbe> layout_probes_of(const generator::Sidecar& sidecar);
/// What a sidecar says the test must do: its expected verdict, and for a rejection the edge's
/// rule and line; none when it has no expected verdict.
std::optional<oracle::Expectation> expectation_of(const generator::Sidecar& sidecar);
/// What the generator's interpreter predicts each kernel prints (the sidecar's "kernels", all
/// of a batch's); none for a sidecar without kernels.
std::vector<oracle::ExpectedChecksum> expected_checksums_of(const generator::Sidecar& sidecar);
/// Each variant kernel of a batch paired with its original's (the metamorphic oracle): the
/// tests with "variant_of" against the test of the same seed without it, kernel by kernel in
/// order. Empty for a sidecar without variants (a lone variant has no original beside it).
std::vector<oracle::VariantKernel> variant_kernels_of(const generator::Sidecar& sidecar);

/// Everything one config went through: build, classification, and the run if there was one.
struct ConfigCheck {
  runners::CompileResult compile;
  oracle::CompileObservation observation;
  std::optional<runners::SubprocessResult> run_process;
  std::optional<oracle::RunObservation> run;
  std::string note;  ///< e.g. why a slow compile is not a hang
  bool ran_in_executor = false;  ///< the run came from an executor, not a process of its own
};

/// The layout part of a check, when the sidecar lists layout probes: the probes and the host
/// and device views of every config (docs/architecture.md, "Oracles" 5).
struct LayoutCheck {
  std::filesystem::path sidecar;  ///< the sidecar's file (a person's) or name (a generated test)
  std::vector<oracle::LayoutProbe> probes;
  std::vector<oracle::LayoutView> views;  ///< per config: device (from PTX), then host (--layout)
  std::vector<std::string> notes;         ///< what could not be read, and why
};

/// The parameter-ABI part of a check (docs/pipeline.md, "Parameter ABI"): the views read.
struct AbiCheck {
  std::vector<oracle::AbiView> views;  ///< per config whose PTX was read
  std::vector<std::string> notes;      ///< what could not be read, and why
};

struct CheckRun {
  std::filesystem::path file;  ///< what the compilers compiled
  runners::Mode mode = runners::Mode::binary;
  std::vector<std::string> notes;  ///< how the mode was chosen, why nothing ran...
  runners::Toolchain toolchain;
  runners::GpuDiscovery gpus;
  std::vector<ConfigCheck> configs;
  std::optional<LayoutCheck> layout;            ///< set when the sidecar lists layout probes
  std::optional<AbiCheck> abi = {};             ///< set when parameter declarations were compared
  std::optional<oracle::Expectation> expected;  ///< what the verdict was judged against
  oracle::Verdict verdict;
  std::optional<std::string> assumed_stage;  ///< CheckRequest::assumed_stage, for signatures_of
};

/// What to check: one test case, how far to build it, with which configs and limits.
struct CheckRequest {
  TestInput input;
  std::optional<runners::Mode> mode;  ///< none: run with a GPU, else binary (object without main)
  std::vector<runners::Config> configs;
  bool warnings = false;  ///< warnings only one compiler emits are findings
  runners::Limits compile_limits = limits(kFileCompileSeconds);
  runners::Limits run_limits = limits(kRunSeconds);
  /// What the test must do (the spec oracle); none: read from the sidecar's expected verdict
  /// and edge, else from a `// expected-error: ID` comment, else nothing is expected.
  std::optional<oracle::Expectation> expected;
  /// Name each finding's guilty stage (attribute_stage): a compile finding's from what spoke,
  /// in every mode; a run finding's (mode run, with a GPU) by rebuilding with stages swapped.
  /// `cudiff check` turns it on; a campaign attributes a finding only once it is pinned on one
  /// test, and the reducer's candidates never are.
  bool attribute_stages = false;
  /// A reduction of a bucket whose key holds an attributed stage: every finding of the check is
  /// keyed as if it had this stage (`signatures_of`), since a candidate is never attributed
  /// (each attribution is several rebuilds). None: findings are keyed as judged.
  std::optional<std::string> assumed_stage;
  /// In mode run: the GPU's executors (runners::ExecutorPool). None: every binary runs as a
  /// process of its own. Set: a program an executor can load faithfully (executor_can_load) is
  /// built as a shared object and run there; a build that fails, and a run that does not end
  /// cleanly, are redone as an executable and a process, so what is observed is what the
  /// process path observes (docs/pipeline.md, "Executor").
  std::shared_ptr<runners::ExecutorPool> executor;
};

/// Whether a program can run in an executor as it would in a process of its own: it defines
/// main() and declares no __managed__ variable (managed memory is per process; the executor
/// path does not model it).
bool executor_can_load(std::string_view source);

/// Builds the test with every config in parallel (a compile past its limit is retried once
/// with a longer one before it is called a hang), runs the binaries on the first GPU in mode
/// run, reads the layout views when the sidecar lists probes, and judges. Artifacts go under
/// `workdir`, which the caller owns (they stay there for the caller, e.g. a sanitizer run).
CheckRun check_test(const CheckRequest& request, const runners::Toolchain& toolchain, const runners::GpuDiscovery& gpus,
                    const std::filesystem::path& workdir);

/// For a test whose sidecar lists layout probes (else nothing): the device views, read from
/// each accepted config's PTX (the artifact in ptx mode, else a PTX compile into `workdir`),
/// and the host views, from each built binary run as `BINARY --layout` (which touches no CUDA
/// API, so no GPU is needed). Adds the probes and views to `observations`.
/// A shared-object build runs `--layout` in `executor` when given; without one, or when that run
/// is not clean, an executable is built for it.
std::optional<LayoutCheck> check_layout(const CheckRun& run, const TestInput& input,
                                        const runners::Limits& compile_limits, const runners::Limits& run_limits,
                                        const std::filesystem::path& workdir, oracle::Observations& observations,
                                        runners::ExecutorPool* executor = nullptr);

/// Whether a config builds with separate compilation (-rdc=true, -dc, -fgpu-rdc): only PTX of
/// configs alike in this is compared.
bool separate_compilation(const runners::Config& config);
/// Whether a check compares parameter declarations outside ptx mode, where it costs PTX
/// compiles: always for a person's file (no sidecar), for a generated test only when its
/// sidecar lists ABI-family functions.
bool wants_abi_check(const TestInput& input);
/// The ABI-family functions a sidecar lists, as the oracle takes them.
std::vector<oracle::AbiFunctionKinds> abi_kinds_of(const generator::Sidecar& sidecar);
/// The parameter declarations of the accepted configs (nothing in syntax mode, or when no
/// nvcc and clang config of one arch and separate-compilation mode were both accepted): in ptx
/// mode every config's artifact; otherwise, when wants_abi_check, the PTX of one nvcc and one
/// clang config per arch and mode (the layout check's, or a PTX compile into `workdir`). Adds
/// the views and the sidecar's kinds to `observations`.
std::optional<AbiCheck> check_abi(const CheckRun& run, const TestInput& input, const runners::Limits& compile_limits,
                                  const std::filesystem::path& workdir, oracle::Observations& observations);

/// The expectation of a test: `request.expected` if set, else its sidecar's, else its
/// `// expected-error: ID` comment's; none for a plain file.
std::optional<oracle::Expectation> expectation_of(const CheckRequest& request);

/// True when the source defines main(); otherwise it is checked as an object file rather
/// than reported as two failed links. A text scan with comments removed: good enough to
/// choose a mode, and a wrong guess only shows as a link error on both sides.
bool defines_main(std::string_view source);

/// What a bug report needs of a check: commands, what each compiler and program printed
/// (outputs capped at 64 KiB per stream), versions, the GPU note.
boost::json::object outputs_json(const CheckRun& run);
/// The stderr of the compile a crash finding is about (its stack frames refine the key).
std::string crash_output(const CheckRun& run, const oracle::Finding& finding);
/// The signatures of every finding of a check (a crash's key includes its stderr).
std::vector<triage::Signature> signatures_of(const CheckRun& run);
std::string host_name();

// ---- stage attribution (docs/pipeline.md, "Stage attribution") -----------------------------

/// One piece of evidence: what was rebuilt (or read) and what it printed.
struct StageSwap {
  std::string swap;                  ///< "nvcc-O3 with ptxas -O0", "nvcc-O3-jit's twin nvcc-O3"
  std::vector<std::string> configs;  ///< the configs it stands for
  std::string outcome;               ///< "right", "still wrong", "build failed", "not run", ...
  std::string line;                  ///< the output line (or error) that shows the outcome
};

struct StageAttribution {
  oracle::Stage stage = oracle::Stage::unknown;
  std::string why;  ///< one line; for unknown, why the swaps did not decide it
  std::vector<StageSwap> evidence;
  std::size_t builds = 0;  ///< compiles it made
};

/// What attribution needs of a test, in memory: a campaign calls it for one isolated test after
/// the fact, when the check's own artifacts are gone.
struct AttributionRequest {
  TestInput input;                          ///< name, source (or file), sidecar
  std::vector<runners::Config> configs;     ///< the configs the finding was found with
  std::vector<oracle::RunObservation> runs;  ///< their runs, when at hand; else rebuilt and run
  std::string crash_output;                 ///< a crash finding: the crashed compile's stderr
  runners::Limits compile_limits = limits(kFileCompileSeconds);
  runners::Limits run_limits = limits(kRunSeconds);
};

/// True for the kinds attribution names a stage for: run mismatch, wrong code, common wrong
/// code (by rebuilding), crash, compile-status mismatch, false and late rejection (from the
/// tool that spoke).
bool attributable(const oracle::Finding& finding);

/// Names the stage of one finding. Compile findings: the tool that crashed or gave the first
/// error. Run findings (a GPU needed; without one the stage is unknown and nothing is built):
/// each config whose output is wrong (against the sidecar's predicted checksums, else the
/// majority) is rebuilt with ptxas at the other level (right then: ptxas; still wrong: the PTX
/// is wrong, device-codegen, confirmed for nvcc by the driver's JIT of the same PTX); a JIT
/// config against its ptxas-built twin (driver-jit); an rdc config against its twin and ptxas
/// swap; a difference only in host-printed lines is the host compiler's. Builds go under
/// `workdir`, which the caller owns. A compiler that fails is evidence, never an exception.
StageAttribution attribute_stage(const oracle::Finding& finding, const AttributionRequest& request,
                                 const runners::Toolchain& toolchain, const runners::GpuDiscovery& gpus,
                                 const std::filesystem::path& workdir);

/// Writes the attribution into the finding: details["stage"] (oracle::to_string), details
/// ["stage_why"] and details["stage_evidence"] (an array of {swap, configs, outcome, line}).
/// A crash's tool, which details["stage"] held, moves to details["tool"].
void record_stage(oracle::Finding& finding, const StageAttribution& attribution);
// ---- compute-sanitizer (pipeline/sanitizer.cpp) --------------------------------------------
// A program whose run faults (an out-of-bounds read, a stack overflow, an uninitialized read, a
// shared-memory race, a misused barrier) has no one defined output: its different results are
// the program's defect, never a compiler bug. The sanitizer gate runs compute-sanitizer on the
// binaries of a run-time finding before it is filed (docs/pipeline.md, "The sanitizer gate").

enum class SanitizerTool { memcheck, initcheck, racecheck, synccheck };
std::string to_string(SanitizerTool tool);

/// What one compute-sanitizer run printed, parsed. Never throws on any text.
struct SanitizerReport {
  bool summary_found = false;  ///< "ERROR SUMMARY: N errors" or "RACECHECK SUMMARY: ... (N errors, ...)"
  std::int64_t errors = 0;     ///< N of that summary
  /// The first error's lines, the "========= " prefix dropped (at most 8): its headline
  /// ("Invalid __global__ read of size 4 bytes", "Stack overflow", "Uninitialized __global__
  /// memory read ...", "Error: Race reported between ...") and where it happened.
  std::vector<std::string> first_error;
  /// The kind of the first error (sanitizer_cause); empty when there is none.
  std::string cause;
};
SanitizerReport parse_sanitizer_output(std::string_view text);
/// The cause an error headline names: "out-of-bounds", "stack overflow", "uninitialized read",
/// "race", "barrier", "misaligned", "illegal address", "hardware exception", "leak", or
/// "other" for a headline that is none of these.
std::string sanitizer_cause(std::string_view headline);

/// compute-sanitizer: $CUDA_HOME/bin, the toolchain's CUDA toolkit, /usr/local/cuda/bin, then
/// PATH (each also as <toolkit>/compute-sanitizer/compute-sanitizer); none when absent.
std::optional<std::filesystem::path> find_compute_sanitizer(const runners::Toolchain& toolchain);
/// The same, or Error(environment) with one line saying where it was looked for.
std::filesystem::path require_compute_sanitizer(const runners::Toolchain& toolchain, std::string_view why);

/// The tools a program needs: memcheck and initcheck always; racecheck when it uses shared
/// memory and synccheck when it uses a barrier or a warp-synchronous operation (from the
/// source text, or a sidecar that says it used such a construct).
std::vector<SanitizerTool> sanitizer_tools_for(std::string_view source,
                                               const std::optional<generator::Sidecar>& sidecar);

/// One tool on one binary.
struct SanitizerRun {
  SanitizerTool tool = SanitizerTool::memcheck;
  std::string config;  ///< whose binary
  runners::Command command;
  runners::SubprocessResult process;
  SanitizerReport report;
  bool errors() const { return report.summary_found && report.errors > 0; }
  /// Clean: the summary was printed and says 0 errors, and the sanitizer ended by itself.
  bool clean() const;
  /// Why a run is neither clean nor in error ("timed out after 600 s", "no summary printed").
  std::string inconclusive_reason() const;
};
/// Runs `sanitizer --tool T --error-exitcode 86 --print-limit 10 BINARY` in the binary's
/// directory, pinned to `gpu` (CUDA_VISIBLE_DEVICES), within `limits`.
SanitizerRun run_sanitizer(const std::filesystem::path& sanitizer, SanitizerTool tool, const std::string& config,
                           const std::filesystem::path& binary, const runners::GpuInfo& gpu,
                           const runners::Limits& limits);

/// The kinds the gate checks: findings about what a program printed (run_mismatch, wrong_code,
/// common_wrong_code).
bool sanitizer_gated(oracle::FindingKind kind);

/// How a gate ended.
enum class GateResult {
  clean,        ///< every tool ran clean on every binary: file the finding
  invalid,      ///< a tool reported an error: the program is invalid, never filed as a bug
  not_checked,  ///< off, no sanitizer, no GPU, no binary, or a run that proved nothing: filed with a note
};
std::string to_string(GateResult result);

struct GateOutcome {
  GateResult result = GateResult::not_checked;
  std::vector<std::string> configs;  ///< the binaries checked, one per side of the partition at least
  std::vector<SanitizerRun> runs;    ///< in the order they ran
  std::optional<SanitizerRun> failure;  ///< invalid: the first run with errors
  std::string
      note;  ///< one line: "sanitizer gate: clean (...)", "... INVALID program: ...", "not sanitizer-checked: ..."
};

/// How the gate runs (make_sanitizer_gate); off unless made. Off, or `sanitizer` none: gate
/// results are not_checked with `missing_reason`.
struct SanitizerGate {
  bool enabled = false;
  std::optional<std::filesystem::path> sanitizer;
  std::string missing_reason = "the sanitizer gate is off";
  double run_seconds = kRunSeconds;  ///< a normal run's limit; the sanitizer gets 10 times as long
  /// runners::Limits::deadline of every sanitizer run (a campaign's --time).
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
};
/// The gate as a campaign or `cudiff check` sets it up: on unless `enabled` is false, with
/// the toolkit's compute-sanitizer when there is one.
SanitizerGate make_sanitizer_gate(bool enabled, const runners::Toolchain& toolchain, double run_seconds);

/// The binaries a gated finding is about: one config from each group of its partition (details
/// "groups" of a run mismatch, "wrong"/"right" config lists, else the finding's configs), and
/// at least one of each compiler when both built one; only configs with a binary that ran.
std::vector<const ConfigCheck*> gate_binaries(const CheckRun& run, const oracle::Finding& finding);

/// The gate on the gated findings of `run` (none: clean, nothing to check). Each tool of
/// sanitizer_tools_for on each binary of gate_binaries, the binaries of one tool side by side,
/// on the run's first GPU; it stops at the first error.
GateOutcome sanitizer_gate(const SanitizerGate& gate, const CheckRun& run, const std::string& source,
                           const std::optional<generator::Sidecar>& sidecar);

/// `cudiff check` after judging: the gate on the check's run-time findings (none, or not mode
/// run: nothing happens and the outcome is clean). Its note joins run.notes, and each gated
/// finding's details get "sanitizer_gate" (the note) and "sanitizer_gate_result".
GateOutcome gate_check(const SanitizerGate& gate, CheckRun& run, const TestInput& input);

/// What the invalid-tests list keeps of a gate that found an error (triage::InvalidTest's
/// tool, cause, report, configs), for a test named `name`.
triage::InvalidTest invalid_test_of(const GateOutcome& gate, const CheckRun& run, const std::string& source_name,
                                    const std::string& source);

// ---- recording a check ---------------------------------------------------------------------

/// Where a check's findings go: a database and known differences, opened before anything is
/// compiled, so a bad file fails at once and costs no compile.
struct CheckRecorder {
  std::optional<triage::Database> db;
  triage::KnownDifferences known;
  bool active = false;  ///< a database or a known-differences file was given
};
/// The GPUs a check in `mode` ran on, as a campaign row records them ("0: NVIDIA H100 (sm_90)");
/// empty unless it ran.
std::string gpus_text(const runners::GpuDiscovery& gpus, runners::Mode mode);
/// Throws Error(environment) with one line for a database or known-differences file that
/// cannot be used; the files are left untouched.
CheckRecorder open_check_recorder(const std::optional<std::filesystem::path>& db,
                                  const std::optional<std::filesystem::path>& known);
/// With a database: records the check as a campaign of its own (kind "check", one test, its
/// findings), in one transaction. With known differences: findings matching one are labelled
/// known (summary prefix, details "triage"); they are still findings. Adds one note per
/// finding naming its bucket. With a gate that found the program invalid, its run-time
/// findings are not filed and the test is recorded in the invalid-tests list instead.
void record_check(CheckRecorder& recorder, CheckRun& run, const GateOutcome* gate = nullptr);

// ---- reduction -----------------------------------------------------------------------------

/// What the built-in test must keep: one finding's signature.
/// How a run finding splits the configs: the groups of configs whose runs print alike, each
/// sorted, the groups sorted. A wrong-code finding's matching configs are one group and each
/// of its differing groups another, so it splits as the run mismatch its program shows
/// without the generator's prediction (a reduced program has none). Empty for other kinds.
using RunPartition = std::vector<std::vector<std::string>>;
RunPartition run_partition(const oracle::Finding& finding);
/// The same from a stored finding's kind and details (triage::StoredFinding).
RunPartition run_partition(std::string_view kind, const boost::json::value& details);

struct ReduceTarget {
  std::string key;  ///< the triage key every accepted candidate must show again
  std::string title;
  oracle::FindingKind kind = oracle::FindingKind::compile_status_mismatch;
  /// Set for a run finding reduced structurally (ReduceRequest::partition): a candidate is kept
  /// while any run finding of it (run mismatch, wrong code, common wrong code) splits the
  /// configs exactly so, whatever its key. With the guilty stage's swap twin among the configs
  /// (nvcc-O3 wrong, nvcc-O3-ptxas0 right), the split re-proves the stage on every candidate.
  RunPartition partition;
};

struct ReduceRequest {
  std::filesystem::path file;  ///< the original's name: candidates are written under it
  std::string source;          ///< the original's text
  /// Given to every candidate (layout probes, the expectation).
  std::optional<generator::Sidecar> sidecar;
  /// A run finding's split of the configs (run_partition), when it is reduced structurally:
  /// the original must show a run finding that splits them so (its key may differ: a stored
  /// wrong-code reproducer checked without its sidecar shows a run mismatch), and so must
  /// every candidate.
  RunPartition partition;
  std::optional<std::filesystem::path> test_script;  ///< C-Reduce-style; else the built-in test
  CheckRequest check;  ///< mode (none: check's default), configs, warnings, limits
  std::optional<std::string> key;  ///< built-in test: keep this key (or prefix); none: the first finding
  std::size_t jobs = 1;
  reducer::Schedule schedule = reducer::default_schedule();
  bool format = true;
  double script_timeout_seconds = kScriptSeconds;
  double time_limit_seconds = 0;  ///< 0: none
  std::optional<std::filesystem::path> out;  ///< rewritten with every improvement
  /// reduce_bucket: a generated program's wrong-code finding is reduced at the IR level first
  /// (reduce_generated). Off: the text passes alone.
  bool ir = true;
};

/// How a reduction went, for the report.
struct ReduceOutcome {
  reducer::Result result;
  std::optional<ReduceTarget> target;      ///< none with a test script
  std::optional<runners::Mode> test_mode;  ///< the mode candidates were checked in
  std::optional<runners::Mode> full_mode;  ///< the mode the original showed it in
  bool confirmed = false;  ///< the result shows the target in the full mode (or the script said yes)
  std::vector<std::string> notes;
};

/// Reduces request.source. With the built-in test: checks the original in the full mode,
/// picks the target finding (exit 2 via Error when there is none), finds the cheapest mode
/// that still shows it (syntax, then ptx, for compile-time kinds), reduces with a prefilter
/// (the cheapest config alone first) and confirms the result in the full mode, stepping back
/// to the last accepted text that passes there if needed. A run mismatch needs a GPU, and
/// every accepted candidate must be clean under every compute-sanitizer tool on both binaries.
/// Progress goes to `err`.
ReduceOutcome reduce_source(const ReduceRequest& request, const runners::Toolchain& toolchain,
                            const runners::GpuDiscovery& gpus, std::ostream& err);

/// C-Reduce's protocol: the candidate is written under the original's file name into a fresh
/// directory, and the script runs there with no arguments; exit 0 means interesting.
class ScriptTest {
public:
  /// Throws Error(environment) when the script does not exist or is not executable.
  ScriptTest(const std::filesystem::path& script, std::string file_name, double timeout_seconds);
  bool operator()(const std::string& candidate) const;

private:
  std::filesystem::path script_;
  std::string file_name_;
  double timeout_seconds_;
};

/// The built-in test: the candidate is checked as `cudiff check` would (same configs, the
/// given mode) and must show a finding with the target's key.
class SignatureTest {
public:
  SignatureTest(ReduceTarget target, CheckRequest check, const runners::Toolchain& toolchain,
                const runners::GpuDiscovery& gpus, const ReduceRequest& request);
  /// A necessary condition checked first on one config alone (the fastest in `original`):
  /// its outcome must be the original's, and a rejecting config may only give errors the
  /// target's rejecting side gave. Most candidates fail it, at the cost of one compile.
  void use_prefilter(const CheckRun& original);
  /// The run-mismatch gate: compute-sanitizer (memcheck, initcheck, racecheck, synccheck) must
  /// be clean on both compilers' binaries. Throws Error(environment) when it is missing.
  void use_sanitizer_gate();
  /// undefined_behaviour_warning() for a candidate, with this test's clang arch and limits.
  std::optional<std::string> ub_warning(const std::string& candidate) const;
  bool operator()(const std::string& candidate) const;
  /// `text` written under the original's name into `dir`, and checked (with the sidecar).
  CheckRun check(const std::string& text, const std::filesystem::path& dir) const;

private:
  struct Prefilter {
    runners::Config config;
    oracle::CompileOutcome outcome = oracle::CompileOutcome::accepted;
    std::set<std::string> allowed_error_ids;
  };
  /// The prefilter config's compile, when it passes; none when the candidate fails it.
  std::optional<ConfigCheck> prefilter(const std::filesystem::path& file, const std::filesystem::path& dir,
                                       const std::string& text) const;
  CheckRun check(const std::string& text, const std::filesystem::path& dir, CheckRequest request) const;
  bool sanitizer_clean(const CheckRun& run, const std::string& candidate) const;

  ReduceTarget target_;
  CheckRequest check_;
  const runners::Toolchain& toolchain_;
  const runners::GpuDiscovery& gpus_;
  std::string file_name_;
  std::optional<generator::Sidecar> sidecar_;
  std::optional<Prefilter> prefilter_;
  std::optional<std::filesystem::path> sanitizer_;
};

/// The run-mismatch gate's cheap half, checked before anything is built: clang's front end
/// must accept `text` (written as `file_name`) with the warnings that signal undefined
/// behaviour made errors: a missing return, an uninitialized variable, a constant
/// out-of-bounds index or shift, an unsequenced modification, ... memcheck sees none of
/// these, and deleting a `return` or an initializer is exactly the edit a reducer makes.
/// The first error, or none when the text is clean.
std::optional<std::string> undefined_behaviour_warning(const runners::Toolchain& toolchain, const std::string& text,
                                                       const std::string& file_name, const std::string& arch,
                                                       const runners::Limits& limits);

// ---- a generated program reduced at the IR level ----------------------------------------

/// What the generator needs to make a stored finding's program again.
struct GeneratedOrigin {
  generator::Policy policy = generator::Policy::defaults();
  std::uint64_t seed = 0;
  generator::Size size = generator::Size::small;
  int variant = 0;  ///< the variant of the seed the finding's differing kernel belongs to; 0: the seed's own
};

/// The origin of a stored finding's reproducer when it is the program of one seed (a lone
/// program or a campaign's batch of one) that today's generator makes again byte for byte,
/// with the policy stored with its campaign. Otherwise none, and `why_not` says why.
std::optional<GeneratedOrigin> generated_origin(const triage::Database& db, const triage::StoredFinding& finding,
                                                std::string& why_not);

struct IrReduceRequest {
  GeneratedOrigin origin;
  /// The finding's split of the configs (run_partition) and its reference group: the configs
  /// that print the generator's prediction (a wrong-code finding's "matching").
  RunPartition partition;
  std::vector<std::string> reference;
  CheckRequest check;  ///< configs and limits; the input is each candidate
  std::size_t jobs = 1;
  double time_limit_seconds = 0;  ///< 0: none
  std::function<void(const generator::TestCase&)> on_improvement;
};

struct IrReduction {
  generator::TestCase program;  ///< the smallest program kept, with its prediction
  std::size_t original_lines = 0;
  std::size_t tests = 0, accepted = 0, rounds = 0;
  double seconds = 0;
  bool stopped_early = false;
  std::vector<std::string> log;  ///< the edits accepted, in order
};

/// Reduces the origin's program with generator::ProgramReduction (docs/reducer.md, "Reducing a
/// generated program"). A candidate is kept while, built with every config and run on the
/// first GPU, the reference configs print its prediction, the others another checksum, the
/// configs split as `partition`, and compute-sanitizer (every tool the program needs) is clean
/// on a reference config's binary. Edits are tried `jobs` at a time; the first kept in order
/// wins. Throws Error(environment) without a GPU or compute-sanitizer, Error(usage) when the
/// original does not show the finding.
IrReduction reduce_generated(const IrReduceRequest& request, const runners::Toolchain& toolchain,
                             const runners::GpuDiscovery& gpus, std::ostream& err);

// ---- a bucket's reproducer, reduced and stored ------------------------------------------

/// Whether a bucket of `kind` is found by running binaries: seeing it again needs a GPU.
bool found_by_running(std::string_view kind);

/// How a stored finding is checked again (a bucket's reduction, a recheck): the configs and mode
/// of the campaign that found it, the bucket's stage assumed (these checks are never
/// attributed), a false rejection judged against "must accept" (the stored reproducer has no
/// sidecar), a person's file's limits. The input is left to the caller.
CheckRequest stored_check_request(const triage::Database& db, const triage::Bucket& bucket,
                                  const triage::StoredFinding& finding);

/// What `reduce_bucket` did.
struct BucketReduction {
  triage::Bucket bucket;
  std::size_t original_bytes = 0;
  bool stored = false;             ///< a smaller reproducer was stored
  std::string stored_finding;      ///< its finding id
  bool now_best = false;           ///< it became the bucket's best reproducer
  ReduceRequest request;           ///< as the reduction ran (file, configs, mode...)
  ReduceOutcome outcome;
  /// The IR reduction that ran before the text passes, for a wrong-code finding of a generated
  /// program; else why it did not run (ir_note).
  std::optional<IrReduction> ir;
  std::string ir_note;
};

/// Reduces the best reproducer of the bucket `id` (key, key prefix or number) in the database
/// with the built-in test (its own key, the configs and mode of the campaign that found it)
/// and stores the result as a finding of a campaign of kind "reduce" when it is smaller and
/// shows the key again in the full mode. `request` brings jobs, time limit, schedule and
/// format; the rest is filled here. Throws Error(environment) when there is nothing to reduce,
/// or a run mismatch and no GPU.
BucketReduction reduce_bucket(triage::Database& db, const std::string& id, ReduceRequest request,
                              const runners::Toolchain& toolchain, const runners::GpuDiscovery& gpus,
                              std::ostream& err);

// ---- exported reports, rechecks and bisection --------------------------------------------

/// Beside an exported report (the reproducer at `reproducer`): for a ptxas or device-codegen
/// bucket the guilty config's PTX (`STEM.CONFIG.ptx`: what ptxas is given), or for clang's
/// device code generator its device-side LLVM IR (`STEM.CONFIG.ll`), built with that config's
/// flags. Other stages get nothing; a build that fails gets a line in `notes` and no file.
std::vector<std::filesystem::path> stage_attachments(const triage::Bucket& bucket, const triage::StoredFinding& finding,
                                                     const std::filesystem::path& reproducer,
                                                     const runners::Toolchain& toolchain,
                                                     std::vector<std::string>& notes);

/// What `recheck_bucket` found.
struct Recheck {
  triage::Bucket bucket;
  std::string verdict;  ///< "present", "fixed", "fixed (the reproducer now shows N other findings)", "cannot tell: WHY"
  std::string compilers;  ///< "nvcc 13.0.88, clang 22.1.8"
  bool marked_fixed = false;  ///< the bucket's status went from new or reported to fixed
};

/// The bucket's best reproducer checked again as the campaign that found it checked it, with
/// `toolchain` (the compilers installed now): the verdict and versions are stored with the
/// bucket (`BucketFacts`), and a new or reported bucket whose key is gone is marked fixed.
/// A run finding without a GPU cannot tell.
Recheck recheck_bucket(triage::Database& db, const triage::Bucket& bucket, const runners::Toolchain& toolchain,
                       const runners::GpuDiscovery& gpus);

/// A clang release installed side by side (Debian's /usr/lib/llvm-N).
struct ClangRelease {
  int major = 0;
  std::filesystem::path path;
  bool builds_cuda = false;  ///< builds a small CUDA program against the toolchain's CUDA
  std::string problem;  ///< else its first error
};

/// The clang releases under `llvm_root` (llvm-N/bin/clang++), oldest first, each tried on a
/// small CUDA program with the toolchain's toolkit and the clang-O3 config's flags.
std::vector<ClangRelease> probe_clang_releases(const runners::Toolchain& toolchain,
                                               const std::filesystem::path& llvm_root = "/usr/lib");

/// Since when a clang bug exists: the bucket's reproducer checked with each release of
/// `releases` that builds CUDA (oldest first); "first bad clang N, last good clang M (...)".
/// For an nvcc or ptxas finding, or when no other release builds CUDA against this toolkit,
/// "not bisectable: WHY". Stored with the bucket (`BucketFacts::versions`), never in its key.
std::string bisect_bucket(triage::Database& db, const triage::Bucket& bucket, const runners::Toolchain& toolchain,
                          const runners::GpuDiscovery& gpus, const std::vector<ClangRelease>& releases);

}  // namespace cudiff::pipeline
