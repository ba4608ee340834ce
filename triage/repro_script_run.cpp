// triage: repro.sh's checks of run findings — wrong code against the generator's prediction, a
// run mismatch output against output, a metamorphic finding each variant against its original
// in the same run, as the oracle compares them. Needs a GPU (`nvidia-smi -L`).
#include "triage/repro_parts.h"

#include <algorithm>

namespace cudiff::triage::repro {
namespace {

/// Against the generator's prediction: present while the differing configs print another value
/// and the matching ones print it; fixed when every config prints it.
void append_expected_checks(std::string& sh, const boost::json::object& expected,
                            const std::vector<std::string>& kernels, const std::vector<std::string>& matching,
                            const std::vector<std::string>& differing, const std::vector<const ScriptConfig*>& built) {
  sh += "wrong=0 right=0 total=0\n";
  std::size_t differing_runs = 0;
  for (const ScriptConfig* config : built)
    if (contains(differing, config->name)) ++differing_runs;
  for (const std::string& kernel : kernels) {
    const std::string want = text_of(expected.if_contains(kernel));
    for (const ScriptConfig* config : built) {
      const bool differs = contains(differing, config->name);
      sh += "v=$(checksum " + literal(config->name) + " " + literal(kernel) + "); total=$((total + 1))\n";
      sh += "echo \"" + config->name + " " + kernel + ": ${v:-nothing} (expected " + want + ")\"\n";
      sh += "if [ \"$v\" = " + literal(want) + " ]; then right=$((right + 1)); " +
            (differs ? "else wrong=$((wrong + 1)); fi\n" : "fi\n");
    }
  }
  sh += "[ \"$right\" -eq \"$total\" ] && fixed \"every config prints the generator's checksums\"\n";
  sh += "[ \"$wrong\" -eq " + std::to_string(differing_runs * kernels.size()) + " ] && [ $((right + wrong)) -eq " +
        "\"$total\" ] && present \"" + join(differing, ", ") + " print another checksum than the generator" +
        (matching.empty() ? "" : "; " + join(matching, ", ") + " print it") + "\"\n";
  sh += "cannot_tell \"the configs now print something else than recorded\"\n";
}

/// Each variant against its original, in every needed config's run (oracle/judge_metamorphic.cpp):
/// a config breaks the relation when one of the finding's variants prints another checksum than
/// its original while the original prints the generator's prediction. Present while the
/// differing configs break it and the matching ones keep it; fixed when none breaks it.
void append_metamorphic_checks(std::string& sh, const boost::json::value& details,
                               const std::vector<std::string>& matching, const std::vector<std::string>& differing,
                               const std::vector<const ScriptConfig*>& built) {
  struct Pair {
    std::string variant, original, expected;
  };
  std::vector<Pair> pairs;
  const auto* map = details.if_object();
  const auto* variants = map == nullptr ? nullptr : map->if_contains("variants");
  if (variants != nullptr && variants->is_array())
    for (const auto& entry : variants->as_array()) {
      Pair pair{field(entry, "kernel"), field(entry, "original"), field(entry, "expected")};
      if (!pair.variant.empty() && !pair.original.empty()) pairs.push_back(std::move(pair));
    }
  if (pairs.empty()) {
    sh += "cannot_tell \"the finding names no variant and original to compare: report.md says what to compare\"\n";
    return;
  }
  sh += "keep=1 gone=1\n";
  for (const ScriptConfig* config : built) {
    const std::string& name = config->name;
    sh += "odd=0\n";
    for (const Pair& pair : pairs) {
      sh += "v=$(checksum " + literal(name) + " " + literal(pair.variant) + "); o=$(checksum " + literal(name) + " " +
            literal(pair.original) + ")\n";
      sh += "echo \"" + name + ": variant " + pair.variant + " ${v:-nothing}, its original " + pair.original +
            " ${o:-nothing}\"\n";
      sh += "[ -n \"$v\" ] && [ -n \"$o\" ] || cannot_tell \"" + name + " prints no checksum for " + pair.variant +
            " or its original " + pair.original + "\"\n";
      // An original off the prediction is wrong code, another finding (the oracle files it so).
      if (!pair.expected.empty())
        sh += "[ \"$o\" = " + literal(pair.expected) + " ] || cannot_tell \"" + name + ": the original " +
              pair.original + " prints $o, not the generator's " + pair.expected +
              ": wrong code now, another finding\"\n";
      sh += "[ \"$v\" = \"$o\" ] || odd=1\n";
    }
    if (contains(differing, name)) sh += "if [ $odd -eq 1 ]; then gone=0; else keep=0; fi\n";
    else sh += "if [ $odd -eq 1 ]; then gone=0; keep=0; fi\n";
  }
  sh += "[ $gone -eq 1 ] && fixed \"every config prints each variant's checksum as its original's\"\n";
  sh += "[ $keep -eq 1 ] && present \"" + join(differing, ", ") +
        " print another checksum for a variant than for its original" +
        (matching.empty() ? "" : "; " + join(matching, ", ") + " print the same") + "\"\n";
  sh += "cannot_tell \"the configs now keep or break the variants' relation otherwise than recorded\"\n";
}

/// Output against output (a run mismatch): each run's exit status and stdout. Present while
/// the recorded sides still differ; fixed when all print the same.
void append_output_checks(std::string& sh, const std::vector<std::string>& matching,
                          const std::vector<std::string>& differing, const std::vector<const ScriptConfig*>& built) {
  std::string reference;
  for (const ScriptConfig* config : built)
    if (contains(matching, config->name)) {
      reference = config->name;
      break;
    }
  if (reference.empty()) reference = built.front()->name;
  sh += "same=1 split=1\n";
  for (const ScriptConfig* config : built) {
    if (config->name == reference) continue;
    const bool differs = contains(differing, config->name);
    // Alike: a differing config that prints as the reference undoes the split. Not alike: not
    // all the same, and a matching config that departs breaks the split too.
    sh += "if cmp -s \"$work/" + reference + ".seen\" \"$work/" + config->name + ".seen\"; then " +
          (differs ? "split=0" : ":") + "; else same=0; " + (differs ? ":" : "split=0") + "; fi\n";
  }
  sh += "[ $same -eq 1 ] && fixed \"every config prints the same\"\n";
  sh += "[ $split -eq 1 ] && present \"" + join(differing, ", ") + " print other output than " + reference + "\"\n";
  sh += "cannot_tell \"the configs now split otherwise than recorded\"\n";
}

} // namespace

void append_run_checks(std::string& sh, const std::string& kind, const StoredFinding& finding,
                       const std::vector<const ScriptConfig*>& needed) {
  const auto [matching, differing] = run_sides(finding.details);
  std::vector<const ScriptConfig*> built;
  for (const ScriptConfig* config : needed)
    if (!config->binary.empty()) built.push_back(config);
  if (built.empty()) {
    sh += "cannot_tell \"no config of this " + kind +
          " finding built a binary to run: report.md says what to compare\"\n";
    return;
  }
  sh += "have nvidia-smi && nvidia-smi -L 2> /dev/null | grep -q '^GPU' || cannot_tell \"no GPU here\"\n";
  // A run mismatch's difference may be how a run ends (an exit code, a signal): compared, not a
  // reason to stop. The other kinds compare checksums, which a failed run does not print.
  const bool mismatch = kind == "run_mismatch";
  for (const ScriptConfig* config : built) {
    const std::string id = identifier(config->name);
    sh += "built=$(outcome " + literal(config->name) + " " + id + ")\n";
    sh += "[ \"$built\" = accepted ] || cannot_tell \"" + config->name +
          ", which decides this finding, does not build now ($built): $(first_error " + literal(config->name) + ")\"\n";
    sh += "run " + literal(config->name) + " " + config->binary +
          (mismatch ? " || :\n"
                    : " || cannot_tell \"the " + config->name + " binary failed: $(head -n 1 \"$work/" + config->name +
                          ".run.err\" | cut -c1-200)\"\n");
  }
  const auto* map = finding.details.if_object();
  const auto* expected = map == nullptr ? nullptr : map->if_contains("expected");
  const std::vector<std::string> kernels = strings(finding.details, "differing_kernels");
  if (kind == oracle::to_string(oracle::FindingKind::metamorphic))
    append_metamorphic_checks(sh, finding.details, matching, differing, built);
  else if (!mismatch && expected != nullptr && expected->is_object() && !kernels.empty())
    append_expected_checks(sh, expected->as_object(), kernels, matching, differing, built);
  else append_output_checks(sh, matching, differing, built);
}

} // namespace cudiff::triage::repro
