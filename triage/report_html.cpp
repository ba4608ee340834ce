// triage: the HTML report — one self-contained page: campaigns, plots, buckets by class, what is new.
#include "triage/report_parts.h"
#include "triage/triage.h"

#include <cstdio>
#include <ctime>

namespace cudiff::triage {
namespace {

using report::cell;
using report::format_time;
using report::html_escape;

constexpr std::size_t campaigns_shown = 15;

constexpr std::string_view style = R"css(
body { font: 14px/1.4 -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; margin: 24px; color: #222; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 28px 0 8px; border-bottom: 1px solid #ccc; }
h3 { font-size: 15px; margin: 20px 0 2px; } h3 .meta { font-weight: normal; font-size: 13px; }
.meta { color: #666; } .empty { color: #666; font-style: italic; }
table { border-collapse: collapse; margin: 6px 0; } td, th { border: 1px solid #ccc; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f0f0f0; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
.cards { display: flex; gap: 12px; flex-wrap: wrap; } .card { border: 1px solid #ccc; border-radius: 6px; padding: 8px 14px; min-width: 110px; }
.card b { display: block; font-size: 22px; } code { font-size: 12px; }
.status-new { color: #b00; font-weight: bold; } .status-known { color: #777; } .status-reported { color: #a60; } .status-fixed { color: #070; }
svg.plot text { font-size: 11px; fill: #333; } svg.plot { display: block; margin: 8px 0 16px; }
)css";

std::string rate(const Campaign& c) {
  const double seconds = c.ended - c.started;
  if (seconds <= 0 || c.tests == 0) return "-";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f", static_cast<double>(c.tests) / seconds);
  return buffer;
}

std::string campaigns_section(const std::vector<Campaign>& campaigns, const Totals& totals,
                              std::int64_t invalid_tests) {
  std::int64_t with_gpu = 0;
  for (const auto& c : campaigns) with_gpu += c.gpus.empty() ? 0 : 1;
  std::string html = "<h2>Campaigns</h2><div class='cards'>";
  auto card = [&](std::string_view label, std::int64_t value) {
    html += "<div class='card'><b>" + std::to_string(value) + "</b>" + std::string(label) + "</div>";
  };
  card("campaigns", totals.campaigns);
  card("tests", totals.tests);
  card("findings", totals.findings);
  card("buckets", totals.buckets);
  card("invalid tests (sanitizer gate)", invalid_tests);
  card("campaigns with a GPU", with_gpu);
  html += "</div><table><tr><th>started</th><th>kind</th><th>host</th><th>tests</th><th>duration</th><th>tests/s</th>"
          "<th>runs on</th><th>findings</th><th>nvcc</th><th>clang</th></tr>";
  const std::size_t first = campaigns.size() > campaigns_shown ? campaigns.size() - campaigns_shown : 0;
  for (std::size_t i = campaigns.size(); i-- > first;) {
    const Campaign& c = campaigns[i];
    html += "<tr>" + cell(format_time(c.started)) + cell(c.kind) + cell(c.host) + cell(std::to_string(c.tests), true) +
            cell(c.ended > c.started ? format_seconds(c.ended - c.started) : "-", true) + cell(rate(c), true) +
            cell(c.gpus.empty() ? "compile only" : "GPU: " + c.gpus) + cell(std::to_string(c.findings), true) +
            cell(c.nvcc_version) + cell(c.clang_version) + "</tr>";
  }
  html += "</table>";
  if (first > 0) html += "<p class='meta'>" + std::to_string(first) + " older campaigns not shown.</p>";
  return html;
}

/// Buckets first seen during the latest campaign: what it found that was not known before.
std::string new_section(const std::vector<Bucket>& buckets, const report::Origins& origins,
                        const std::vector<Campaign>& campaigns) {
  std::string html = "<h2>New since the previous campaign</h2>";
  if (campaigns.empty()) return html + "<p class='empty'>No campaign recorded.</p>";
  const Campaign& latest = campaigns.back();
  std::vector<Bucket> fresh;
  for (const Bucket& b : buckets)
    if (b.first_seen >= latest.started) fresh.push_back(b);
  html += "<p class='meta'>Latest campaign: " + html_escape(latest.kind) + " on " + html_escape(latest.host) +
          ", started " + format_time(latest.started) +
          (campaigns.size() == 1 ? " (the first one: everything is new)" : "") + ".</p>";
  return html + report::bucket_table(fresh, origins);
}

std::string status_line(const Database& database) {
  std::string line;
  for (Status status : {Status::fresh, Status::known, Status::reported, Status::fixed, Status::invalid}) {
    const auto buckets = database.buckets(BucketQuery{status, std::nullopt, 0});
    if (!line.empty()) line += ", ";
    line += std::to_string(buckets.size()) + " " + to_string(status);
  }
  return line;
}

} // namespace

namespace report {

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
    case '&': out += "&amp;"; break;
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '"': out += "&quot;"; break;
    case '\'': out += "&#39;"; break;
    default: out += c;
    }
  }
  return out;
}

std::string format_time(double unix_seconds) { return format_utc(unix_seconds); }

std::string cell(std::string_view text, bool numeric) {
  return std::string(numeric ? "<td class='n'>" : "<td>") + html_escape(text) + "</td>";
}

} // namespace report

std::string render_html_report(const Database& database, double now) {
  const std::vector<Campaign> campaigns = database.campaigns();
  const Totals totals = database.totals();
  const report::Events events = database.finding_times();
  const auto colours = report::kind_colours(events);
  std::string html =
      "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>cudiff triage report</title><style>" +
      std::string(style) + "</style></head><body>";
  html += "<h1>cudiff triage report</h1><p class='meta'>" + html_escape(database.path().filename().string()) +
          ", generated " + format_time(now) + ". Buckets: " + status_line(database) + ".</p>";
  // Every bucket, most frequent first, and where each was found: read once for all sections.
  const std::vector<Bucket> buckets = database.buckets();
  const report::Origins origins = database.bucket_origins();
  html += campaigns_section(campaigns, totals, database.invalid_test_count());
  html += report::class_plot_section(database, events);
  html += "<h2>Findings over time, per kind</h2>" + report::cumulative_plot(events, colours) +
          report::histogram_plot(events, colours);
  html += report::classes_section(database, buckets, origins);
  html += new_section(buckets, origins, campaigns);
  html += "<p class='meta'>Keys are content hashes of the normalized symptom; <code>cudiff triage show ID</code> "
          "and <code>cudiff triage export ID DIR</code> give the details and a bug report.</p></body></html>\n";
  return html;
}

} // namespace cudiff::triage
