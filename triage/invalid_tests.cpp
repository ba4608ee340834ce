// triage: the invalid-tests list — tests the sanitizer gate rejected because their run faulted
// (schema 4). Their reports and programs sit in blobs, as findings' do.
#include "triage/sqlite.h"

namespace cudiff::triage {
namespace {

std::string strings_json(const std::vector<std::string>& strings) {
  boost::json::array array;
  for (const std::string& text : strings) array.emplace_back(text);
  return boost::json::serialize(array);
}

std::vector<std::string> strings_from(const std::string& text) {
  std::vector<std::string> strings;
  boost::system::error_code ec;
  const boost::json::value value = boost::json::parse(text, ec);
  if (!ec && value.is_array())
    for (const auto& item : value.as_array())
      if (item.is_string()) strings.emplace_back(item.as_string());
  return strings;
}

boost::json::array json_strings(const std::vector<std::string>& strings) {
  boost::json::array array;
  for (const std::string& text : strings) array.emplace_back(text);
  return array;
}

} // namespace

bool Database::add_invalid_test(const InvalidTest& t) {
  bool added = false;
  transaction([&] {
    const std::string report_hash = content_key(t.report);
    const std::string source_hash = content_key(t.source);
    auto& blob = impl_->statement("INSERT OR IGNORE INTO blobs(hash, data) VALUES(?1, ?2)");
    blob.bind(1, report_hash).bind(2, t.report).run();
    blob.reset().bind(1, source_hash).bind(2, t.source).run();
    impl_
        ->statement("INSERT OR IGNORE INTO invalid_tests(id, campaign_id, test_id, time, name, seed, finding_kind, "
                    "finding_summary, configs, erring_configs, tool, cause, first_error, command, report_hash, "
                    "source_name, source_hash, source_size) "
                    "VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,?18)")
        .bind(1, t.id)
        .bind(2, t.campaign_id)
        .bind(3, t.test_id)
        .bind(4, t.time)
        .bind(5, t.name)
        .bind(6, t.seed)
        .bind(7, t.finding_kind)
        .bind(8, t.finding_summary)
        .bind(9, strings_json(t.configs))
        .bind(10, strings_json(t.erring_configs))
        .bind(11, t.tool)
        .bind(12, t.cause)
        .bind(13, t.first_error)
        .bind(14, t.command)
        .bind(15, report_hash)
        .bind(16, t.source_name)
        .bind(17, source_hash)
        .bind(18, static_cast<std::int64_t>(t.source.size()))
        .run();
    added = sqlite3_changes(impl_->db) > 0;
  });
  return added;
}

std::vector<InvalidTest> Database::invalid_tests(std::size_t limit) const {
  auto& select = impl_->statement(
      "SELECT i.id, i.campaign_id, i.test_id, i.time, i.name, i.seed, i.finding_kind, i.finding_summary, i.configs, "
      "i.erring_configs, i.tool, i.cause, i.first_error, i.command, r.data, i.source_name, s.data "
      "FROM invalid_tests i LEFT JOIN blobs r ON r.hash = i.report_hash LEFT JOIN blobs s ON s.hash = i.source_hash "
      "ORDER BY i.time DESC, i.id LIMIT ?1");
  select.bind(1, limit == 0 ? std::int64_t{-1} : static_cast<std::int64_t>(limit));
  std::vector<InvalidTest> tests;
  while (select.step()) {
    InvalidTest& t = tests.emplace_back();
    t.id = select.text(0);
    t.campaign_id = select.text(1);
    t.test_id = select.text(2);
    t.time = select.real(3);
    t.name = select.text(4);
    t.seed = select.text(5);
    t.finding_kind = select.text(6);
    t.finding_summary = select.text(7);
    t.configs = strings_from(select.text(8));
    t.erring_configs = strings_from(select.text(9));
    t.tool = select.text(10);
    t.cause = select.text(11);
    t.first_error = select.text(12);
    t.command = select.text(13);
    t.report = select.text(14);
    t.source_name = select.text(15);
    t.source = select.text(16);
  }
  return tests;
}

std::vector<std::pair<std::string, std::int64_t>> Database::invalid_test_causes() const {
  auto& select = impl_->statement(
      "SELECT cause, count(*) AS n FROM invalid_tests GROUP BY cause ORDER BY n DESC, cause");
  std::vector<std::pair<std::string, std::int64_t>> causes;
  while (select.step()) causes.emplace_back(select.text(0), select.integer(1));
  return causes;
}

std::int64_t Database::invalid_test_count() const { return impl_->scalar("SELECT count(*) FROM invalid_tests"); }

boost::json::object to_json(const InvalidTest& t, bool full) {
  boost::json::object json{{"id", t.id},
                           {"campaign_id", t.campaign_id},
                           {"test_id", t.test_id},
                           {"time", t.time},
                           {"name", t.name},
                           {"seed", t.seed},
                           {"finding_kind", t.finding_kind},
                           {"finding_summary", t.finding_summary},
                           {"configs", json_strings(t.configs)},
                           {"erring_configs", json_strings(t.erring_configs)},
                           {"tool", t.tool},
                           {"cause", t.cause},
                           {"first_error", t.first_error},
                           {"command", t.command},
                           {"source_name", t.source_name}};
  if (full) {
    json["report"] = t.report;
    json["source"] = t.source;
  }
  return json;
}

} // namespace cudiff::triage
