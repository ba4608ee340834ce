// oracle: the expected-output oracle — every run's checksum lines against what the generator's
// interpreter predicts (Observations::expected_checksums). A config that prints another value
// is wrong code; every config printing the same other value is a bug common to all of them
// (the shared ptxas, the driver) or a defect of the interpreter, and is kept apart.
#include "oracle/judge_parts.h"

#include <algorithm>
#include <map>

namespace cudiff::oracle::detail {
namespace {

using boost::json::array;
using boost::json::object;

/// The kernels of a wrong-code finding's summary after the first are only counted.
constexpr std::size_t summarized_kernels = 1;

/// Only a run that ended normally is held to the prediction: a crash, a timeout, a non-zero
/// exit or a CUDA error is a run mismatch of its own (judge_runs.cpp), and the checksums such
/// a run printed say nothing reliable.
bool clean(const RunObservation& run) {
  return !run.timed_out && run.signal == 0 && run.exit_code == 0 && run.cuda_errors.empty();
}

/// kernel -> printed value, the first checksum line of each kernel.
std::map<std::string, std::string> printed_checksums(const RunObservation& run) {
  std::map<std::string, std::string> printed;
  for (const std::string& line : run.output_lines)
    if (auto checksum = checksum_line(line)) printed.emplace(checksum->kernel, checksum->value);
  return printed;
}

struct RunAgainstPrediction {
  const RunObservation* run = nullptr;
  bool compared = false;                       ///< clean: held to the prediction
  std::map<std::string, std::string> printed;  ///< kernel -> value
  std::vector<std::string> odd;                ///< predicted kernels it printed another value for
};

array strings(const std::vector<std::string>& values) {
  array json;
  for (const std::string& value : values) json.push_back(boost::json::value(value));
  return json;
}

/// The values a run printed for the odd kernels ("" for a kernel it printed no line for):
/// runs with equal keys behave alike.
std::vector<std::string> odd_values(const RunAgainstPrediction& run, const std::vector<std::string>& kernels) {
  std::vector<std::string> values;
  for (const std::string& kernel : kernels) {
    const auto found = run.printed.find(kernel);
    values.push_back(found == run.printed.end() ? std::string() : found->second);
  }
  return values;
}

std::string value_text(const RunAgainstPrediction& run, const std::string& kernel) {
  if (!run.compared) return run.run->status_text.empty() ? "(not compared)" : "(" + run.run->status_text + ")";
  const auto found = run.printed.find(kernel);
  return found == run.printed.end() ? "(no line)" : "0x" + found->second;
}

Finding output_finding(const std::vector<RunAgainstPrediction>& runs, const std::vector<std::string>& odd_kernels,
                       const std::map<std::string, std::string>& predicted) {
  std::vector<std::string> matching, differing, not_compared;
  std::vector<std::vector<std::string>> differing_values;  // per differing group
  std::vector<std::vector<std::string>> differing_groups;
  for (const RunAgainstPrediction& run : runs) {
    const std::string& config = run.run->config;
    if (!run.odd.empty()) {
      differing.push_back(config);
      const std::vector<std::string> values = odd_values(run, odd_kernels);
      const auto group = std::ranges::find(differing_values, values);
      if (group == differing_values.end()) {
        differing_values.push_back(values);
        differing_groups.push_back({config});
      } else {
        differing_groups[static_cast<std::size_t>(group - differing_values.begin())].push_back(config);
      }
    } else if (run.compared &&
               std::ranges::all_of(odd_kernels, [&](const std::string& k) { return run.printed.contains(k); })) {
      matching.push_back(config);
    } else {
      not_compared.push_back(config);
    }
  }
  // Common: every config ran cleanly, every one differs, and all print the same values.
  const bool common = runs.size() > 1 && differing.size() == runs.size() && differing_groups.size() == 1;

  const std::string& first = odd_kernels.front();
  std::string summary = common ? "common wrong code (every config, e.g. the shared ptxas or driver, or an "
                                 "interpreter defect): " +
                                     first + " expected 0x" + predicted.at(first) +
                                     " (generator), every config prints " + value_text(runs.front(), first)
                               : "wrong code: " + first + " expected 0x" + predicted.at(first) + " (generator)";
  if (!common)
    for (const RunAgainstPrediction& run : runs) summary += ", " + run.run->config + " " + value_text(run, first);
  if (odd_kernels.size() > summarized_kernels)
    summary += " (+" + std::to_string(odd_kernels.size() - summarized_kernels) + " more kernel" +
               (odd_kernels.size() - summarized_kernels == 1 ? ")" : "s)");

  object expected, values;
  for (const std::string& kernel : odd_kernels) expected[kernel] = predicted.at(kernel);
  for (const RunAgainstPrediction& run : runs) {
    object printed;
    for (const std::string& kernel : odd_kernels) {
      const auto found = run.printed.find(kernel);
      printed[kernel] = run.compared && found != run.printed.end() ? boost::json::value(found->second)
                                                                   : boost::json::value(nullptr);
    }
    values[run.run->config] = std::move(printed);
  }
  array groups;
  for (const auto& group : differing_groups) groups.push_back(strings(group));
  object details{{"expected", std::move(expected)},
                 {"values", std::move(values)},
                 {"matching", strings(matching)},
                 {"differing", strings(differing)},
                 {"differing_groups", std::move(groups)},
                 {"not_compared", strings(not_compared)},
                 {"differing_kernels", strings(odd_kernels)},
                 {"first_difference", "output"},
                 {"line_kind", "checksum"}};
  std::vector<std::string> configs = differing;
  configs.insert(configs.end(), matching.begin(), matching.end());
  return make_finding(common ? FindingKind::common_wrong_code : FindingKind::wrong_code, std::move(configs), summary,
                      std::move(details));
}

} // namespace

std::optional<ChecksumLine> checksum_line(std::string_view line) {
  const std::vector<std::string> words = split(std::string(trim(line)), ' ');
  if (words.size() != 3 || words[0] != "checksum" || words[1].empty() || words[2].empty()) return std::nullopt;
  return ChecksumLine{words[1], words[2]};
}

std::vector<Finding> expected_output_findings(const std::vector<RunObservation>& runs,
                                              const std::vector<ExpectedChecksum>& expected) {
  if (runs.empty() || expected.empty()) return {};
  std::map<std::string, std::string> predicted;
  std::vector<std::string> order;  // the prediction's order: the program's launch order
  for (const ExpectedChecksum& kernel : expected)
    if (predicted.emplace(kernel.kernel, kernel.checksum).second) order.push_back(kernel.kernel);

  std::vector<RunAgainstPrediction> compared;
  for (const RunObservation& run : runs) {
    RunAgainstPrediction entry{&run, clean(run), {}, {}};
    if (entry.compared) {
      entry.printed = printed_checksums(run);
      for (const std::string& kernel : order) {
        const auto found = entry.printed.find(kernel);
        if (found != entry.printed.end() && found->second != predicted.at(kernel)) entry.odd.push_back(kernel);
      }
    }
    compared.push_back(std::move(entry));
  }
  std::vector<std::string> odd_kernels;
  for (const std::string& kernel : order)
    if (std::ranges::any_of(compared, [&](const auto& run) { return std::ranges::count(run.odd, kernel) > 0; }))
      odd_kernels.push_back(kernel);
  if (odd_kernels.empty()) return {};
  return {output_finding(compared, odd_kernels, predicted)};
}

bool prediction_explains(const std::vector<RunObservation>& runs, const std::vector<ExpectedChecksum>& expected) {
  if (runs.size() < 2 || expected.empty()) return false;
  const RunObservation& reference = runs.front();
  for (const RunObservation& run : runs) {
    if (!clean(run) || run.output_truncated) return false;
    if (run.output_lines.size() != reference.output_lines.size()) return false;
    for (std::size_t i = 0; i < run.output_lines.size(); ++i) {
      if (run.output_lines[i] == reference.output_lines[i]) continue;
      const auto line = checksum_line(run.output_lines[i]);
      const auto reference_line = checksum_line(reference.output_lines[i]);
      if (!line || !reference_line || line->kernel != reference_line->kernel) return false;
      if (std::ranges::none_of(expected, [&](const ExpectedChecksum& e) { return e.kernel == line->kernel; }))
        return false;
    }
  }
  return true;
}

} // namespace cudiff::oracle::detail
