// oracle internals: the parts of judge() kept in separate files, and the helpers they share.
#pragma once

#include "oracle/oracle.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cudiff::rules {
struct Rule;
}

namespace cudiff::oracle::detail {

/// Finding summaries are one line for people; longer text is cut (the details keep it all).
inline constexpr std::size_t summary_chars = 200;

/// A finding whose summary is made one line (newlines and tabs become spaces) and shortened.
Finding make_finding(FindingKind kind, std::vector<std::string> configs, std::string_view summary,
                     boost::json::object details);

/// The last path component: diagnostics about the same program come from different temporary
/// directories, so locations compare and print by file name.
std::string file_basename(std::string_view path);

/// "foo.cu:5" (basename), "foo.cu" without a line, "" without a file.
std::string location_text(const Diagnostic& diagnostic);

/// The clean accepts and clean rejects among the compiles (crashes and hangs are findings of
/// their own and say nothing about whether the program is valid).
struct StatusSplit {
  std::vector<const CompileObservation*> accepted;
  std::vector<const CompileObservation*> rejected;
};
StatusSplit split_by_status(const std::vector<CompileObservation>& compiles);
std::vector<std::string> config_names(const std::vector<const CompileObservation*>& compiles);
/// The error ids of the compiles, sorted, without repeats.
std::vector<std::string> sorted_error_ids(const std::vector<const CompileObservation*>& compiles);
/// "error: <message> (file:line)", or "(no error message)".
std::string describe_error(const Diagnostic* error);
/// {"config", "compiler", "first_error"} per compile.
boost::json::array side_entries(const std::vector<const CompileObservation*>& compiles);

/// The spec oracle (judge_expected.cpp): against an Expectation, the compile-status findings —
/// missed_diagnostic for the configs that accept a must-reject program, false_rejection for
/// those that reject a must-accept one (at most one finding of each).
std::vector<Finding> expectation_findings(const std::vector<CompileObservation>& compiles, const Expectation& expected);

/// Run comparison (judge_runs.cpp): at most one run_mismatch finding and at most one hang
/// finding (every run timed out).
std::vector<Finding> run_findings(const std::vector<RunObservation>& runs);
/// The agreement text for runs that all agree ("" when there are none).
std::string run_agreement(const std::vector<RunObservation>& runs);

/// A `checksum <kernel> <value>` line of a generated program's output, split.
struct ChecksumLine {
  std::string kernel;
  std::string value;
};
/// The line's kernel and value; none for any other line.
std::optional<ChecksumLine> checksum_line(std::string_view line);

/// The expected-output oracle (judge_output.cpp): at most one finding, wrong_code (some configs
/// print another checksum than the prediction) or common_wrong_code (every config prints the
/// same other value). Runs that crashed, timed out, exited non-zero or reported a CUDA error
/// are not held to the prediction.
std::vector<Finding> expected_output_findings(const std::vector<RunObservation>& runs,
                                              const std::vector<ExpectedChecksum>& expected);
/// Whether the runs differ only in checksum lines of predicted kernels (every run clean, not
/// truncated, as many lines, every differing line a checksum line of the same predicted
/// kernel): then a wrong-code finding says all there is and no run mismatch is added.
bool prediction_explains(const std::vector<RunObservation>& runs, const std::vector<ExpectedChecksum>& expected);

/// The metamorphic oracle (judge_metamorphic.cpp): at most one finding, naming every config
/// under which a variant kernel prints another checksum than its original while the original
/// prints its prediction (or none is known). A pair whose original is itself off its
/// prediction is left to the wrong-code finding (one cause, one finding).
std::vector<Finding> metamorphic_findings(const std::vector<RunObservation>& runs,
                                          const std::vector<VariantKernel>& variants,
                                          const std::vector<ExpectedChecksum>& expected);
/// The prediction without the variant kernels: they are held to their originals instead.
std::vector<ExpectedChecksum> originals_only(const std::vector<ExpectedChecksum>& expected,
                                             const std::vector<VariantKernel>& variants);

/// Stage-aware rejection (judge_stages.cpp): when every config rejects cleanly, one
/// late_rejection finding when one compiler's front end diagnoses the program and another
/// compiler fails only in a later stage (ptxas, nvlink, the linker, its host compiler).
/// `expected` (when set and must-reject) names the rule.
std::vector<Finding> late_rejection_findings(const std::vector<CompileObservation>& compiles,
                                             const std::optional<Expectation>& expected);
/// The public issue that the compiler of `compiles` (all one compiler) is already reported in
/// for missing `rule`'s diagnostic, when its evidence says `upstream`: {"compiler", "url",
/// "reason"}, which the recorder files as a reported bucket with that link (docs/oracle.md,
/// "Dialect or bug"). None for several compilers or another why.
std::optional<boost::json::object> upstream_report(const std::vector<const CompileObservation*>& compiles,
                                                   const rules::Rule* rule);
/// The stage a clean rejection happened in: "frontend" when any error came from a front end,
/// else the tool of the first error ("ptxas", "nvlink", "linker", "host_compiler", "driver").
std::string rejection_stage(const CompileObservation& compile);

/// Compile-time anomalies (judge_time.cpp): one slow_compile finding per config whose compile
/// took more than options.slow_compile_ratio times the median of the other accepted compiles
/// and more than options.slow_compile_floor_seconds, or that hung while they finished so.
std::vector<Finding> slow_compile_findings(const std::vector<CompileObservation>& compiles,
                                           const JudgeOptions& options);
/// Whether `compile` hung and slow_compile_findings reports it (so no hang finding is added).
bool hang_is_slow_compile(const CompileObservation& compile, const std::vector<CompileObservation>& compiles,
                          const JudgeOptions& options);

/// Warning comparison (judge_warnings.cpp): one warning_mismatch finding per pair of configs
/// whose warnings differ, pairs in config order.
std::vector<Finding> warning_findings(const std::vector<CompileObservation>& compiles);

/// Layout comparison (layout_judge.cpp): one layout_mismatch finding per probed type whose
/// views disagree, in probe order.
std::vector<Finding> layout_findings(const std::vector<LayoutProbe>& probes, const std::vector<LayoutView>& views);
/// "N layout views agree on M types" ("" when there are no views).
std::string layout_agreement(const std::vector<LayoutProbe>& probes, const std::vector<LayoutView>& views);

/// Parameter-ABI comparison (abi_judge.cpp): one abi_mismatch finding per kernel or visible
/// device function whose binding declarations differ between views of one arch and
/// separate-compilation mode that include both compilers. `runs` ("agreed", "differed", "not
/// run") says whether the programs' runs, whose checksums include the parameters' values,
/// agreed.
std::vector<Finding> abi_findings(const std::vector<AbiView>& views, const std::vector<AbiFunctionKinds>& kinds,
                                  const std::string& runs);
/// "parameter declarations agree on N functions" ("" when nothing was compared).
std::string abi_agreement(const std::vector<AbiView>& views);

} // namespace cudiff::oracle::detail
