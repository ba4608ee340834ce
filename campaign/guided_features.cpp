// campaign: guided features — what a check shows of the compilers' behaviour, as named
// features for libFuzzer. Only what the compilers did counts, never what cudiff did with it,
// and nothing that varies between two runs of the same program (times, paths, temporary names),
// or libFuzzer would keep inputs for noise.
#include "campaign/guided.h"

#include <set>

namespace cudiff::campaign {
namespace {

void add(Features& features, std::string name, std::uint32_t count = 1) {
  std::uint32_t& value = features[std::move(name)];
  value = value > ~std::uint32_t{0} - count ? ~std::uint32_t{0} : value + count;
}

} // namespace

Features check_features(const pipeline::TestCheck& run, const std::map<std::string, oracle::PtxFeatures>& ptx,
                        const std::vector<triage::Signature>& signatures) {
  Features features;
  for (const pipeline::ConfigCheck& config : run.configs) {
    const oracle::CompileObservation& observed = config.observation;
    add(features, "outcome " + observed.config + " " + oracle::to_string(observed.outcome));
    // Counts matter here (libFuzzer buckets a counter's value: 1, 2, 3, 4-7, 8-15, ...): a
    // program that makes a compiler warn eight times about one thing reached it differently.
    for (const oracle::Diagnostic& diagnostic : observed.diagnostics)
      add(features, "diag " + observed.config + " " + oracle::to_string(diagnostic.tool) + " " +
                        oracle::to_string(diagnostic.severity) + " " + diagnostic.id);
    if (config.run)
      add(features, "run " + observed.config + " " + (config.run->timed_out ? "timeout" : config.run->status_text));
  }
  // PTX: presence only. Counts would reward programs for being longer, not for being new.
  // (Kinds one compiler emits and the other does not are mostly spelling, .u64 against .b64,
  // so they are not features of their own.)
  for (const auto& [config, emitted] : ptx) {
    for (const auto& [kind, count] : emitted.instructions) add(features, "ptx " + config + " " + kind);
    for (const auto& [directive, count] : emitted.directives) add(features, "ptx " + config + " " + directive);
  }
  if (run.verdict.agree()) add(features, "verdict agree");
  for (std::size_t i = 0; i < run.verdict.findings.size(); ++i) {
    const std::string side = i < signatures.size() ? signatures[i].side : "";
    add(features, "finding " + oracle::to_string(run.verdict.findings[i].kind) + " " + side);
    if (i < signatures.size()) add(features, "bucket " + signatures[i].key);
  }
  return features;
}

void GuidedTotals::add(const Features& features) {
  for (const auto& [name, count] : features) {
    const std::vector<std::string> words = split(name, ' ');
    if (words.size() >= 5 && words[0] == "diag") {
      // "diag <config> <tool> <severity> <id...>": the id may hold spaces (a message template).
      std::size_t at = 0;
      for (int skip = 0; skip < 2; ++skip) at = name.find(' ', at) + 1;
      diagnostic_ids.insert(name.substr(at));
    } else if (words.size() == 3 && words[0] == "ptx") {
      ptx_kinds.insert(words[2]);  // "ptx <config> <kind>"; directives have four words
    } else if (words.size() == 2 && words[0] == "bucket") {
      buckets.insert(words[1]);
    }
  }
}

} // namespace cudiff::campaign
