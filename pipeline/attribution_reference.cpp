// pipeline: what stage attribution calls a right output — the generator's predicted checksums,
// else the behaviour a majority of configs share — and whether a difference is host-side only.
#include "pipeline/attribution_parts.h"

#include <algorithm>

namespace cudiff::pipeline::attribution {
namespace {

bool checksum_line(const std::string& line) { return line.starts_with("checksum "); }

std::vector<std::string> checksum_lines(const oracle::RunObservation& run) {
  std::vector<std::string> lines;
  for (const std::string& line : run.output_lines)
    if (checksum_line(line)) lines.push_back(std::string(trim(line)));
  return lines;
}

std::vector<std::string> sorted(std::vector<std::string> lines) {
  std::ranges::sort(lines);
  return lines;
}

bool ended_cleanly(const oracle::RunObservation& run) {
  return !run.timed_out && run.signal == 0 && run.exit_code == 0 && run.cuda_errors.empty();
}

/// Device results only: how it ended, CUDA errors, checksum lines.
bool same_device_results(const oracle::RunObservation& a, const oracle::RunObservation& b) {
  if (a.timed_out || b.timed_out) return a.timed_out == b.timed_out;
  return a.exit_code == b.exit_code && a.signal == b.signal && a.cuda_errors == b.cuda_errors &&
         checksum_lines(a) == checksum_lines(b);
}

/// The first line of `lines` that is not in the same place of `reference` ("" when equal).
std::string first_departure(const std::vector<std::string>& lines, const std::vector<std::string>& reference) {
  for (std::size_t i = 0; i < std::max(lines.size(), reference.size()); ++i) {
    if (i >= lines.size()) return "(missing line " + std::to_string(i + 1) + ": " + reference[i] + ")";
    if (i >= reference.size() || lines[i] != reference[i]) return lines[i];
  }
  return {};
}

} // namespace

// As the judge compares runs (oracle/judge_runs.cpp).
bool same_behaviour(const oracle::RunObservation& a, const oracle::RunObservation& b) {
  if (a.timed_out || b.timed_out) return a.timed_out == b.timed_out;
  return a.exit_code == b.exit_code && a.signal == b.signal && a.output_lines == b.output_lines &&
         a.cuda_errors == b.cuda_errors;
}

std::vector<std::string> expected_checksum_lines(const generator::Sidecar& sidecar) {
  std::vector<std::string> lines;
  if (!sidecar.kernels) return lines;
  for (const generator::Sidecar::Kernel& kernel : *sidecar.kernels)
    if (!kernel.expected_checksum.empty()) lines.push_back("checksum " + kernel.name + " " + kernel.expected_checksum);
  return lines;
}

bool Reference::right(const oracle::RunObservation& run) const {
  if (!expected_lines.empty()) return ended_cleanly(run) && sorted(checksum_lines(run)) == sorted(expected_lines);
  return majority && same_behaviour(run, *majority);
}

std::string Reference::differing_line(const oracle::RunObservation& run) const {
  if (right(run)) return {};
  if (run.timed_out || run.signal != 0) return run.status_text;
  if (!run.cuda_errors.empty()) return run.cuda_errors.front();
  if (!expected_lines.empty()) {
    const std::vector<std::string> printed = sorted(checksum_lines(run));
    const std::vector<std::string> expected = sorted(expected_lines);
    const std::string line = first_departure(printed, expected);
    return line.empty() ? run.status_text : line;
  }
  const std::string line = first_departure(run.output_lines, majority->output_lines);
  return line.empty() ? run.status_text : line;
}

std::string Reference::describe() const {
  if (!expected_lines.empty()) return "the generator's predicted checksums";
  if (majority) return "the majority's output (" + majority->config + " and the configs that print the same)";
  return "none";
}

Reference reference_of(const std::vector<oracle::RunObservation>& runs,
                       const std::optional<generator::Sidecar>& sidecar) {
  Reference reference;
  if (sidecar) reference.expected_lines = expected_checksum_lines(*sidecar);
  if (!reference.expected_lines.empty()) return reference;
  // A strict majority: one behaviour more configs share than any other.
  std::size_t best = 0, runner_up = 0;
  const oracle::RunObservation* leader = nullptr;
  for (const oracle::RunObservation& run : runs) {
    const auto count = static_cast<std::size_t>(
        std::ranges::count_if(runs, [&](const oracle::RunObservation& other) { return same_behaviour(run, other); }));
    if (leader != nullptr && same_behaviour(run, *leader)) continue;
    if (count > best) {
      runner_up = best;
      best = count;
      leader = &run;
    } else {
      runner_up = std::max(runner_up, count);
    }
  }
  if (leader != nullptr && best > runner_up) reference.majority = *leader;
  return reference;
}

bool host_only_difference(const std::vector<oracle::RunObservation>& runs, const Reference& reference) {
  if (runs.empty()) return false;
  const bool has_checksums = std::ranges::any_of(runs, [](const oracle::RunObservation& run) {
    return !checksum_lines(run).empty();
  });
  if (!has_checksums) return false;
  for (const oracle::RunObservation& run : runs) {
    if (!reference.expected_lines.empty()) {
      if (!reference.right(run)) return false;
    } else if (!same_device_results(run, runs.front())) {
      return false;
    }
  }
  // The device results agree; the runs differ somewhere else.
  return std::ranges::any_of(runs,
                             [&](const oracle::RunObservation& run) { return !same_behaviour(run, runs.front()); });
}

} // namespace cudiff::pipeline::attribution
