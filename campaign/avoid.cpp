// campaign: the avoid rules a campaign's generator policy applies (docs/campaign.md, "Avoid
// rules"): found bugs are not found again night after night, unless --rediscover.
#include "campaign/params.h"

#include <algorithm>

namespace cudiff::campaign {
namespace {

/// A construct one compiler rejects or ignores on purpose (clang and __managed__): the bucket it
/// makes is a known difference, not a bug, and campaigns already check such programs alone as
/// tests of the other compiler; avoiding them would only lose that.
bool lacked_by_design(const std::string& knob) {
  return std::ranges::any_of(generator::kConstructsRejectedByACompiler, [&](const generator::RejectedConstruct& r) {
    return knob == "construct." + std::string(r.construct);
  });
}

} // namespace

std::vector<triage::AvoidRule> campaign_avoid_rules(triage::Database& db, const triage::KnownDifferences& known) {
  // Derived anew at each start: a bucket marked known, reported or fixed since the last
  // campaign (or reduced to a cause since) avoids its bug from this campaign on.
  db.refresh_avoid_rules(unix_seconds());
  return triage::merge_avoid_rules(db.avoid_rules(), known.avoid_rules());
}

std::vector<triage::AvoidRule> apply_avoid_rules(generator::Policy& policy, const std::vector<triage::AvoidRule>& rules,
                                                 std::vector<std::string>& notes) {
  const generator::Policy defaults = generator::Policy::defaults();
  generator::Policy checked = defaults;  // every setting is checked before `policy` changes
  for (const triage::AvoidRule& rule : rules)
    for (const triage::KnobSetting& setting : rule.knobs) try {
        checked.set(setting.knob, setting.value);
      } catch (const Error& error) {
        if (error.kind() != ErrorKind::usage) throw;
        throw_usage("avoid rule " + rule.cause_key.substr(0, 12) + " (" + rule.origin + "): " + error.what() +
                    " (cudiff triage avoid drop " + rule.cause_key.substr(0, 12) +
                    " removes a stored rule; --rediscover applies none)");
      }
  std::vector<triage::AvoidRule> applied;
  for (const triage::AvoidRule& rule : rules) {
    triage::AvoidRule kept = rule;
    kept.knobs.clear();
    for (const triage::KnobSetting& setting : rule.knobs) {
      if (lacked_by_design(setting.knob)) continue;  // not a bug to avoid: said by no note, as nothing changes
      if (policy.get(setting.knob) != defaults.get(setting.knob)) {
        notes.push_back("avoid rule " + rule.cause_key.substr(0, 12) + " (" + rule.origin + ") leaves " + setting.knob +
                        " as --policy sets it");
        continue;
      }
      policy.set(setting.knob, setting.value);
      kept.knobs.push_back(setting);
    }
    if (!kept.knobs.empty()) applied.push_back(std::move(kept));
  }
  return applied;
}

std::string avoid_lines(const FuzzParams& params, const std::filesystem::path& db_path, std::size_t most) {
  if (params.rediscover) return "avoiding no known cause (--rediscover): known bugs may be found again\n";
  if (params.avoided.empty()) return {};
  const std::string where = "cudiff triage avoid --db " + db_path.string();
  std::string text = "avoiding " + std::to_string(params.avoided.size()) + " known cause" +
                     (params.avoided.size() == 1 ? "" : "s") + " (" + where +
                     " lists them; --rediscover finds them):\n";
  for (std::size_t i = 0; i < params.avoided.size() && i < most; ++i) {
    const triage::AvoidRule& rule = params.avoided[i];
    text += "  " + triage::knobs_text(rule.knobs) + ": " + rule.needs + " (" + rule.origin + ", cause " +
            rule.cause_key.substr(0, 12) + ")\n";
  }
  if (params.avoided.size() > most) text += "  ... and " + std::to_string(params.avoided.size() - most) + " more\n";
  return text;
}

} // namespace cudiff::campaign
