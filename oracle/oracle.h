// oracle: reads what the runners saw (compiler diagnostics, crash signs, program output) and
// judges it. judge() is a pure function from observations to a Verdict.
//
// Contract: parsing never throws on any input (compiler output is untrusted text); the same
// diagnostic about different code gets the same id; a crash is never folded into "both
// rejected"; both compilers rejecting cleanly is agreement.
#pragma once

#include "runners/runners.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cudiff::oracle {

// ---- diagnostics ------------------------------------------------------------------------

enum class Severity { note, remark, warning, error, fatal };
std::string to_string(Severity severity);

/// The program that printed a diagnostic.
enum class Tool {
  frontend,       ///< nvcc's front end (cudafe++/EDG) or clang's front end
  /// nvcc's device code generator (cicc, NVVM), which prints `FILE(LINE): Error: MSG` in EDG's
  /// form but after the front end accepted the program (a kernel's parameters overflowing the
  /// parameter space). clang's code generator errors are crashes (classify.cpp).
  device_codegen,
  host_compiler,  ///< the host compiler nvcc runs (g++), in gcc's file:line:col format
  ptxas,
  nvlink,
  linker,         ///< ld, clang-linker-wrapper, fatbinary
  driver,         ///< the nvcc or clang driver itself (bad flags, failed sub-commands)
};
std::string to_string(Tool tool);

/// One diagnostic, normalized (docs/architecture.md, "Oracles").
struct Diagnostic {
  Severity severity = Severity::error;
  /// nvcc's warning number ("20208-D"), clang's/gcc's warning flag ("-Wunused-variable"), or
  /// else the message template (see message_template).
  std::string id;
  std::string file;  ///< as printed; empty when the diagnostic has no location
  int line = 0;
  int column = 0;    ///< 0 when the compiler prints none (nvcc)
  std::string message;  ///< the message text, without location, severity and [-Wflag]
  Tool tool = Tool::frontend;
  bool operator==(const Diagnostic&) const = default;
};

/// The message with quoted names and types ('x', "x", `x'), and numbers, masked, so that the
/// same diagnostic about different code gives the same text.
std::string message_template(std::string_view message);

/// Every diagnostic in a compiler's stderr, notes and warnings included, in order. Lines that
/// are not diagnostics (source excerpts, carets, summaries) are skipped.
std::vector<Diagnostic> parse_diagnostics(runners::CompilerKind compiler, std::string_view text);

// ---- one compile, classified ------------------------------------------------------------

/// A sign that some stage of a compiler died rather than diagnosed.
struct Crash {
  std::string stage;    ///< "cicc", "cudafe++", "ptxas", "nvlink", "clang", "clang-linker-wrapper", ...
  std::string reason;   ///< "signal 11", "assertion", "internal error", "backend error", "exit 134", ...
  std::string excerpt;  ///< the line(s) that show it, verbatim, for people
};

enum class CompileOutcome { accepted, rejected, crashed, hung };
std::string to_string(CompileOutcome outcome);

struct CompileObservation {
  std::string config;
  runners::CompilerKind compiler = runners::CompilerKind::nvcc;
  CompileOutcome outcome = CompileOutcome::accepted;
  std::vector<Diagnostic> diagnostics;
  std::optional<Crash> crash;  ///< set when outcome == crashed
  double seconds = 0;
  /// Seconds per sub-command where the compiler reports them (nvcc's `--time` file:
  /// "cudafe++", "cicc", "ptxas", "fatbinary", "gcc", "nvlink", ...; read_nvcc_times), in the
  /// order they ran; empty when it does not.
  std::vector<std::pair<std::string, double>> stage_seconds;
  /// The first error (or fatal) diagnostic, if any.
  const Diagnostic* first_error() const;
};

/// Parses and classifies one compile. Crash signs win over everything: a compiler that
/// prints errors and then dies has crashed. A non-zero exit with no error diagnostic and no
/// crash sign is a crash ("exit N without a diagnostic"); a timeout is `hung`.
CompileObservation observe_compile(const runners::CompileResult& result);

