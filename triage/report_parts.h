// triage (internal): pieces the HTML and Markdown reports share — escaping, times, SVG plots.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cudiff::triage::report {

std::string html_escape(std::string_view text);
/// "2025-01-31 12:34:56 UTC"; "-" for 0.
std::string format_time(double unix_seconds);

/// (time, kind) of every finding, oldest first.
using Events = std::vector<std::pair<double, std::string>>;

/// A fixed colour per kind, in the order kinds are first listed.
std::map<std::string, std::string> kind_colours(const Events& events);
/// Inline SVG: cumulative findings per kind over time, one line each, with axes and legend.
std::string cumulative_plot(const Events& events, const std::map<std::string, std::string>& colours);
/// Inline SVG: findings per time interval, stacked by kind.
std::string histogram_plot(const Events& events, const std::map<std::string, std::string>& colours);

} // namespace cudiff::triage::report
