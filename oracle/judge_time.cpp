// oracle: compile-time anomalies — a config that compiles a program far longer than the others
// (slow_compile), or passes its limit while they finish, named by the sub-command that took the
// time where the compiler reports it (nvcc's `--time` file). The finding's key holds no time:
// a reduction keeps a candidate as long as the ratio holds.
#include "oracle/judge_parts.h"
#include "oracle/lines.h"

#include <algorithm>
#include <charconv>
#include <cstdio>

namespace cudiff::oracle {
namespace {

using boost::json::array;
using boost::json::object;

double median(std::vector<double> values) {
  std::ranges::sort(values);
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

std::string seconds_text(double seconds) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f s", seconds);
  return buffer;
}

std::string ratio_text(double ratio) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1fx", ratio);
  return buffer;
}

/// The other compiles that finished cleanly (accepted), whose time is the yardstick: a
/// rejection stops early and a crash at any point, so neither says how long the program takes.
std::vector<double> others_seconds(const CompileObservation& compile, const std::vector<CompileObservation>& all) {
  std::vector<double> seconds;
  for (const CompileObservation& other : all)
    if (&other != &compile && other.outcome == CompileOutcome::accepted) seconds.push_back(other.seconds);
  return seconds;
}

bool is_slow(const CompileObservation& compile, const std::vector<CompileObservation>& all,
             const JudgeOptions& options) {
  if (compile.outcome != CompileOutcome::accepted && compile.outcome != CompileOutcome::hung) return false;
  const std::vector<double> others = others_seconds(compile, all);
  if (others.empty()) return false;
  return compile.seconds > options.slow_compile_floor_seconds &&
         compile.seconds > options.slow_compile_ratio * median(others);
}

/// The sub-command that took the most time, with its seconds; none without stage times.
std::optional<std::pair<std::string, double>> slowest_tool(const CompileObservation& compile) {
  if (compile.stage_seconds.empty()) return std::nullopt;
  return *std::ranges::max_element(compile.stage_seconds, {}, [](const auto& entry) { return entry.second; });
}

Finding slow_finding(const CompileObservation& compile, const std::vector<CompileObservation>& all) {
  const std::vector<double> others = others_seconds(compile, all);
  const double reference = median(others);
  const bool hung = compile.outcome == CompileOutcome::hung;
  const std::string compiler = runners::to_string(compile.compiler);
  // A hung compile's times stop at the last sub-command that finished: which one hung is not
  // known, so it is named "compile" like a compiler that reports no times.
  const std::optional<std::pair<std::string, double>> tool = hung ? std::nullopt : slowest_tool(compile);
  const Stage stage = tool ? stage_of_tool(tool->first) : Stage::unknown;
  const std::string stage_name = stage == Stage::unknown ? std::string("compile") : to_string(stage);

  std::string summary = "slow compile: " + compile.config + " (" + compiler + ") ";
  if (hung) summary += "hung (stopped after " + seconds_text(compile.seconds) + ")";
  else summary += "took " + seconds_text(compile.seconds);
  if (tool) summary += ", " + seconds_text(tool->second) + " of it in " + tool->first;
  summary += hung ? " while the others finished in " + seconds_text(reference) + " (median)"
                  : ", " + ratio_text(compile.seconds / std::max(reference, 1e-3)) + " the others' median (" +
                        seconds_text(reference) + ")";

  object stages;
  for (const auto& [name, seconds] : compile.stage_seconds) stages[name] = seconds;
  array other_entries;
  for (const CompileObservation& other : all)
    if (&other != &compile)
      other_entries.push_back(
          object{{"config", other.config}, {"outcome", to_string(other.outcome)}, {"seconds", other.seconds}});
  object details{{"config", compile.config},
                 {"compiler", compiler},
                 {"stage", stage_name},
                 {"tool", tool ? tool->first : std::string()},
                 {"hung", hung},
                 {"seconds", compile.seconds},
                 {"others_median_seconds", reference},
                 {"stage_seconds", std::move(stages)},
                 {"others", std::move(other_entries)}};
  return detail::make_finding(FindingKind::slow_compile, {compile.config}, summary, std::move(details));
}

/// "gcc (preprocessing 4)" -> "gcc": the tool of one of nvcc's phases.
std::string tool_of_phase(std::string_view phase) {
  phase = trim(phase);
  return std::string(trim(phase.substr(0, phase.find(" ("))));
}

std::optional<double> number(std::string_view text) {
  text = trim(text);
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

} // namespace

std::vector<std::pair<std::string, double>> read_nvcc_times(std::string_view csv) {
  std::vector<std::pair<std::string, double>> times;
  detail::for_each_line(csv, [&](std::string_view line) {
    const std::vector<std::string> fields = split(line, ',');
    if (fields.size() < 8 || trim(fields[0]) == "source file name") return;
    const std::string tool = tool_of_phase(fields[1]);
    const std::optional<double> value = number(fields[fields.size() - 2]);
    const std::string_view unit = trim(fields.back());
    if (tool.empty() || tool == "nvcc" || !value || *value < 0) return;
    const double scale = unit == "ms" ? 1e-3 : unit == "us" ? 1e-6 : unit == "s" ? 1.0 : -1.0;
    if (scale < 0) return;
    const auto entry = std::ranges::find(times, tool, [](const auto& time) { return time.first; });
    if (entry == times.end()) times.emplace_back(tool, *value * scale);
    else entry->second += *value * scale;
  });
  return times;
}

Stage stage_of_tool(std::string_view tool) {
  if (tool == "cudafe++") return Stage::frontend;
  if (tool == "cicc") return Stage::device_codegen;
  if (tool == "ptxas") return Stage::ptxas;
  if (tool == "fatbinary" || tool == "nvlink" || tool == "ld") return Stage::linker;
  if (tool == "gcc" || tool == "g++" || tool == "cc1plus" || tool == "host compiler") return Stage::host_compiler;
  return Stage::unknown;
}

namespace detail {

std::vector<Finding> slow_compile_findings(const std::vector<CompileObservation>& compiles,
                                           const JudgeOptions& options) {
  std::vector<Finding> findings;
  for (const CompileObservation& compile : compiles)
    if (is_slow(compile, compiles, options)) findings.push_back(slow_finding(compile, compiles));
  return findings;
}

bool hang_is_slow_compile(const CompileObservation& compile, const std::vector<CompileObservation>& compiles,
                          const JudgeOptions& options) {
  return compile.outcome == CompileOutcome::hung && is_slow(compile, compiles, options);
}

} // namespace detail
} // namespace cudiff::oracle