/// The sub-commands and their seconds in the CSV nvcc's `--time FILE` writes (header
/// "source file name , phase name , arch , tool, metric , unit", one row per sub-command;
/// rows of several compiles may follow one another). A phase's tool is named as people know
/// it ("cudafe++", "cicc", "ptxas", "fatbinary", the host compiler's "gcc", "nvlink"); nvcc's
/// own row for the whole compile is left out. Never throws; text that is not such a file
/// gives nothing.
std::vector<std::pair<std::string, double>> read_nvcc_times(std::string_view csv);

// ---- one run ----------------------------------------------------------------------------

struct RunObservation {
  std::string config;
  int exit_code = -1;
  int signal = 0;
  bool timed_out = false;
  std::vector<std::string> output_lines;  ///< stdout, line by line
  std::vector<std::string> cuda_errors;   ///< lines of stdout/stderr that report a CUDA error
  bool output_truncated = false;
  double seconds = 0;
  std::string status_text;  ///< "exit 0", "signal 6 (SIGABRT)", ...
};

RunObservation observe_run(const std::string& config, const runners::SubprocessResult& result);

// ---- layout (docs/architecture.md, "Oracles" 5) ------------------------------------------------------

/// One probed type, as a generated program's sidecar describes it (the probe protocol in
/// generator/layout/layout.h; pipeline::layout_probes_of reads it from the sidecar).
struct LayoutProbe {
  std::string type;
  std::string array;                    ///< "cudiff_layout_<T>"
  std::vector<std::string> properties;  ///< "sizeof", "alignof", "offsetof.<member>", ...
  std::map<std::string, std::string> member_kinds;  ///< member -> "integer", "long double", ...
};

enum class LayoutSide { host, device };
std::string to_string(LayoutSide side);

/// What one config's compiler says about the probed types on one side: type -> property ->
/// value. A type or property it has no value for is simply absent.
struct LayoutView {
  std::string config;
  runners::CompilerKind compiler = runners::CompilerKind::nvcc;
  LayoutSide side = LayoutSide::host;
  std::map<std::string, std::map<std::string, std::uint64_t>> values;
  std::string problem;  ///< why the view is empty or partial ("" when read in full)
};

/// Every `cudiff_layout_*` array defined in PTX text from nvcc or clang, as 64-bit values:
/// byte arrays (`.b8`, as both compilers print them) are read little-endian, initializers
/// cut short (trailing zeros are omitted) or absent (all zero) are zero-filled, declarations
/// in debug sections and `.extern` ones are ignored. Never throws.
std::map<std::string, std::vector<std::uint64_t>> read_ptx_layout(std::string_view ptx);

/// What a compiler's PTX shows of the code it emitted (feedback for guided generation, issue
/// 8): each instruction kind (the opcode with all its modifiers, "ld.global.nc.v4.u32"; guards
/// and operands dropped) and each directive or state space ("directive .maxntid", "space
/// .shared"), with how often it occurs.
struct PtxFeatures {
  std::map<std::string, std::uint32_t> instructions;
  std::map<std::string, std::uint32_t> directives;
};
/// Reads PTX text statement by statement (';', '{' and '}' end one; comments, labels and
/// initializer lists are skipped). Never throws; text that is not PTX gives few or no kinds.
PtxFeatures read_ptx_features(std::string_view ptx);

// ---- parameter ABI (docs/oracle.md, "Parameter ABI") ----------------------------------

