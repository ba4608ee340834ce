// oracle: the run side of judge() — groups runs by behaviour and names the first difference.
#include "oracle/judge_parts.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>

namespace cudiff::oracle::detail {
namespace {

using boost::json::array;
using boost::json::object;

// Output lines quoted in a summary are cut so that both fit in one summary line.
constexpr std::size_t quoted_line_chars = 70;

using Group = std::vector<const RunObservation*>;

// A timed-out run was killed at an arbitrary point: its exit status is our kill signal and
// its partial output depends on timing and buffering, so only "timed out" is compared.
bool same_behaviour(const RunObservation& a, const RunObservation& b) {
  if (a.timed_out || b.timed_out) return a.timed_out == b.timed_out;
  return a.exit_code == b.exit_code && a.signal == b.signal && a.output_lines == b.output_lines &&
         a.cuda_errors == b.cuda_errors;
}

// Groups in order of their first member, members in run (config) order.
std::vector<Group> group_runs(const std::vector<RunObservation>& runs) {
  std::vector<Group> groups;
  for (const RunObservation& run : runs) {
    auto group = std::ranges::find_if(groups,
                                      [&](const Group& candidate) { return same_behaviour(*candidate.front(), run); });
    if (group == groups.end()) {
      groups.push_back({&run});
    } else {
      group->push_back(&run);
    }
  }
  return groups;
}

std::vector<std::string> group_configs(const Group& group) {
  std::vector<std::string> configs;
  for (const RunObservation* run : group) configs.push_back(run->config);
  return configs;
}

std::string group_label(const Group& group) { return join(group_configs(group), "/"); }

/// The index of the first line where `a` and `b` differ (a line missing on one side counts),
/// or nullopt when they are equal.
std::optional<std::size_t> first_differing(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  const auto [in_a, in_b] = std::ranges::mismatch(a, b);
  if (in_a == a.end() && in_b == b.end()) return std::nullopt;
  return static_cast<std::size_t>(in_a - a.begin());
}

boost::json::value line_or_null(const std::vector<std::string>& lines, std::size_t index) {
  return index < lines.size() ? boost::json::value(lines[index]) : boost::json::value(nullptr);
}

std::string quoted(const std::vector<std::string>& lines, std::size_t index) {
  if (index >= lines.size()) return "(no line)";
  return "'" + shorten(lines[index], quoted_line_chars) + "'";
}

bool exited(const RunObservation& run) { return !run.timed_out && run.signal == 0; }

// The first way in which two runs differ, in the order a person would look: how the process
// ended, then CUDA errors (the likeliest cause of what follows), then the exit code, then
// the output. Returns the aspect name and the summary.
std::pair<std::string, std::string> first_difference(const Group& first, const Group& second) {
  const RunObservation& a = *first.front();
  const RunObservation& b = *second.front();
  const std::string name_a = group_label(first);
  const std::string name_b = group_label(second);
  if (!exited(a) || !exited(b)) {
    if (a.timed_out != b.timed_out || a.signal != b.signal) {
      return {"status", "status: " + name_a + " " + a.status_text + ", " + name_b + " " + b.status_text};
    }
  }
  if (const auto index = first_differing(a.cuda_errors, b.cuda_errors)) {
    if (a.cuda_errors.empty()) return {"cuda_errors", "CUDA error only in " + name_b + ": " + b.cuda_errors.front()};
    if (b.cuda_errors.empty()) return {"cuda_errors", "CUDA error only in " + name_a + ": " + a.cuda_errors.front()};
    return {"cuda_errors", "CUDA error: " + name_a + " " + quoted(a.cuda_errors, *index) + ", " + name_b + " " +
                               quoted(b.cuda_errors, *index)};
  }
  if (a.exit_code != b.exit_code) {
    return {"exit_code", "exit code: " + name_a + " " + std::to_string(a.exit_code) + ", " + name_b + " " +
                             std::to_string(b.exit_code)};
  }
  const std::size_t index = first_differing(a.output_lines, b.output_lines).value_or(0);
  return {"output", "output line " + std::to_string(index + 1) + ": " + name_a + " " + quoted(a.output_lines, index) +
                        ", " + name_b + " " + quoted(b.output_lines, index)};
}

array to_strings(const std::vector<std::string>& strings) {
  array values;
  for (const std::string& text : strings) values.push_back(boost::json::value(text));
  return values;
}

// One group in the details; groups after the first say where their output first departs
// from the first group's (1-based line number, both lines; null where a side has no line).
object group_details(const Group& group, const Group& reference) {
  const RunObservation& run = *group.front();
  object entry{{"configs", to_strings(group_configs(group))},
               {"status", run.status_text},
               {"exit_code", run.exit_code},
               {"signal", run.signal},
               {"timed_out", run.timed_out},
               {"output_line_count", static_cast<std::int64_t>(run.output_lines.size())},
               {"cuda_errors", to_strings(run.cuda_errors)}};
  if (&group == &reference) return entry;
  const auto& lines = run.output_lines;
  const auto& reference_lines = reference.front()->output_lines;
  if (const auto index = first_differing(reference_lines, lines)) {
    entry["first_differing_line"] = static_cast<std::int64_t>(*index + 1);
    entry["line"] = line_or_null(lines, *index);
    entry["reference_line"] = line_or_null(reference_lines, *index);
  } else {
    entry["first_differing_line"] = nullptr;
  }
  return entry;
}

/// The kernels of the checksum lines where each group's output first departs from the first
/// group's: which tests of a batch a run mismatch is about, read from the program's output
/// protocol (a campaign maps them to its tests through the batch's sidecar).
array differing_kernels(const std::vector<Group>& groups) {
  std::set<std::string> kernels;
  const auto& reference = groups[0].front()->output_lines;
  for (std::size_t g = 1; g < groups.size(); ++g) {
    const auto& lines = groups[g].front()->output_lines;
    const auto index = first_differing(reference, lines);
    if (!index) continue;
    for (const auto* side : {&reference, &lines})
      if (*index < side->size())
        if (const auto checksum = checksum_line((*side)[*index])) kernels.insert(checksum->kernel);
  }
  array names;
  for (const std::string& kernel : kernels) names.push_back(boost::json::value(kernel));
  return names;
}

Finding mismatch_finding(const std::vector<RunObservation>& runs, const std::vector<Group>& groups) {
  const auto [aspect, summary] = first_difference(groups[0], groups[1]);
  array group_entries;
  for (const Group& group : groups) group_entries.push_back(group_details(group, groups[0]));
  object details{{"first_difference", aspect},
                 {"groups", std::move(group_entries)},
                 {"differing_kernels", differing_kernels(groups)}};
  std::vector<std::string> truncated;
  for (const RunObservation& run : runs) {
    if (run.output_truncated) truncated.push_back(run.config);
  }
  if (!truncated.empty()) {
    details["output_truncated"] = to_strings(truncated);
    details["truncation_note"] = "output was cut at the capture limit; a difference past the cut cannot be seen";
  }
  std::vector<std::string> configs;
  for (const RunObservation& run : runs) configs.push_back(run.config);
  return make_finding(FindingKind::run_mismatch, std::move(configs), summary, std::move(details));
}

// Every run timing out is agreement in behaviour, but a generated program must end, so it is
// reported (as a hang) rather than passed: a generator defect, a program that loops, or a
// miscompile on every config. One run timing out while others finish is a run mismatch
// instead (its status differs), not a hang finding.
Finding all_timed_out_finding(const std::vector<RunObservation>& runs) {
  std::vector<std::string> configs;
  array seconds;
  for (const RunObservation& run : runs) {
    configs.push_back(run.config);
    seconds.push_back(boost::json::value(run.seconds));
  }
  const std::string summary = "all runs timed out (" + join(configs, ", ") +
                              "): the program never ends under any config (generator defect or "
                              "looping program?)";
  object details{{"stage", "run"}, {"configs", to_strings(configs)}, {"seconds", std::move(seconds)}};
  return make_finding(FindingKind::hang, std::move(configs), summary, std::move(details));
}

std::string count_text(std::size_t count, std::string_view noun) {
  return std::to_string(count) + " " + std::string(noun) + (count == 1 ? "" : "s");
}

} // namespace

std::vector<Finding> run_findings(const std::vector<RunObservation>& runs) {
  if (runs.empty()) return {};
  const std::vector<Group> groups = group_runs(runs);
  if (groups.size() > 1) return {mismatch_finding(runs, groups)};
  if (runs.front().timed_out) return {all_timed_out_finding(runs)};
  return {};
}

std::string run_agreement(const std::vector<RunObservation>& runs) {
  if (runs.empty()) return {};
  const RunObservation& run = runs.front();
  std::vector<std::string> facts;
  if (run.signal != 0 || run.exit_code != 0) facts.push_back(run.status_text);
  facts.push_back(count_text(run.output_lines.size(), "output line"));
  if (!run.cuda_errors.empty()) facts.push_back(count_text(run.cuda_errors.size(), "CUDA error line"));
  return std::string(runs.size() == 1 ? "one run" : "all runs equal") + " (" + join(facts, ", ") + ")";
}

} // namespace cudiff::oracle::detail
