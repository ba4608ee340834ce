// oracle: the metamorphic oracle — every variant kernel (EMI dead code, live-code rewrites of a
// generated program) against its original's kernel in the same run. The original is held to
// the interpreter's prediction (judge_output.cpp); a variant to its original, so that one
// miscompilation is one finding: wrong_code when the original is off its prediction,
// metamorphic when only the variant departs from it.
#include "oracle/judge_parts.h"

#include <algorithm>
#include <map>
#include <set>

namespace cudiff::oracle::detail {
namespace {

using boost::json::array;
using boost::json::object;

bool clean(const RunObservation& run) {
  return !run.timed_out && run.signal == 0 && run.exit_code == 0 && run.cuda_errors.empty();
}

array strings(const std::vector<std::string>& values) {
  array json;
  for (const std::string& value : values) json.push_back(boost::json::value(value));
  return json;
}

struct RunPairs {
  const RunObservation* run = nullptr;
  bool compared = false;
  std::map<std::string, std::string> printed;  ///< kernel -> value
  std::set<std::string> odd;                   ///< variant kernels that depart from their original
};

std::string printed_or(const RunPairs& run, const std::string& kernel, const std::string& otherwise) {
  const auto found = run.printed.find(kernel);
  return found == run.printed.end() ? otherwise : found->second;
}

} // namespace

std::vector<ExpectedChecksum> originals_only(const std::vector<ExpectedChecksum>& expected,
                                             const std::vector<VariantKernel>& variants) {
  if (variants.empty()) return expected;
  std::set<std::string> variant_names;
  for (const VariantKernel& variant : variants) variant_names.insert(variant.kernel);
  std::vector<ExpectedChecksum> originals;
  for (const ExpectedChecksum& kernel : expected)
    if (!variant_names.contains(kernel.kernel)) originals.push_back(kernel);
  return originals;
}

std::vector<Finding> metamorphic_findings(const std::vector<RunObservation>& runs,
                                          const std::vector<VariantKernel>& variants,
                                          const std::vector<ExpectedChecksum>& expected) {
  if (runs.empty() || variants.empty()) return {};
  std::map<std::string, std::string> predicted;
  for (const ExpectedChecksum& kernel : expected) predicted.emplace(kernel.kernel, kernel.checksum);

  std::vector<RunPairs> pairs;
  for (const RunObservation& run : runs) {
    RunPairs entry{&run, clean(run), {}, {}};
    if (entry.compared) {
      for (const std::string& line : run.output_lines)
        if (auto checksum = checksum_line(line)) entry.printed.emplace(checksum->kernel, checksum->value);
      for (const VariantKernel& variant : variants) {
        const std::string original = printed_or(entry, variant.original, "");
        const std::string value = printed_or(entry, variant.kernel, "");
        if (original.empty() || value.empty() || value == original) continue;
        // An original off its prediction is the wrong-code finding's: not filed twice.
        const auto prediction = predicted.find(variant.original);
        if (prediction != predicted.end() && prediction->second != original) continue;
        entry.odd.insert(variant.kernel);
      }
    }
    pairs.push_back(std::move(entry));
  }
  std::vector<const VariantKernel*> odd;
  for (const VariantKernel& variant : variants)
    if (std::ranges::any_of(pairs, [&](const RunPairs& run) { return run.odd.contains(variant.kernel); }))
      odd.push_back(&variant);
  if (odd.empty()) return {};

  std::vector<std::string> matching, differing, not_compared, odd_names;
  for (const VariantKernel* variant : odd) odd_names.push_back(variant->kernel);
  std::vector<std::vector<std::string>> group_values, groups;
  for (const RunPairs& run : pairs) {
    const std::string& config = run.run->config;
    if (!run.odd.empty()) {
      differing.push_back(config);
      std::vector<std::string> values;
      for (const VariantKernel* variant : odd) values.push_back(printed_or(run, variant->kernel, ""));
      const auto group = std::ranges::find(group_values, values);
      if (group == group_values.end()) {
        group_values.push_back(values);
        groups.push_back({config});
      } else {
        groups[static_cast<std::size_t>(group - group_values.begin())].push_back(config);
      }
    } else if (run.compared && std::ranges::all_of(odd, [&](const VariantKernel* variant) {
                 return run.printed.contains(variant->kernel) && run.printed.contains(variant->original);
               })) {
      matching.push_back(config);
    } else {
      not_compared.push_back(config);
    }
  }
  const bool every_config = differing.size() == runs.size();

  const VariantKernel& first = *odd.front();
  const RunPairs& first_odd = *std::ranges::find_if(pairs, [&](const RunPairs& run) {
    return run.odd.contains(first.kernel);
  });
  std::string summary = "metamorphic: variant " + first.kernel + " prints 0x" +
                        printed_or(first_odd, first.kernel, "") + ", its original " + first.original + " 0x" +
                        printed_or(first_odd, first.original, "") + " under " +
                        (every_config ? "every config" : join(differing, ", "));
  if (!first.transforms.empty()) summary += " (" + join(first.transforms, ", ") + ")";
  if (odd.size() > 1) summary += " (+" + std::to_string(odd.size() - 1) + " more)";

  array variant_entries;
  for (const VariantKernel* variant : odd) {
    object values;
    for (const RunPairs& run : pairs) {
      const auto value_of = [&](const std::string& kernel) {
        const auto found = run.printed.find(kernel);
        return run.compared && found != run.printed.end() ? boost::json::value(found->second)
                                                          : boost::json::value(nullptr);
      };
      values[run.run->config] = object{{"original", value_of(variant->original)},
                                       {"variant", value_of(variant->kernel)}};
    }
    object entry{{"kernel", variant->kernel},
                 {"original", variant->original},
                 {"transforms", strings(variant->transforms)},
                 {"values", std::move(values)}};
    if (const auto prediction = predicted.find(variant->original); prediction != predicted.end())
      entry["expected"] = prediction->second;
    variant_entries.push_back(std::move(entry));
  }
  array group_json;
  for (const auto& group : groups) group_json.push_back(strings(group));
  object details{{"variants", std::move(variant_entries)},
                 {"matching", strings(matching)},
                 {"differing", strings(differing)},
                 {"differing_groups", std::move(group_json)},
                 {"not_compared", strings(not_compared)},
                 {"differing_kernels", strings(odd_names)},
                 {"every_config", every_config},
                 {"first_difference", "output"},
                 {"line_kind", "checksum"}};
  std::vector<std::string> configs = differing;
  configs.insert(configs.end(), matching.begin(), matching.end());
  return {make_finding(FindingKind::metamorphic, std::move(configs), summary, std::move(details))};
}

} // namespace cudiff::oracle::detail