/// One `.param` of a PTX function header: a parameter or a return value, as declared.
struct PtxParam {
  std::string name;              ///< as written ("_Z3fooi_param_0", "func_retval0"); never compared
  std::string space = ".param";  ///< ".param", or ".reg" in old-style headers
  std::string type;              ///< ".b8", ".u32", ".f64"...; "" when the reader knows none
  std::uint32_t element_bytes = 0;  ///< the type's size (".v2"/".v4" included); 0 when unknown
  std::uint64_t count = 1;          ///< array elements; 1 for a scalar, 0 for `[]`
  bool array = false;               ///< declared with `[N]`
  std::uint32_t alignment = 0;      ///< `.align N` before the type, else the natural one (element_bytes)
  bool explicit_alignment = false;
  /// Words after the type: ".ptr", ".global", ".align 1" (after .ptr: the pointee's alignment).
  std::vector<std::string> attributes;
  std::string declaration;  ///< the tokens as written, the name left out: ".param .align 8 .b8 [16]"
  std::uint64_t bytes() const { return std::uint64_t{element_bytes} * count; }
};

/// How a PTX function is declared: `.visible`, `.weak`, `.extern`, `.common`, or none of them
/// (internal: only its own module calls it, so its compiler may change its signature freely).
enum class PtxLinkage { internal, visible, weak, external, common };
std::string to_string(PtxLinkage linkage);

struct PtxFunction {
  std::string name;     ///< the symbol, mangled as the compiler wrote it
  bool kernel = false;  ///< `.entry` (else `.func`)
  PtxLinkage linkage = PtxLinkage::internal;
  bool defined = false;  ///< has a body (else a declaration ended by ';')
  std::vector<PtxParam> params;
  std::vector<PtxParam> returns;  ///< `.func`'s `(.param ... func_retval0)`; empty for void
};

/// Every `.entry` and `.func` header at the top level of PTX text from nvcc or clang, in order:
/// definitions, forward declarations and `.extern` declarations. A name declared and then
/// defined appears once, as the definition. The `.param` variables of call sites and
/// `.callprototype` lines inside bodies are not headers and are skipped. Never throws.
std::vector<PtxFunction> read_ptx_functions(std::string_view ptx);

/// One config's parameter declarations, from its PTX.
struct AbiView {
  std::string config;
  runners::CompilerKind compiler = runners::CompilerKind::nvcc;
  std::string arch;                   ///< only views of one arch are compared
  bool separate_compilation = false;  ///< -rdc / -fgpu-rdc: only views alike in this are compared
  std::vector<PtxFunction> functions;
  std::string problem;  ///< why the view is empty ("" when read)
};

/// What a generated program says of one of its functions (the sidecar's "abi_functions"):
/// its qualified name and the source type's kind of each parameter and of the result.
struct AbiFunctionKinds {
  std::string qualified_name;  ///< "cudiff_s7::t0::cudiff_abi_0": namespaces, then the name
  bool kernel = false;
  std::vector<std::string> params;  ///< "alignas struct", "vector", "pointer"... in order
  std::string result;               ///< "" for void
};

/// The device view of one config from its PTX, through the probes' arrays and properties.
LayoutView device_layout_view(const std::string& config, runners::CompilerKind compiler, std::string_view ptx,
                              const std::vector<LayoutProbe>& probes);
/// The host view of one config from a program's output: its `layout <T> <property> <value>`
/// lines (other lines are ignored).
LayoutView host_layout_view(const std::string& config, runners::CompilerKind compiler, std::string_view output);

// ---- judging ----------------------------------------------------------------------------

