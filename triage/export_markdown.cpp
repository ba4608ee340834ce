// triage: `cudiff triage export` — a Markdown bug report a compiler team can act on, and the
// smallest reproducer next to it.
#include "triage/report_parts.h"
#include "triage/triage.h"

namespace cudiff::triage {
namespace {

using report::format_time;

constexpr std::size_t printed_lines_kept = 120;

std::string text_at(const boost::json::value& value, std::initializer_list<std::string_view> path) {
  const boost::json::value* at = &value;
  for (std::string_view key : path) {
    const auto* object = at->if_object();
    if (object == nullptr || (at = object->if_contains(key)) == nullptr) return {};
  }
  if (at->is_string()) return std::string(at->as_string());
  if (at->is_null()) return {};
  return boost::json::serialize(*at);
}

std::string fenced(std::string_view text, std::string_view language = "") {
  std::vector<std::string> lines = split_lines(text);
  if (lines.size() > printed_lines_kept) {
    const std::size_t cut = lines.size() - printed_lines_kept;
    lines.resize(printed_lines_kept);
    lines.push_back("... (" + std::to_string(cut) + " more lines)");
  }
  // A fence longer than any run of backticks inside, so the text cannot close it.
  std::string fence = "```";
  while (text.find(fence) != std::string_view::npos) fence += '`';
  return fence + std::string(language) + "\n" + join(lines, "\n") + (lines.empty() ? "" : "\n") + fence + "\n";
}

std::string expected_for(std::string_view kind) {
  if (kind == "compile_status_mismatch")
    return "both compilers accept the program, or both reject it (it is either valid CUDA C++ or not)";
  if (kind == "crash") return "the compiler diagnoses or compiles the program; it never crashes";
  if (kind == "hang") return "the compile (or the program) finishes well within the time limit";
  if (kind == "run_mismatch")
    return "both binaries exit the same way and print the same output (the program has one defined result)";
  if (kind == "warning_mismatch") return "both compilers warn about the same places";
  if (kind == "missed_diagnostic")
    return "the program breaks a rule of the CUDA C++ Programming Guide that must be diagnosed (the rule id in the "
           "title; the offending line is marked `// expected-error:`), so every compiler rejects it";
  if (kind == "dialect_difference")
    return "nothing: the accepting compiler documents this rule as relaxed in its CUDA dialect (the documentation is "
           "cited below); the guide's rule still says the program must be rejected";
  if (kind == "missed_by_all")
    return "the program breaks a rule of the CUDA C++ Programming Guide that must be diagnosed, so every compiler "
           "rejects it (none does)";
  if (kind == "false_rejection") return "the program is valid CUDA C++ (generated to be), so every compiler accepts it";
  return "every compiler and view agrees (" + std::string(kind) + ")";
}

std::string replace_all(std::string text, std::string_view from, std::string_view to) {
  if (from.empty()) return text;
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

std::string reproducer_name(const StoredFinding& finding) {
  std::string name = std::filesystem::path(finding.source_name).filename().string();
  return name.empty() ? "reproducer.cu" : name;
}

} // namespace

std::string render_markdown_report(const Database& database, const Bucket& bucket) {
  const std::vector<StoredFinding> best = database.findings_of(bucket.key, 1);
  std::string md = "# " + bucket.title + "\n\n";
  md += "- bucket `" + bucket.key + "` (local id " + std::to_string(bucket.id) + "), kind `" + bucket.kind +
        "`, status " + to_string(bucket.status) + "\n";
  md += "- seen " + std::to_string(bucket.count) + " time" + (bucket.count == 1 ? "" : "s") + ", first " +
        format_time(bucket.first_seen) + ", last " + format_time(bucket.last_seen) + "\n";
  if (!bucket.known_reason.empty()) md += "- known difference: " + bucket.known_reason + "\n";
  if (best.empty()) return md + "\nNo finding of this bucket is stored in this database.\n";
  const StoredFinding& finding = best.front();
  const std::string name = reproducer_name(finding);
  const auto campaign = database.campaign(finding.campaign_id);

  md += "\n## Versions\n\n";
  md += "- nvcc: " + (campaign ? campaign->nvcc_version : "?") + " (" +
        text_at(finding.outputs, {"toolchain", "nvcc", "path"}) + ")\n";
  md += "- clang: " + (campaign ? campaign->clang_version : "?") + " (" +
        text_at(finding.outputs, {"toolchain", "clang", "path"}) + ")\n";
  md += "- CUDA toolkit used by clang: " + text_at(finding.outputs, {"toolchain", "cuda_home"}) + "\n";
  md += "- GPU: " +
        (campaign && !campaign->gpus.empty() ? campaign->gpus
                                             : "none (compile only: " + text_at(finding.outputs, {"gpu_note"}) + ")") +
        "\n";
  if (campaign) md += "- host: " + campaign->host + ", cudiff " + campaign->cudiff_version + "\n";

  md += "\n## Reproducer\n\n`" + name + "` (" + std::to_string(finding.source.size()) +
        " bytes, the smallest of this bucket's findings):\n\n" + fenced(finding.source, "cuda");

  md += "\n## Expected vs observed\n\n- expected: " + expected_for(bucket.kind) + "\n- observed: " + finding.summary +
        "\n";
  // Run-time findings passed compute-sanitizer before they were filed (or say why not).
  if (std::string gate = text_at(finding.details, {"sanitizer_gate"}); !gate.empty()) md += "- " + gate + "\n";
  if (const std::int64_t invalid = database.invalid_test_count(); invalid > 0)
    md += "- this database also lists " + std::to_string(invalid) + " invalid test" + (invalid == 1 ? "" : "s") +
          " (runs that fault under compute-sanitizer; not filed as compiler bugs: `cudiff triage invalid`)\n";

  md += "\n## Commands and what each compiler printed\n\nRun from the directory holding `" + name + "`.\n";
  const std::string original = text_at(finding.outputs, {"file"});
  if (const auto* configs = finding.outputs.is_object() ? finding.outputs.as_object().if_contains("configs") : nullptr;
      configs != nullptr && configs->is_array()) {
    for (const auto& config : configs->as_array()) {
      md += "\n### " + text_at(config, {"config"}) + " (" + text_at(config, {"outcome"}) + ", " +
            text_at(config, {"status"}) + ")\n\n";
      md += fenced(replace_all(text_at(config, {"command"}), original, name), "sh");
      const std::string err = text_at(config, {"stderr"});
      md += err.empty() ? "\n(printed nothing on stderr)\n" : "\nstderr:\n\n" + fenced(err);
      if (std::string run = text_at(config, {"run", "status"}); !run.empty()) {
        md += "\nrun: " + run + "\n\n" + fenced(text_at(config, {"run", "stdout"}));
        if (std::string run_err = text_at(config, {"run", "stderr"}); !run_err.empty())
          md += "\nrun stderr:\n\n" + fenced(run_err);
      }
    }
  }
  md += "\n## Signature\n\n" + fenced(bucket.symptom);
  const auto notes = database.notes(bucket.key);
  if (!notes.empty()) {
    md += "\n## Notes\n\n";
    for (const Note& note : notes) md += "- " + format_time(note.time) + ": " + note.text + "\n";
  }
  return md;
}

std::filesystem::path export_bucket(const Database& database, const Bucket& bucket,
                                    const std::filesystem::path& directory) {
  std::error_code ec;
  std::filesystem::create_directories(directory, ec);
  if (ec) throw_environment("cannot create " + directory.string() + ": " + ec.message());
  const std::vector<StoredFinding> best = database.findings_of(bucket.key, 1);
  if (!best.empty()) write_file(directory / reproducer_name(best.front()), best.front().source);
  const std::filesystem::path report = directory / "report.md";
  write_file(report, render_markdown_report(database, bucket));
  return report;
}

} // namespace cudiff::triage
