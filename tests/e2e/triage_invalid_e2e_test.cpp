// `cudiff triage invalid`: the invalid-tests list as a table with counts by cause and as JSON,
// on a database holding invalid tests and a finding; `triage report --html` and `triage
// export` say how many there are; `triage invalid` on a schema-3 database upgrades it.
#include "support/test_support.h"
#include "triage/triage.h"

#include <gtest/gtest.h>

using cudiff::test::contains;
using cudiff::test::run_cudiff;

namespace {

cudiff::triage::InvalidTest invalid(const std::string& name, const std::string& cause, double time) {
  cudiff::triage::InvalidTest t;
  t.id = cudiff::triage::content_key("c/" + name);
  t.campaign_id = "c";
  t.test_id = cudiff::triage::content_key("t/" + name);
  t.time = time;
  t.name = name;
  t.configs = {"nvcc-O0", "clang-O0"};
  t.erring_configs = {"clang-O0"};
  t.tool = "memcheck";
  t.cause = cause;
  t.first_error = cause == "stack overflow" ? "Stack overflow" : "Invalid __global__ read of size 4 bytes";
  t.report = "========= " + t.first_error + "\n========= ERROR SUMMARY: 1 error\n";
  t.source_name = name + ".cu";
  t.source = "int main() {}\n";
  return t;
}

} // namespace

TEST(TriageInvalid, ListsTheTableCountsByCauseAndJson) {
  cudiff::TempDir dir("cudiff-triage-invalid");
  const auto db_path = dir.path() / "t.db";
  {
    auto db = cudiff::triage::Database::open(db_path);
    cudiff::triage::write_synthetic_campaign(db, 1, 1, 1, [](const std::vector<std::string>&) {});
    db.add_invalid_test(invalid("cudiff_000000000007", "stack overflow", 1000));
    db.add_invalid_test(invalid("cudiff_000000000008", "stack overflow", 2000));
    db.add_invalid_test(invalid("cudiff_000000000009", "out-of-bounds", 3000));
  }
  const auto table = run_cudiff({"triage", "invalid", "--db", db_path.string()});
  ASSERT_EQ(table.exit_code, 0) << table.err.text;
  EXPECT_TRUE(contains(table.out.text, "cudiff_000000000009")) << table.out.text;
  EXPECT_TRUE(contains(table.out.text, "3 invalid tests (rejected by the sanitizer gate, not filed): "
                                       "stack overflow 2, out-of-bounds 1"))
      << table.out.text;
  EXPECT_TRUE(contains(table.out.text, "clang-O0")) << table.out.text;

  const auto json = run_cudiff({"triage", "invalid", "--json", "--limit", "2", "--db", db_path.string()});
  ASSERT_EQ(json.exit_code, 0) << json.err.text;
  const auto parsed = boost::json::parse(json.out.text);
  EXPECT_EQ(parsed.at("count").as_int64(), 3);
  EXPECT_EQ(parsed.at("by_cause").at("stack overflow").as_int64(), 2);
  ASSERT_EQ(parsed.at("tests").as_array().size(), 2u);
  EXPECT_EQ(parsed.at("tests").as_array()[0].at("name").as_string(), "cudiff_000000000009");
  EXPECT_FALSE(parsed.at("tests").as_array()[0].as_object().contains("report"));

  const auto html = dir.path() / "r.html";
  ASSERT_EQ(run_cudiff({"triage", "report", "--html", html.string(), "--db", db_path.string()}).exit_code, 0);
  EXPECT_TRUE(contains(cudiff::read_file(html), "<b>3</b>invalid tests (sanitizer gate)"));
  const auto exported = run_cudiff({"triage", "export", "1", (dir.path() / "out").string(), "--db", db_path.string()});
  ASSERT_EQ(exported.exit_code, 0) << exported.err.text;
  EXPECT_TRUE(contains(cudiff::read_file(dir.path() / "out" / "report.md"), "3 invalid tests"));
}

TEST(TriageInvalid, AnOlderDatabaseIsUpgradedAndHasNone) {
  cudiff::TempDir dir("cudiff-triage-invalid-old");
  const auto db_path = dir.path() / "old.db";
  cudiff::triage::Database::open(db_path, {.upgrade_to = 3});
  const auto result = run_cudiff({"triage", "invalid", "--db", db_path.string()});
  ASSERT_EQ(result.exit_code, 0) << result.err.text;
  EXPECT_EQ(result.out.text, "0 invalid tests (rejected by the sanitizer gate, not filed)\n");
  EXPECT_EQ(cudiff::triage::Database::open(db_path, {.read_only = true}).version(), cudiff::triage::schema_version);
}