/// missed_diagnostic: a config accepts a program that must be rejected (an E rule of the rules
/// catalog is broken) while another rejects it, and the accepting compiler does not document
/// the rule as relaxed (else dialect_difference; every config accepting is missed_by_all);
/// false_rejection: a config rejects a program that must be accepted (a generated one). These
/// replace compile_status_mismatch when the observations carry an Expectation.
enum class FindingKind {
  compile_status_mismatch,
  crash,
  hang,
  run_mismatch,
  warning_mismatch,
  layout_mismatch,
  missed_diagnostic,
  false_rejection,
  /// A config's output differs from what the generator's interpreter predicts (expected
  /// output oracle); other configs may match it.
  wrong_code,
  /// Every config prints the same output and all of it differs from the prediction: a bug
  /// common to every config (the shared ptxas, the driver) or an interpreter defect.
  common_wrong_code,
  /// A missed diagnostic for a rule the accepting compiler documents as relaxed or as an
  /// extension (its CUDA dialect): known by default, shown apart.
  dialect_difference,
  /// Every config accepts a program that breaks an E rule.
  missed_by_all,
  /// Every config rejects, but in different stages: one front end diagnoses the program, the
  /// other compiler accepts it there and fails later (ptxas, backend, linker).
  late_rejection,
  /// One config compiles far longer than the others (or passes its limit while they finish).
  slow_compile,
  /// The .param declarations of a kernel or device function differ between the compilers' PTX.
  abi_mismatch,
  /// A variant of a generated program (EMI dead code, live-code rewrites) prints another
  /// checksum than its original under the same config, while the original prints what the
  /// interpreter predicts (docs/oracle.md, "Metamorphic"), even when every config agrees.
  metamorphic,
};
std::string to_string(FindingKind kind);
/// The inverse of to_string; none for a name that is not a kind.
std::optional<FindingKind> parse_finding_kind(std::string_view name);
/// Whether findings of this kind show only when the binaries run (run_mismatch, wrong_code,
/// common_wrong_code, metamorphic): they need a GPU, name the kernels whose checksum lines
/// differ, and pass the compute-sanitizer gate before they are filed. The one definition every
/// stage uses.
bool is_run_kind(FindingKind kind);
/// is_run_kind of a stored kind name (false for a name that is not a kind).
bool is_run_kind(std::string_view kind_name);

/// The part of a compiler's pipeline a finding is attributed to (docs/oracles.md, "Stages"),
/// by rebuilding with stages swapped (pipeline::attribute_stage) or by the tool that spoke.
enum class Stage {
  unknown,         ///< not attributed (yet)
  frontend,        ///< the front end's diagnostics (cudafe++/EDG, clang Sema)
  device_codegen,  ///< the device front and middle end emitting PTX (cicc, clang + LLVM NVPTX)
  ptxas,           ///< PTX to SASS (the same PTX differs between ptxas -O0 and -O3)
  host_compiler,   ///< host code (g++ under nvcc, clang's host side)
  linker,          ///< nvlink, fatbinary, clang-linker-wrapper, ld (separate compilation)
  driver_jit,      ///< the driver's own PTX compiler (PTX-only fat binaries)
  nvvm,            ///< nvcc's optimizer in cicc (NVVM): wrong PTX that cicc -O0 does not emit
};
std::string to_string(Stage stage);
std::optional<Stage> parse_stage(std::string_view name);
/// The Stage a compiler sub-command belongs to (read_nvcc_times' names): cudafe++ -> frontend,
/// cicc -> device-codegen, ptxas -> ptxas, fatbinary/nvlink/ld -> linker, gcc/g++/cc1plus ->
/// host-compiler; anything else unknown.
Stage stage_of_tool(std::string_view tool);

struct Finding {
  FindingKind kind = FindingKind::compile_status_mismatch;
  std::vector<std::string> configs;  ///< the configs involved
  std::string summary;               ///< one line for people
  boost::json::object details;       ///< everything that explains it, for --json and triage
};

struct Verdict {
  std::vector<Finding> findings;
  std::string agreement;  ///< when no findings: "all accept", "none accepts", "all outputs equal"...
  bool agree() const { return findings.empty(); }
  /// One line: "agree: ..." or "DISCREPANCY: <first finding>" (+ "and N more").
  std::string headline() const;
};

/// What the rules say a program must do (the spec oracle): generated programs must be accepted;
/// edge programs (one planted violation of an E rule) and files marked `// expected-error: ID`
/// must be rejected. A sidecar's expected verdict and edge give one (pipeline::expectation_of).
struct Expectation {
  bool reject = false;
  std::string rule_id;  ///< reject: the rule the program breaks; accept: the rule it exercises, if one
  int line = 0;         ///< reject: the offending line, 1-based (0: not known)
  bool operator==(const Expectation&) const = default;
};

