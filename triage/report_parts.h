// triage (internal): pieces the HTML and Markdown reports share — escaping, times, SVG plots,
// the bucket tables and the sections per class; the Markdown bug report export writes.
#pragma once

#include "triage/triage.h"

#include <boost/json.hpp>

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cudiff::triage {

/// A Markdown bug report for one bucket: title, one-line summary, the smallest reproducer,
/// expected (the generator's prediction or the rule) against observed, the guilty stage with
/// its swap evidence, the releases that show it, versions, the GPU, the compute-sanitizer
/// verdict, each config's exact command and what it printed. `attachments` names the files
/// beside it (a stage's PTX or LLVM IR) to mention.
std::string render_markdown_report(const Database& database, const Bucket& bucket,
                                   const std::vector<std::string>& attachments = {});

} // namespace cudiff::triage

namespace cudiff::triage::report {

std::string html_escape(std::string_view text);
/// A recorded config's compile command (outputs.configs[i]) as a person types it: the recorded
/// compiler, the reproducer's name for the original file, outputs under CONFIG/, and without
/// cudiff's own instrumentation (TMPDIR, nvcc's --time, clang's crash-diagnostics directory).
std::string clean_command(const boost::json::value& config, std::string_view original, std::string_view reproducer,
                          std::string_view mode);
/// "2025-01-31 12:34:56 UTC"; "-" for 0.
std::string format_time(double unix_seconds);
/// A table cell with the text escaped; `numeric` right-aligns it.
std::string cell(std::string_view text, bool numeric = false);

/// (time, kind) of every finding, oldest first.
using Events = std::vector<std::pair<double, std::string>>;

/// A fixed colour per kind, in the order kinds are first listed.
std::map<std::string, std::string> kind_colours(const Events& events);
/// Inline SVG: cumulative findings per kind over time, one line each, with axes and legend.
/// The "kind" of an event is any label: the report also plots findings per class with it.
std::string cumulative_plot(const Events& events, const std::map<std::string, std::string>& colours,
                            std::string_view title = "Cumulative findings per kind over time");
/// Inline SVG: findings per time interval, stacked by kind.
std::string histogram_plot(const Events& events, const std::map<std::string, std::string>& colours);

/// Origins of every bucket by key (Database::bucket_origins).
using Origins = std::map<std::string, BucketOrigins>;

/// An HTML table of buckets: id, key, kind, stage, status, title, count, first and last seen,
/// configs, engines, reproducer size; "None." for none.
std::string bucket_table(const std::vector<Bucket>& buckets, const Origins& origins);
/// "Findings over time, per class": cumulative findings of each class, from the findings'
/// (time, kind) and the invalid tests' times, as one inline SVG plot.
std::string class_plot_section(const Database& database, const Events& kind_events);
/// "Buckets by class": a heading per class with its bucket and finding counts, its most
/// frequent buckets, and for invalid tests their count per cause.
std::string classes_section(const Database& database, const std::vector<Bucket>& buckets, const Origins& origins);

} // namespace cudiff::triage::report
