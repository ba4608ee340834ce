// triage: what `cudiff fuzz --resume` needs from the database — a campaign's parameters and
// the seeds it has already tested (committed with their findings, one transaction per batch).
#include "triage/sqlite.h"

namespace cudiff::triage {

void Database::put_campaign_params(const std::string& campaign_id, const std::string& params) {
  impl_
      ->statement("INSERT INTO campaign_params(campaign_id, params) VALUES(?1, ?2) "
                  "ON CONFLICT(campaign_id) DO UPDATE SET params = excluded.params")
      .bind(1, campaign_id)
      .bind(2, params)
      .run();
}

std::optional<std::string> Database::campaign_params(const std::string& campaign_id) const {
  auto& select = impl_->statement("SELECT params FROM campaign_params WHERE campaign_id = ?1");
  select.bind(1, campaign_id);
  std::optional<std::string> params;
  if (select.step()) params = select.text(0);
  select.reset();
  return params;
}

std::vector<std::string> Database::tested_seeds(const std::string& campaign_id) const {
  auto& select = impl_->statement("SELECT seed FROM tests WHERE campaign_id = ?1 ORDER BY seed");
  select.bind(1, campaign_id);
  std::vector<std::string> seeds;
  while (select.step()) seeds.push_back(select.text(0));
  return seeds;
}

std::int64_t Database::campaign_test_count(const std::string& campaign_id) const {
  auto& select = impl_->statement("SELECT count(*) FROM tests WHERE campaign_id = ?1");
  select.bind(1, campaign_id);
  std::int64_t count = 0;
  if (select.step()) count = select.integer(0);
  select.reset();
  return count;
}

std::int64_t Database::campaign_finding_count(const std::string& campaign_id) const {
  auto& select = impl_->statement("SELECT count(*) FROM findings WHERE campaign_id = ?1");
  select.bind(1, campaign_id);
  std::int64_t count = 0;
  if (select.step()) count = select.integer(0);
  select.reset();
  return count;
}

} // namespace cudiff::triage
