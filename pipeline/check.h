// pipeline: the check of one test — a test case in memory (TestInput), what to check
// (CheckRequest), check_test through every config, and what it found (TestCheck).
#pragma once

#include "generator/generator.h"
#include "oracle/oracle.h"
#include "pipeline/limits.h"
#include "pipeline/sanitizer_types.h"
#include "runners/runners.h"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cudiff::pipeline {

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
/// How a check builds its configs (`--build-path`; docs/pipeline.md, "Build paths"). whole:
/// every config builds the whole program. device: where the test allows it
/// (`whole_build_reason`), each front end runs once per level to PTX and ptxas once per config
/// on that PTX; what it does not allow, and configs with no ptxas step of their own
/// (runners::device_buildable), build the whole program.
enum class BuildPath { device, whole };
std::string to_string(BuildPath path);
std::optional<BuildPath> parse_build_path(std::string_view text);

/// Why `input` in `mode` needs the whole program, in a few words; empty when the device path
/// may build it: a generated test whose host side is only the generator's harness (its
/// sidecar lists kernels, and no layout probes, planted probes, edge, extended lambdas or
/// managed memory), in a mode that builds a binary and with nothing to run (`runs`: false),
/// since nothing loads a cubin alone yet.
std::string whole_build_reason(const TestInput& input, runners::Mode mode, bool runs);

struct ConfigCheck {
  runners::CompileResult compile;
  /// The device path: the PTX the config's cubin was assembled from (shared by the configs
  /// whose front end is the same), which the layout and ABI views read; else empty.
  std::filesystem::path ptx;
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

/// What check_test found: the file the compilers compiled, how each config built and ran, the
/// layout and parameter-ABI parts, and the verdict judged from them.
struct TestCheck {
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
  /// The sanitizer gate's outcome, when CheckRequest::gate was set and the mode was run.
  std::optional<GateOutcome> gate;
  /// The request's wall-clock limits of one compile and one run (0: not known); a compile past
  /// its limit was confirmed once with kHangConfirmationFactor times it before it was a hang.
  /// Recorded with a finding (outputs_json), so that repro.sh and a recheck wait as long.
  double compile_seconds = 0, run_seconds = 0;
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
  /// The sanitizer gate (`cudiff check`; mode run only): it runs after judging and before
  /// attribution, so an invalid program's run findings are never attributed. None: no gate here
  /// (a campaign gates a seed alone itself, campaign/batch.cpp).
  std::optional<SanitizerGate> gate;
  /// A reduction of a bucket whose key holds an attributed stage: every finding of the check is
  /// keyed as if it had this stage (`signatures_of`), since a candidate is never attributed
  /// (each attribution is several rebuilds). None: findings are keyed as judged.
  std::optional<std::string> assumed_stage;
  /// In mode run: the GPU's executors (runners::ExecutorPool). None: every binary runs as a
  /// process of its own. Set: a program an executor can load faithfully (executor_can_load) is
  /// built as a shared object and run there; a build that fails, and a run that does not end
  /// cleanly, are redone as an executable and a process, so what is observed is what the
  /// process path observes (docs/pipeline.md, "Executor"). On the device path the cubins are
  /// launched there (without it, in an executor of the check's own; "Build paths").
  std::shared_ptr<runners::ExecutorPool> executor;
  /// whole for every caller but `check` and `fuzz`, whose --build-path defaults to device.
  BuildPath build_path = BuildPath::whole;
};

/// Builds the test with every config in parallel (a compile past its limit is retried once
/// with a longer one before it is called a hang), runs the binaries on the first GPU in mode
/// run, reads the layout views when the sidecar lists probes, and judges. Artifacts go under
/// `workdir`, which the caller owns (they stay there for the caller, e.g. a sanitizer run).
TestCheck check_test(const CheckRequest& request, const runners::Toolchain& toolchain,
                     const runners::GpuDiscovery& gpus, const std::filesystem::path& workdir);

/// The expectation of a test: `request.expected` if set, else its sidecar's, else its
/// `// expected-error: ID` comment's; none for a plain file.
std::optional<oracle::Expectation> expectation_of(const CheckRequest& request);

} // namespace cudiff::pipeline
