// triage: the HTML report's parts per class — the bucket tables, a section per class, and the
// plot of cumulative findings per class over time.
#include "triage/report_parts.h"

#include <algorithm>

namespace cudiff::triage::report {
namespace {

constexpr std::size_t buckets_per_class = 25;

/// What each class holds, in a line a reader can act on (docs/triage.md, "Classes and engines").
std::string_view description(const std::optional<FindingClass>& finding_class) {
  if (!finding_class) return "Kinds this cudiff does not know (written by a newer one).";
  switch (*finding_class) {
  case FindingClass::wrong_code:
    return "The program builds and runs, and a config prints other results than another config, the generator's "
           "prediction, or a variant's original.";
  case FindingClass::crash:
    return "A compiler or one of its stages crashed, hung, or compiled far slower than the others.";
  case FindingClass::rejects_valid:
    return "A compiler refuses a program: one generated valid (false_rejection), or one another compiler accepts "
           "(compile_status_mismatch: nothing says which of them is right).";
  case FindingClass::missed_diagnostic:
    return "A compiler lets a program that breaks a rule through: every stage of it (missed_diagnostic, "
           "missed_by_all), or its front end, a later stage failing instead (late_rejection); or it warns where "
           "the other does not (warning_mismatch).";
  case FindingClass::layout_abi:
    return "A type's size, alignment or member offsets, or a kernel's parameter declarations, differ between host "
           "and device or between the compilers (layout_mismatch, abi_mismatch); known choices such as long "
           "double's device size are labelled known.";
  case FindingClass::dialect_difference: return "A rule the accepting compiler documents as relaxed in its dialect.";
  case FindingClass::invalid_tests:
    return "Tests whose runs fault under compute-sanitizer: the program's defect, never filed as a bucket.";
  }
  return "";
}

std::string anchor(const std::optional<FindingClass>& finding_class) {
  std::string name = class_name(finding_class);
  std::ranges::replace(name, ' ', '-');
  return name;
}

/// Fixed per class, so that a class keeps its colour from one report to the next.
std::map<std::string, std::string> class_colours() {
  return {{"wrong code", "#d62728"},        {"crash", "#ff7f0e"},          {"rejects valid", "#1f77b4"},
          {"missed diagnostic", "#9467bd"}, {"layout and ABI", "#bcbd22"}, {"dialect difference", "#8c564b"},
          {"invalid tests", "#7f7f7f"}};
}

std::string invalid_tests_table(const Database& database) {
  const auto causes = database.invalid_test_causes();
  if (causes.empty()) return "<p class='empty'>None.</p>";
  std::string html = "<table><tr><th>cause</th><th>tests</th></tr>";
  for (const auto& [cause, count] : causes) html += "<tr>" + cell(cause) + cell(std::to_string(count), true) + "</tr>";
  return html + "</table><p class='meta'><code>cudiff triage invalid</code> lists them.</p>";
}

} // namespace

std::string bucket_table(const std::vector<Bucket>& buckets, const Origins& origins) {
  if (buckets.empty()) return "<p class='empty'>None.</p>";
  std::string html = "<table><tr><th>id</th><th>key</th><th>kind</th><th>stage</th><th>status</th><th>title</th>"
                     "<th>count</th><th>first seen</th><th>last seen</th><th>configs</th><th>engines</th>"
                     "<th>reproducer</th></tr>";
  const BucketOrigins none;
  for (const Bucket& b : buckets) {
    const auto found = origins.find(b.key);
    const BucketOrigins& origin = found == origins.end() ? none : found->second;
    const std::string status = to_string(b.status);
    html += "<tr>" + cell(std::to_string(b.id), true) + "<td><code>" + html_escape(b.key.substr(0, 12)) +
            "</code></td>" + cell(b.kind) + cell(b.stage) + "<td class='status-" + status + "'>" + status +
            (b.known_reason.empty() ? "" : " <span title='" + html_escape(b.known_reason) + "'>(why?)</span>") +
            "</td>" + cell(b.title) + cell(std::to_string(b.count), true) + cell(format_time(b.first_seen)) +
            cell(format_time(b.last_seen)) + cell(join(origin.configs, ", ")) + cell(join(origin.engines, ", ")) +
            cell(format_bytes(static_cast<std::uint64_t>(b.best_size)), true) + "</tr>";
  }
  return html + "</table>";
}

std::string class_plot_section(const Database& database, const Events& kind_events) {
  Events events;
  events.reserve(kind_events.size());
  for (const auto& [time, kind] : kind_events) events.emplace_back(time, class_name(class_of_kind(kind)));
  Events invalid;
  for (double time : database.invalid_test_times()) invalid.emplace_back(time, to_string(FindingClass::invalid_tests));
  // Both lists are sorted by time; the plot needs one sorted list. std::merge, not
  // inplace_merge: its temporary buffer trips a libstdc++ deprecation under clang 22.
  Events merged;
  merged.reserve(events.size() + invalid.size());
  std::ranges::merge(events, invalid, std::back_inserter(merged),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
  events = std::move(merged);
  auto colours = class_colours();
  if (std::ranges::any_of(events, [](const auto& event) { return event.second == class_name(std::nullopt); }))
    colours[class_name(std::nullopt)] = "#e377c2";
  return "<h2>Findings over time, per class</h2>" +
         cumulative_plot(events, colours, "Cumulative findings per class over time (invalid tests: tests rejected)");
}

std::string classes_section(const Database& database, const std::vector<Bucket>& buckets, const Origins& origins) {
  std::string html = "<h2>Buckets by class</h2><p class='meta'>";
  const auto groups = group_by_class(buckets);
  for (const ClassGroup& group : groups)
    html += (&group == &groups.front() ? "" : ", ") + std::string("<a href='#class-") + anchor(group.finding_class) +
            "'>" + html_escape(class_name(group.finding_class)) + "</a>";
  html += "</p>";
  for (const ClassGroup& group : groups) {
    const bool invalid = group.finding_class == FindingClass::invalid_tests;
    html += "<h3 id='class-" + anchor(group.finding_class) + "'>" + html_escape(class_name(group.finding_class)) +
            " <span class='meta'>";
    html += invalid
                ? std::to_string(database.invalid_test_count()) + " tests rejected by the sanitizer gate"
                : std::to_string(group.buckets.size()) + " buckets, " + std::to_string(group.findings) + " findings";
    html += "</span></h3><p class='meta'>" + html_escape(description(group.finding_class)) + "</p>";
    if (invalid) {
      html += invalid_tests_table(database);
      continue;
    }
    // Buckets arrive most frequent first: the head of each class is what to look at.
    const std::size_t shown = std::min(group.buckets.size(), buckets_per_class);
    html += bucket_table({group.buckets.begin(), group.buckets.begin() + static_cast<std::ptrdiff_t>(shown)}, origins);
    if (shown < group.buckets.size())
      html += "<p class='meta'>" + std::to_string(group.buckets.size() - shown) +
              " less frequent buckets not shown: <code>cudiff triage list" +
              (group.finding_class ? " --class " + anchor(group.finding_class) : std::string()) + "</code>.</p>";
  }
  return html;
}

} // namespace cudiff::triage::report
