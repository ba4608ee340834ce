// triage: the avoid rules a database keeps (docs/triage.md, "Avoid rules"): stored, listed,
// and derived anew from the confirmed causes.
#include "triage/sqlite.h"
#include "triage/triage.h"

#include <map>
#include <set>

namespace cudiff::triage {
namespace {

std::vector<KnobSetting> knobs_from_text(const std::string& text, const std::string& cause_key) {
  boost::system::error_code ec;
  const boost::json::value parsed = boost::json::parse(text, ec);
  if (ec || !parsed.is_object())
    throw_environment("the avoid rule of cause " + cause_key + " has unreadable knobs: " + text);
  std::vector<KnobSetting> knobs;
  for (const auto& [name, value] : parsed.as_object()) {
    if (!value.is_number())
      throw_environment("the avoid rule of cause " + cause_key + " gives knob '" + std::string(name) +
                        "' no number: " + text);
    knobs.push_back({std::string(name), value.to_number<double>()});
  }
  return knobs;
}

/// One confirmed cause: the first bucket (by key) that confirms it and its reduced finding.
struct ConfirmedCause {
  std::string bucket_key, status, kind, title, reduced_finding;
};

} // namespace

std::vector<AvoidRule> Database::avoid_rules() const {
  std::vector<AvoidRule> rules;
  auto& read = impl_->statement(
      "SELECT cause_key, origin, knobs, needs, reason, time, by_hand FROM avoid_rules ORDER BY time, cause_key");
  while (read.step()) {
    AvoidRule rule;
    rule.cause_key = read.text(0);
    rule.origin = read.text(1);
    rule.needs = read.text(3);
    rule.reason = read.text(4);
    rule.time = read.real(5);
    rule.by_hand = read.integer(6) != 0;
    try {
      rule.knobs = knobs_from_text(read.text(2), rule.cause_key);
    } catch (...) {
      read.reset();
      throw;
    }
    rules.push_back(std::move(rule));
  }
  read.reset();
  return rules;
}

void Database::put_avoid_rule(const AvoidRule& rule) {
  if (rule.cause_key.empty()) throw_usage("an avoid rule needs a cause key");
  if (rule.knobs.empty()) throw_usage("the avoid rule of cause " + rule.cause_key + " sets no knob");
  impl_
      ->statement("INSERT OR REPLACE INTO avoid_rules(cause_key, origin, knobs, needs, reason, time, by_hand) "
                  "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)")
      .reset()
      .bind(1, rule.cause_key)
      .bind(2, rule.origin)
      .bind(3, boost::json::serialize(knobs_json(rule.knobs)))
      .bind(4, rule.needs)
      .bind(5, rule.reason)
      .bind(6, rule.time)
      .bind(7, rule.by_hand ? 1 : 0)
      .run();
}

bool Database::drop_avoid_rule(std::string_view cause_key) {
  auto& remove = impl_->statement("DELETE FROM avoid_rules WHERE cause_key = ?1");
  remove.reset().bind(1, cause_key).run();
  return impl_->scalar("SELECT changes()") > 0;
}

AvoidRefresh Database::refresh_avoid_rules(double now) {
  AvoidRefresh refresh;
  transaction([&] {
    std::map<std::string, ConfirmedCause> confirmed;  // by cause key
    auto& read = impl_->statement(
        "SELECT c.cause_key, b.key, b.status, b.kind, b.title, c.reduced_finding FROM causes c "
        "JOIN findings f ON f.id = c.finding_id JOIN buckets b ON b.key = f.bucket_key "
        "WHERE b.status IN ('known', 'reported', 'fixed') AND c.reduced_finding != '' ORDER BY c.cause_key, b.key");
    while (read.step())
      confirmed.try_emplace(read.text(0),
                            ConfirmedCause{read.text(1), read.text(2), read.text(3), read.text(4), read.text(5)});
    read.reset();
    std::map<std::string, AvoidRule> stored;
    for (AvoidRule& rule : avoid_rules()) stored.emplace(rule.cause_key, std::move(rule));

    for (const auto& [cause_key, cause] : confirmed) {
      const auto have = stored.find(cause_key);
      if (have != stored.end() && have->second.by_hand) continue;
      const auto reduced = finding(cause.reduced_finding);
      AvoidDerivation derivation;
      if (!kind_yields_avoid_rule(cause.kind))
        derivation.why_none = "a " + cause.kind + " bug (made on purpose by an invalid program): nothing to avoid";
      else if (!reduced) derivation.why_none = "its reduced finding " + cause.reduced_finding + " is not stored";
      else derivation = derive_avoid(reduced->source);
      if (derivation.knobs.empty()) {
        refresh.without_rule.push_back(cause_key.substr(0, 12) + ": " + derivation.why_none);
        if (have != stored.end() && drop_avoid_rule(cause_key)) ++refresh.dropped;
        continue;
      }
      if (have != stored.end() && have->second.knobs == derivation.knobs) continue;
      AvoidRule rule{cause_key,
                     "bucket " + cause.bucket_key.substr(0, 12),
                     derivation.knobs,
                     derivation.needs,
                     cause.status + ": " + cause.title,
                     now,
                     false};
      put_avoid_rule(rule);
      if (have == stored.end()) ++refresh.added;
    }
    // A derived rule whose cause no bucket confirms any more (marked new or invalid again, or
    // its bucket gone) goes; one set by hand stays.
    for (const auto& [cause_key, rule] : stored)
      if (!rule.by_hand && !confirmed.contains(cause_key) && drop_avoid_rule(cause_key)) ++refresh.dropped;
  });
  return refresh;
}

} // namespace cudiff::triage
