// triage: which engines and configs found each bucket, read from the index of its findings' origins.
#include "triage/sqlite.h"

#include <algorithm>
#include <set>
#include <unordered_map>

namespace cudiff::triage {
namespace {

/// random, guided, metamorphic, check first (the order people compare them in), then others.
int engine_rank(const std::string& engine) {
  constexpr std::string_view order[] = {"random", "guided", "metamorphic", "check"};
  const auto found = std::ranges::find(order, engine);
  return static_cast<int>(found - std::begin(order));
}

} // namespace

std::map<std::string, BucketOrigins> Database::bucket_origins() const {
  std::unordered_map<std::string, std::string> campaign_kinds;
  auto& campaigns = impl_->statement("SELECT id, kind FROM campaigns");
  while (campaigns.step()) campaign_kinds.emplace(campaigns.text(0), campaigns.text(1));

  // The distinct (bucket, campaign, kind, configs) of the findings, one seek each in the
  // covering index findings_origin (schema 5): a loose index scan. DISTINCT, GROUP BY, or `>`
  // on the row value would step through every entry, and at 100,000 findings reading pages is
  // the whole cost (docs/triage.md, "Classes and engines", has the timings). `configs ||
  // char(1)` is the least text above the last tuple's configs that a JSON array can be (none
  // holds a control character), so `>=` lands on the next distinct tuple; '' starts below
  // every key. A database opened read-only below schema 5 lacks the index, and each seek
  // would read every finding: there one GROUP BY reads them once.
  const bool indexed = impl_->version >= 5;
  auto& next = impl_->statement(
      indexed ? "SELECT bucket_key, campaign_id, kind, configs FROM findings "
                "WHERE (bucket_key, campaign_id, kind, configs) >= (?1, ?2, ?3, ?4 || char(1)) "
                "ORDER BY bucket_key, campaign_id, kind, configs LIMIT 1"
              : "SELECT bucket_key, campaign_id, kind, configs FROM findings GROUP BY 1, 2, 3, 4");
  std::map<std::string, std::pair<std::set<std::string>, std::set<std::string>>> seen;  // engines, configs
  std::string key, campaign_id, kind, config_list;
  for (;;) {
    if (indexed) next.reset().bind(1, key).bind(2, campaign_id).bind(3, kind).bind(4, config_list);
    if (!next.step()) break;
    key = next.text(0);
    campaign_id = next.text(1);
    kind = next.text(2);
    config_list = next.text(3);
    const auto campaign = campaign_kinds.find(campaign_id);
    const auto engine = engine_of(campaign == campaign_kinds.end() ? "" : campaign->second, kind);
    if (!engine) continue;  // a reduction's reproducer
    auto& [engines, configs] = seen[key];
    engines.insert(*engine);
    boost::system::error_code ec;
    const boost::json::value list = boost::json::parse(config_list, ec);
    if (const auto* array = list.if_array())
      for (const auto& config : *array)
        if (config.is_string()) configs.emplace(config.as_string());
  }
  next.reset();

  std::map<std::string, BucketOrigins> origins;
  for (auto& [key, found] : seen) {
    BucketOrigins& origin = origins[key];
    origin.engines.assign(found.first.begin(), found.first.end());
    std::ranges::sort(origin.engines, [](const std::string& a, const std::string& b) {
      return std::pair(engine_rank(a), a) < std::pair(engine_rank(b), b);
    });
    origin.configs.assign(found.second.begin(), found.second.end());
  }
  return origins;
}

std::vector<double> Database::invalid_test_times() const {
  auto& select = impl_->statement("SELECT time FROM invalid_tests ORDER BY time");
  std::vector<double> times;
  while (select.step()) times.push_back(select.real(0));
  return times;
}

} // namespace cudiff::triage
