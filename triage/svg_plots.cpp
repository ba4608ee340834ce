// triage: the report's plots as inline SVG (no scripts, nothing fetched: the page works offline).
#include "triage/report_parts.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <set>

namespace cudiff::triage::report {
namespace {

constexpr double width = 900, height = 280;
constexpr double left = 60, right = 250, top = 20, bottom = 40;  // room for axes and the legend
constexpr double plot_w = width - left - right, plot_h = height - top - bottom;

std::string number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f", value);
  return buffer;
}

std::string short_time(double seconds, double span) {
  const std::time_t t = static_cast<std::time_t>(seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, span > 2 * 86400 ? "%m-%d" : span > 120 ? "%H:%M" : "%H:%M:%S", &tm);
  return buffer;
}

struct Frame {
  double t0, t1, y_max;
  double x(double t) const { return left + (t1 > t0 ? (t - t0) / (t1 - t0) : 0.5) * plot_w; }
  double y(double v) const { return top + plot_h - (y_max > 0 ? v / y_max : 0) * plot_h; }
};

/// 1, 2, 5 x 10^k: a tick step giving about `ticks` ticks up to `max`.
double nice_step(double max, int ticks) {
  const double raw = std::max(max / ticks, 1.0);
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * power >= raw) return m * power;
  return 10 * power;
}

std::string axes(const Frame& f, std::string_view y_label) {
  std::string svg;
  svg += "<line x1='" + number(left) + "' y1='" + number(top + plot_h) + "' x2='" + number(left + plot_w) + "' y2='" +
         number(top + plot_h) + "' stroke='#444'/>";
  svg += "<line x1='" + number(left) + "' y1='" + number(top) + "' x2='" + number(left) + "' y2='" +
         number(top + plot_h) + "' stroke='#444'/>";
  const double step = nice_step(f.y_max, 5);
  for (double v = 0; v <= f.y_max + 1e-9; v += step) {
    svg += "<line x1='" + number(left) + "' y1='" + number(f.y(v)) + "' x2='" + number(left + plot_w) + "' y2='" +
           number(f.y(v)) + "' stroke='#ddd'/>";
    svg += "<text x='" + number(left - 6) + "' y='" + number(f.y(v) + 4) + "' text-anchor='end'>" +
           std::to_string(static_cast<long long>(v)) + "</text>";
  }
  for (int i = 0; i <= 4; ++i) {
    const double t = f.t0 + (f.t1 - f.t0) * i / 4;
    svg += "<text x='" + number(f.x(t)) + "' y='" + number(top + plot_h + 16) + "' text-anchor='middle'>" +
           short_time(t, f.t1 - f.t0) + "</text>";
  }
  svg += "<text x='" + number(left + plot_w / 2) + "' y='" + number(height - 4) +
         "' text-anchor='middle'>time (UTC)</text>";
  svg += "<text x='14' y='" + number(top + plot_h / 2) + "' transform='rotate(-90 14 " + number(top + plot_h / 2) +
         ")' text-anchor='middle'>" + std::string(y_label) + "</text>";
  return svg;
}

std::string legend(const std::map<std::string, std::string>& colours, const std::map<std::string, long>& totals) {
  std::string svg;
  double y = top + 10;
  for (const auto& [kind, colour] : colours) {
    svg += "<rect x='" + number(left + plot_w + 14) + "' y='" + number(y - 9) + "' width='12' height='12' fill='" +
           colour + "'/>";
    const auto total = totals.find(kind);
    svg += "<text x='" + number(left + plot_w + 32) + "' y='" + number(y + 1) + "'>" + html_escape(kind) + " (" +
           std::to_string(total == totals.end() ? 0 : total->second) + ")</text>";
    y += 18;
  }
  return svg;
}

std::string open_svg(std::string_view title) {
  return "<svg xmlns='http://www.w3.org/2000/svg' class='plot' width='" + number(width) + "' height='" +
         number(height) + "' viewBox='0 0 " + number(width) + " " + number(height) + "' role='img'><title>" +
         html_escape(title) + "</title>";
}

