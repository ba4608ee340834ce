// triage: reports — the offline HTML report, and a bucket exported as a Markdown bug report,
// repro.sh and its reproducer.
#pragma once

#include "triage/database.h"

#include <filesystem>
#include <string>
#include <vector>

namespace cudiff::triage {

// ---- reports ----------------------------------------------------------------------------

/// One self-contained HTML page (inline CSS and SVG, no scripts, nothing fetched): campaign
/// summary, findings over time per kind, top buckets, what is new since the previous campaign.
std::string render_html_report(const Database& database, double now);

/// repro.sh for a stored finding (docs/triage.md, "Export"): rebuilds `reproducer_name`
/// (beside the script) with each recorded config's command, the compilers through $NVCC and
/// $CLANG and the toolkit through $CUDA_HOME (default: those recorded), runs the binaries
/// where the finding is a run's, and exits 1 while the bug is present, 0 once it is fixed and
/// 125 when it cannot tell (a compiler or the GPU missing, or an outcome that is neither).
std::string render_repro_script(const Bucket& bucket, const StoredFinding& finding, const std::string& reproducer_name);

/// What `export_bucket` wrote.
struct ExportedReport {
  std::filesystem::path directory, report, script, reproducer;  ///< reproducer empty: no finding stored
  std::vector<std::filesystem::path> attachments;
};

/// The reproducer file name a bucket's best finding is exported under.
std::string exported_reproducer_name(const StoredFinding& finding);

/// Writes DIR/report.md, DIR/repro.sh (executable) and DIR/<reproducer name>; `attachments`
/// (files already in DIR, such as the PTX a ptxas bug needs) are listed in the report.
ExportedReport export_bucket(const Database& database, const Bucket& bucket, const std::filesystem::path& directory,
                             const std::vector<std::filesystem::path>& attachments = {});

} // namespace cudiff::triage
