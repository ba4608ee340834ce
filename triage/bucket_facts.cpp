// triage: a bucket's facts beyond its findings — the upstream report's link, the releases that
// show it, the last recheck — kept apart from the key and the counts.
#include "triage/sqlite.h"

namespace cudiff::triage {
namespace {

constexpr std::string_view select_facts =
    "SELECT bucket_key, link, versions, recheck, recheck_time, recheck_compilers FROM bucket_facts";

BucketFacts facts_from(const sql::Statement& row) {
  BucketFacts facts;
  facts.link = row.text(1);
  facts.versions = row.text(2);
  facts.recheck = row.text(3);
  facts.recheck_time = row.real(4);
  facts.recheck_compilers = row.text(5);
  return facts;
}

} // namespace

BucketFacts Database::facts(const std::string& bucket_key) const {
  auto& select = impl_->statement(std::string(select_facts) + " WHERE bucket_key = ?1");
  select.bind(1, bucket_key);
  return select.step() ? facts_from(select) : BucketFacts{};
}

std::map<std::string, BucketFacts> Database::all_facts() const {
  auto& select = impl_->statement(select_facts);
  std::map<std::string, BucketFacts> all;
  while (select.step()) all.emplace(select.text(0), facts_from(select));
  return all;
}

void Database::set_link(const std::string& bucket_key, std::string_view link) {
  impl_
      ->statement("INSERT INTO bucket_facts(bucket_key, link) VALUES(?1, ?2) "
                  "ON CONFLICT(bucket_key) DO UPDATE SET link = excluded.link")
      .bind(1, bucket_key)
      .bind(2, link)
      .run();
}

void Database::set_versions(const std::string& bucket_key, std::string_view versions) {
  impl_
      ->statement("INSERT INTO bucket_facts(bucket_key, versions) VALUES(?1, ?2) "
                  "ON CONFLICT(bucket_key) DO UPDATE SET versions = excluded.versions")
      .bind(1, bucket_key)
      .bind(2, versions)
      .run();
}

void Database::set_recheck(const std::string& bucket_key, std::string_view verdict, std::string_view compilers,
                           double time) {
  impl_
      ->statement("INSERT INTO bucket_facts(bucket_key, recheck, recheck_time, recheck_compilers) "
                  "VALUES(?1, ?2, ?3, ?4) ON CONFLICT(bucket_key) DO UPDATE SET recheck = excluded.recheck, "
                  "recheck_time = excluded.recheck_time, recheck_compilers = excluded.recheck_compilers")
      .bind(1, bucket_key)
      .bind(2, verdict)
      .bind(3, time)
      .bind(4, compilers)
      .run();
}

} // namespace cudiff::triage