std::map<std::string, long> totals_of(const Events& events) {
  std::map<std::string, long> totals;
  for (const auto& [time, kind] : events) ++totals[kind];
  return totals;
}

} // namespace

std::map<std::string, std::string> kind_colours(const Events& events) {
  static constexpr const char* palette[] = {"#d62728", "#1f77b4", "#2ca02c", "#ff7f0e",
                                            "#9467bd", "#8c564b", "#e377c2"};
  std::set<std::string> kinds;
  for (const auto& event : events) kinds.insert(event.second);
  std::map<std::string, std::string> colours;
  std::size_t i = 0;
  for (const auto& kind : kinds) colours[kind] = palette[i++ % std::size(palette)];
  return colours;
}

std::string cumulative_plot(const Events& events, const std::map<std::string, std::string>& colours,
                            std::string_view title) {
  if (events.empty()) return "<p class='empty'>No findings yet.</p>";
  const std::map<std::string, long> totals = totals_of(events);
  long most = 0;
  for (const auto& [kind, total] : totals) most = std::max(most, total);
  Frame f{events.front().first, events.back().first, static_cast<double>(most)};
  f.y_max = std::ceil(f.y_max / nice_step(f.y_max, 5)) * nice_step(f.y_max, 5);
  std::string svg = open_svg(title) + axes(f, "findings (cumulative)");
  std::size_t index = 0;
  for (const auto& [kind, colour] : colours) {
    // One point per pixel column at most: 100,000 findings still make a small page.
    std::string points = number(f.x(f.t0)) + "," + number(f.y(0));
    long count = 0;
    double last_x = -1;
    for (const auto& [time, event_kind] : events) {
      if (event_kind != kind) continue;
      ++count;
      const double x = f.x(time);
      if (x - last_x < 1 && count != totals.at(kind)) continue;
      last_x = x;
      points += " " + number(x) + "," + number(f.y(count - 1)) + " " + number(x) + "," + number(f.y(count));
    }
    points += " " + number(f.x(f.t1)) + "," + number(f.y(count));
    // Every other line dashed: kinds with equal counts would otherwise hide one another.
    svg += "<polyline fill='none' stroke-width='2.5' stroke='" + colour + "'" +
           (index++ % 2 == 1 ? " stroke-dasharray='8 4'" : "") + " points='" + points + "'/>";
  }
  return svg + legend(colours, totals) + "</svg>";
}

std::string histogram_plot(const Events& events, const std::map<std::string, std::string>& colours) {
  if (events.empty()) return "";
  constexpr int bins = 30;
  const double t0 = events.front().first, t1 = events.back().first;
  const double span = t1 > t0 ? t1 - t0 : 1;
  std::map<std::string, std::vector<long>> counts;
  for (const auto& [kind, colour] : colours) counts[kind].assign(bins, 0);
  for (const auto& [time, kind] : events)
    ++counts[kind][std::min(bins - 1, static_cast<int>((time - t0) / span * bins))];
  long tallest = 0;
  for (int b = 0; b < bins; ++b) {
    long sum = 0;
    for (const auto& [kind, per_bin] : counts) sum += per_bin[b];
    tallest = std::max(tallest, sum);
  }
  Frame f{t0, t0 + span, static_cast<double>(tallest)};
  f.y_max = std::ceil(f.y_max / nice_step(f.y_max, 5)) * nice_step(f.y_max, 5);
  std::string svg = open_svg("Findings per interval, stacked by kind") + axes(f, "findings per interval");
  const double bar = plot_w / bins;
  for (int b = 0; b < bins; ++b) {
    double base = 0;
    for (const auto& [kind, per_bin] : counts) {
      if (per_bin[b] == 0) continue;
      const double y0 = f.y(base), y1 = f.y(base + per_bin[b]);
      svg += "<rect x='" + number(left + b * bar + 1) + "' y='" + number(y1) + "' width='" + number(bar - 2) +
             "' height='" + number(y0 - y1) + "' fill='" + colours.at(kind) + "'/>";
      base += per_bin[b];
    }
  }
  return svg + legend(colours, totals_of(events)) + "</svg>";
}

} // namespace cudiff::triage::report
