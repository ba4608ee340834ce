// triage: avoid rules — what the generator stops making once a bug's cause is confirmed
// (docs/triage.md, "Avoid rules"): derived from the reduced form, narrowest generator knob first.
#pragma once

#include <boost/json.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace cudiff::triage {

/// One generator policy knob set to a value (generator::Policy::set).
struct KnobSetting {
  std::string knob;
  double value = 0;
  bool operator==(const KnobSetting&) const = default;
};

/// What a confirmed cause makes the generator avoid. Keyed by the cause key: one rule per bug,
/// however many buckets or cases show it.
struct AvoidRule {
  std::string cause_key;
  /// Where it comes from: "bucket KEY" (a bucket marked known, reported or fixed whose reduced
  /// reproducer has this cause), "case NAME" (a known-bug suite case), or "by hand".
  std::string origin;
  std::vector<KnobSetting> knobs;
  std::string needs;   ///< the construct of the reduced form the knobs turn off
  std::string reason;  ///< the bug, in a line: the bucket's or case's title
  double time = 0;     ///< when it was stored (unix seconds); 0 for a suite case's
  bool by_hand = false;  ///< set with `triage avoid --set`: never replaced or dropped by a refresh
};

/// What derive_avoid finds in a reduced source.
struct AvoidDerivation {
  std::vector<KnobSetting> knobs;  ///< empty: no rule (why_none says why)
  std::string needs;               ///< the construct the knobs come from
  /// Every construct the source uses that some knob turns off, narrowest first ("needs: knob").
  std::vector<std::string> found;
  std::string why_none;
};

/// What Database::refresh_avoid_rules did.
struct AvoidRefresh {
  std::size_t added = 0, dropped = 0;
  /// Confirmed causes that yield no rule, with why ("CAUSE: why"): not reduced, a diagnostic
  /// kind, no construct of the generator's.
  std::vector<std::string> without_rule;
};

/// A source whose device code (the text before `int main(`) is longer than this is not a
/// reduced form: nearly every construct of an unreduced program is incidental, and a rule from
/// one would turn off a construct the bug may not need.
constexpr std::size_t kMaxReducedLines = 30;

/// The rule a reduced reproducer yields. Every construct of a reduced form is needed by the bug
/// (the reducer removed the rest), so turning off any one of them avoids it: the rule turns off
/// the narrowest one, by a fixed table from the generator's vocabulary to its policy knobs (PTX
/// instruction families of inline PTX blocks and ABI kinds, then compute-dense families, then
/// core constructs, then a whole kernel family). The device code alone is read (the host's
/// `main` is every program's). A source with none of them, or whose device code is longer than
/// kMaxReducedLines, yields none.
AvoidDerivation derive_avoid(std::string_view source);

/// Whether a bug of this finding kind yields a rule: not the diagnostic kinds (missed
/// diagnostic, missed by all, dialect difference), whose findings come from programs made
/// invalid on purpose for one rule, which a knob of the valid constructs would not stop.
bool kind_yields_avoid_rule(std::string_view finding_kind);

/// Every knob derive_avoid can name (tests check each is a generator policy knob).
std::vector<std::string> avoid_table_knobs();

boost::json::object to_json(const AvoidRule& rule);
/// Throws Error(usage) naming what is missing or malformed.
AvoidRule avoid_rule_from_json(const boost::json::value& json);
/// {"knob": value, ...}; "knob=value,knob=value" for a line.
boost::json::object knobs_json(const std::vector<KnobSetting>& knobs);
std::string knobs_text(const std::vector<KnobSetting>& knobs);
/// "knob=value[,knob=value...]"; throws Error(usage) for a malformed setting (the knob's name
/// and range are the generator's to check: generator::Policy::set).
std::vector<KnobSetting> parse_knob_settings(std::string_view text);

/// The rules a campaign applies: `stored`'s (the database's) first, then `suite`'s whose cause
/// is not among them.
std::vector<AvoidRule> merge_avoid_rules(const std::vector<AvoidRule>& stored, const std::vector<AvoidRule>& suite);

} // namespace cudiff::triage
