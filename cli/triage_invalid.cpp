// `cudiff triage invalid`: the tests the sanitizer gate rejected (their runs fault under
// compute-sanitizer, so what they showed was never filed as a compiler bug), as a table with
// counts by cause, or as JSON; `--full` adds each report and program to the JSON.
#include "cli/commands.h"

#include <ostream>

namespace cudiff::cli {

int triage_invalid(const triage::Database& db, const ParsedArgs& args, std::ostream& out) {
  const std::size_t limit = args.unsigned_number("--limit").value_or(0);
  const std::vector<triage::InvalidTest> tests = db.invalid_tests(limit);
  const auto causes = db.invalid_test_causes();
  const std::int64_t total = db.invalid_test_count();
  if (args.has("--json")) {
    boost::json::object by_cause;
    for (const auto& [cause, count] : causes) by_cause[cause] = count;
    boost::json::array list;
    for (const triage::InvalidTest& test : tests) list.push_back(triage::to_json(test, args.has("--full")));
    out << pretty_json(
        boost::json::object{{"count", total}, {"by_cause", std::move(by_cause)}, {"tests", std::move(list)}});
    return 0;
  }
  TextTable table({"time", "test", "tool", "cause", "configs", "first error"});
  for (const triage::InvalidTest& test : tests)
    table.add_row({day_time(test.time), shorten(test.name, 40), test.tool, test.cause,
                   join(test.erring_configs.empty() ? test.configs : test.erring_configs, ","),
                   shorten(test.first_error, 70)});
  if (!tests.empty()) out << table.render();
  std::vector<std::string> counts;
  for (const auto& [cause, count] : causes) counts.push_back(cause + " " + std::to_string(count));
  out << total << " invalid test" << (total == 1 ? "" : "s") << " (rejected by the sanitizer gate, not filed)"
      << (counts.empty() ? "" : ": " + join(counts, ", ")) << "\n";
  return 0;
}

} // namespace cudiff::cli
