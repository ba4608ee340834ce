// `cudiff check`: what one check of one file did, and how it is shown (table or JSON).
#pragma once

#include "cli/options.h"
#include "oracle/oracle.h"
#include "runners/runners.h"
#include "triage/triage.h"

#include <optional>
#include <string>
#include <vector>

namespace cudiff::cli {

/// Everything one config went through: build, classification, and the run if there was one.
struct ConfigCheck {
  runners::CompileResult compile;
  oracle::CompileObservation observation;
  std::optional<runners::SubprocessResult> run_process;
  std::optional<oracle::RunObservation> run;
  std::string note;  ///< e.g. why a slow compile is not a hang
};

/// The layout part of a check, when a sidecar (`<stem>.json` beside the file) lists
/// "layout_probes": the probes and the host and device views of every config (docs/architecture.md,
/// "Oracles" 5).
struct LayoutCheck {
  std::filesystem::path sidecar;
  std::vector<oracle::LayoutProbe> probes;
  std::vector<oracle::LayoutView> views;  ///< per config: device (from PTX), then host (--layout)
  std::vector<std::string> notes;         ///< what could not be read, and why
};

struct CheckRun {
  std::filesystem::path file;
  runners::Mode mode = runners::Mode::binary;
  std::vector<std::string> notes;  ///< how the mode was chosen, why nothing ran...
  runners::Toolchain toolchain;
  runners::GpuDiscovery gpus;
  std::vector<ConfigCheck> configs;
  std::optional<LayoutCheck> layout;  ///< set when the file has a sidecar with layout probes
  std::optional<oracle::Expectation> expected;  ///< what the verdict was judged against
  oracle::Verdict verdict;
};

/// What to check: one file, how far to build it, with which configs and limits.
struct CheckRequest {
  std::filesystem::path file;
  std::optional<runners::Mode> mode;  ///< none: run with a GPU, else binary (object without main)
  std::vector<runners::Config> configs;
  bool warnings = false;  ///< warnings only one compiler emits are findings
  runners::Limits compile_limits;
  runners::Limits run_limits;
  /// What the file must do (the spec oracle); none: read from the sidecar's "expected_verdict"
  /// and "edge", else from a `// expected-error: ID` comment, else nothing is expected.
  std::optional<oracle::Expectation> expected;
};

/// The check pipeline of `cudiff check` (docs/cli.md): builds the file with every config in
/// parallel (a compile past its limit is retried once with a longer one before it is called a
/// hang), runs the binaries on the first GPU in mode run, reads the layout views when a sidecar
/// lists probes, and judges. Artifacts go under `workdir`, which the caller owns (they stay
/// there for the caller, e.g. a sanitizer run). Records nothing and prints nothing; safe to call
/// from several threads at once with different workdirs.
CheckRun check_file(const CheckRequest& request, const runners::Toolchain& toolchain, const runners::GpuDiscovery& gpus,
                    const std::filesystem::path& workdir);

/// For a file with a sidecar listing layout probes (else nothing): the device views, read
/// from each accepted config's PTX (the artifact in ptx mode, else a PTX compile into
/// `workdir`), and the host views, from each built binary run as `BINARY --layout` (which
/// touches no CUDA API, so no GPU is needed). Adds the probes and views to `observations`.
std::optional<LayoutCheck> check_layout(const CheckRun& run, const runners::Limits& compile_limits,
                                        const runners::Limits& run_limits, const std::filesystem::path& workdir,
                                        oracle::Observations& observations);
/// The layout section of the table: one row per probed property, one column per view.
std::string render_layout(const LayoutCheck& layout);
boost::json::value layout_json(const LayoutCheck& layout);

std::string render_check_table(const CheckRun& run);
boost::json::value check_json(const CheckRun& run);

/// What a bug report needs of a check: commands, what each compiler and program printed
/// (outputs capped at 64 KiB per stream), versions, the GPU note.
boost::json::object outputs_json(const CheckRun& run);
/// The stderr of the compile a crash finding is about (its stack frames refine the key).
std::string crash_output(const CheckRun& run, const oracle::Finding& finding);
std::string host_name();

/// `cudiff check --db FILE --known FILE` (cli/check_record.cpp).
std::vector<OptionSpec> check_record_options();
/// Where a check's findings go: the database and known differences named by --db/--known,
/// opened before anything is compiled, so a bad file fails at once and costs no compile.
struct CheckRecorder {
  std::optional<triage::Database> db;
  triage::KnownDifferences known;
  bool active = false;  ///< --db or --known given
};
/// Throws Error(environment) with one line for a database or known-differences file that
/// cannot be used; the files are left untouched.
CheckRecorder open_check_recorder(const ParsedArgs& args);
/// With --db: records the check in the triage database as a campaign of its own (kind
/// "check", one test, its findings), in one transaction. With --known: findings matching a
/// known difference are labelled known (summary prefix, details "triage"); they are still
/// findings, so the exit status stays 1. Adds one note per finding naming its bucket.
void record_check(CheckRecorder& recorder, CheckRun& run);

/// The expectation of a file: `request.expected` if set, else its sidecar's, else its
/// `// expected-error: ID` comment's; none for a plain file. A sidecar that is not JSON is
/// ignored here (check_layout reports it).
std::optional<oracle::Expectation> expectation_of(const CheckRequest& request);

/// True when the source defines main(); otherwise it is checked as an object file rather
/// than reported as two failed links. A text scan with comments removed: good enough to
/// choose a mode, and a wrong guess only shows as a link error on both sides.
bool defines_main(std::string_view source);

} // namespace cudiff::cli