/// From the first `// expected-error: ID` comment of the source (clang -verify's marker with a
/// rule id); none when there is none. Never throws.
std::optional<Expectation> expectation_from_source(std::string_view source);
boost::json::value to_json(const Expectation& expectation);

/// What the generator's interpreter predicts one kernel prints (the expected-output oracle):
/// the program's `checksum <kernel> <16 hex digits>` line must carry exactly this value.
struct ExpectedChecksum {
  std::string kernel;    ///< as the checksum line names it: "kernel_0", in a batch "s<seed>/kernel_0"
  std::string checksum;  ///< 16 hex digits, compared with the printed value as text
  bool operator==(const ExpectedChecksum&) const = default;
};

/// A kernel of a variant and the same kernel of its original, in one program (a batch that
/// holds both, generator::generate_batch with variants): the two must print the same checksum.
struct VariantKernel {
  std::string kernel;    ///< "s<seed>v<j>/kernel_N"
  std::string original;  ///< "s<seed>/kernel_N"
  std::vector<std::string> transforms = {};  ///< what the variant applied, for people
  bool operator==(const VariantKernel&) const = default;
};

struct Observations {
  std::vector<CompileObservation> compiles;  ///< one per config, in config order
  std::vector<RunObservation> runs;          ///< for the configs that were built and run
  std::vector<LayoutProbe> layout_probes;    ///< from the sidecar, when there is one
  std::vector<LayoutView> layouts;           ///< host and device views of the configs built
  std::optional<Expectation> expected;       ///< when set, compiles are judged against it (spec oracle)
  /// The interpreter's prediction per kernel (a generated program's sidecar, all of a batch's
  /// kernels); every run is compared with it. Empty: no prediction, runs are only compared
  /// with each other.
  std::vector<ExpectedChecksum> expected_checksums = {};
  std::vector<AbiView> abi_views = {};           ///< parameter declarations per config, when read
  std::vector<AbiFunctionKinds> abi_kinds = {};  ///< from the sidecar, when it has them
  /// Variant kernels paired with their originals' (metamorphic oracle). A variant kernel is
  /// compared with its original, not with the prediction: see docs/oracle.md, "Metamorphic".
  std::vector<VariantKernel> variant_kernels = {};
};

struct JudgeOptions {
  bool warnings = false;  ///< warnings only one compiler emits become findings
  /// slow_compile: a compile is slow when it takes more than this many times the median of
  /// the other accepted compiles of the program (docs/oracle.md, "Compile time", says how the
  /// defaults were measured) ...
  double slow_compile_ratio = 8;
  /// ... and more than this many seconds (so that 0.1 s against 1.5 s is not a finding).
  double slow_compile_floor_seconds = 20;
};

/// Pure: the same observations always give the same verdict.
Verdict judge(const Observations& observations, const JudgeOptions& options);

boost::json::value to_json(const Diagnostic& diagnostic);
boost::json::value to_json(const CompileObservation& observation);
boost::json::value to_json(const RunObservation& observation);
boost::json::value to_json(const Verdict& verdict);
/// {"type", "array", "properties"}.
boost::json::value to_json(const LayoutProbe& probe);
/// {"config", "compiler", "side", "values": {type: {property: value}}, "problem"}.
boost::json::value to_json(const LayoutView& view);

// ---- summaries for people (`cudiff check`'s table) -----------------------------------------

/// A compile in one cell: the crash (stage, reason), else the first error, or when there is
/// none the first warning, with its file name and line and "(+N more)"; "-" for neither.
std::string diagnostics_summary(const CompileObservation& observation);
/// A run in one cell: its status and how many lines it printed, the first of them, and the
/// first CUDA error.
std::string run_summary(const RunObservation& run);
/// One row per probed property (type, property, member kind) and one column per view, its
/// value there or "-".
std::string layout_table(const std::vector<LayoutProbe>& probes, const std::vector<LayoutView>& views);

} // namespace cudiff::oracle
