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
  if (kind == "wrong_code")
    return "every config prints the checksums the generator's interpreter predicts (the program has one defined "
           "result)";
  if (kind == "common_wrong_code")
    return "the configs print the checksums the generator's interpreter predicts (all of them print other ones "
           "alike: a shared stage, or the interpreter)";
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

std::string reproducer_name(const StoredFinding& finding) { return exported_reproducer_name(finding); }

/// Expected against observed in numbers, where the finding has them: the generator's predicted
/// checksum of each differing kernel and what each config printed.
std::string predicted_values(const StoredFinding& finding) {
  const auto* details = finding.details.if_object();
  const auto* expected = details == nullptr ? nullptr : details->if_contains("expected");
  const auto* values = details == nullptr ? nullptr : details->if_contains("values");
  if (expected == nullptr || !expected->is_object() || values == nullptr || !values->is_object()) return {};
  std::string md = "\n| kernel | the generator predicts |";
  std::vector<std::string> configs;
  for (const auto& [config, _] : values->as_object()) configs.emplace_back(config);
  for (const std::string& config : configs) md += " " + config + " |";
  md += "\n|---|---|";
  for (std::size_t i = 0; i < configs.size(); ++i) md += "---|";
  md += "\n";
  for (const auto& [kernel, want] : expected->as_object()) {
    const std::string wanted = want.is_string() ? std::string(want.as_string()) : boost::json::serialize(want);
    md += "| `" + std::string(kernel) + "` | `" + wanted + "` |";
    for (const std::string& config : configs) {
      const std::string got = text_at(*values, {config, std::string_view(kernel)});
      md += " `" + got + "`" + (got == wanted ? "" : " (wrong)") + " |";
    }
    md += "\n";
  }
  return md + "\n";
}

/// The guilty stage and the swaps that show it.
std::string stage_section(const Bucket& bucket, const StoredFinding& finding) {
  const std::string stage = text_at(finding.details, {"stage"});
  const bool attributed = finding.details.is_object() && finding.details.as_object().contains("stage_why");
  if (!attributed && bucket.kind == "crash")
    return "\n## Guilty stage\n\n- not attributed; the tool that crashed: **" + (stage.empty() ? bucket.stage : stage) +
           "** (its crash output below names the pass)\n";
  std::string md = "\n## Guilty stage\n\n- stage: **" + (stage.empty() ? bucket.stage : stage) + "**";
  if (std::string why = text_at(finding.details, {"stage_why"}); !why.empty()) md += ": " + why;
  md += "\n";
  if (std::string tool = text_at(finding.details, {"tool"}); !tool.empty())
    md += "- the tool that spoke: " + tool + "\n";
  const auto* details = finding.details.if_object();
  const auto* evidence = details == nullptr ? nullptr : details->if_contains("stage_evidence");
  if (evidence != nullptr && evidence->is_array() && !evidence->as_array().empty()) {
    md += "\n| swap | configs | outcome | what it printed |\n|---|---|---|---|\n";
    for (const auto& swap : evidence->as_array()) {
      std::vector<std::string> configs;
      if (const auto* list = swap.is_object() ? swap.as_object().if_contains("configs") : nullptr;
          list != nullptr && list->is_array())
        for (const auto& config : list->as_array())
          if (config.is_string()) configs.emplace_back(config.as_string());
      md += "| " + text_at(swap, {"swap"}) + " | " + join(configs, ", ") + " | " + text_at(swap, {"outcome"}) + " | `" +
            replace_all(text_at(swap, {"line"}), "|", "\\|") + "` |\n";
    }
  }
  return md;
}

} // namespace

std::string exported_reproducer_name(const StoredFinding& finding) {
  std::string name = std::filesystem::path(finding.source_name).filename().string();
  return name.empty() ? "reproducer.cu" : name;
}

std::string render_markdown_report(const Database& database, const Bucket& bucket,
                                   const std::vector<std::string>& attachments) {
  const std::vector<StoredFinding> best = database.findings_of(bucket.key, 1);
  const BucketFacts facts = database.facts(bucket.key);
  std::string md = "# " + bucket.title + "\n\n";
  if (!best.empty()) md += best.front().summary + "\n\n";
  md += "- bucket `" + bucket.key + "` (local id " + std::to_string(bucket.id) + "), kind `" + bucket.kind +
        "`, status " + to_string(bucket.status) + "\n";
  md += "- seen " + std::to_string(bucket.count) + " time" + (bucket.count == 1 ? "" : "s") + ", first " +
        format_time(bucket.first_seen) + ", last " + format_time(bucket.last_seen) + "\n";
  if (!bucket.known_reason.empty()) md += "- known difference: " + bucket.known_reason + "\n";
  if (!facts.link.empty()) md += "- reported upstream: " + facts.link + "\n";
  md += "- first bad version: " + (facts.versions.empty() ? "not bisected (`cudiff triage bisect`)" : facts.versions) +
        "\n";
  if (!facts.recheck.empty())
    md += "- last recheck: " + facts.recheck + " (" + format_time(facts.recheck_time) + ", " + facts.recheck_compilers +
          ")\n";
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

  md += "\n## Reproducer\n\n`" + name + "` (" + std::to_string(split_lines(finding.source).size()) + " lines, " +
        std::to_string(finding.source.size()) + " bytes, the smallest of this bucket's findings):\n\n" +
        fenced(finding.source, "cuda");
  md += "\n`./repro.sh` rebuilds it with every config below and exits 1 while the bug is present, 0 once it is "
        "fixed, 125 when it cannot tell (a compiler or the GPU missing); `NVCC=`, `CLANG=` and `CUDA_HOME=` "
        "choose the compilers and the toolkit.\n";
  for (const std::string& attachment : attachments)
    md += "\nAlso here: `" + attachment + "`" +
          (attachment.ends_with(".ptx")  ? " (the PTX the guilty stage is given)"
           : attachment.ends_with(".ll") ? " (the LLVM IR of the device side, as the backend is given it)"
                                         : "") +
          ".\n";

  md += "\n## Expected vs observed\n\n- expected: " + expected_for(bucket.kind) + "\n- observed: " + finding.summary +
        "\n";
  md += predicted_values(finding);
  // Run-time findings passed compute-sanitizer before they were filed (or say why not).
  if (std::string gate = text_at(finding.details, {"sanitizer_gate"}); !gate.empty()) md += "- " + gate + "\n";
  if (const std::int64_t invalid = database.invalid_test_count(); invalid > 0)
    md += "- this database also lists " + std::to_string(invalid) + " invalid test" + (invalid == 1 ? "" : "s") +
          " (runs that fault under compute-sanitizer; not filed as compiler bugs: `cudiff triage invalid`)\n";

  md += stage_section(bucket, finding);

  md += "\n## Commands and what each compiler printed\n\nRun from the directory holding `" + name + "`.\n";
  const std::string original = text_at(finding.outputs, {"file"});
  if (const auto* configs = finding.outputs.is_object() ? finding.outputs.as_object().if_contains("configs") : nullptr;
      configs != nullptr && configs->is_array()) {
    for (const auto& config : configs->as_array()) {
      md += "\n### " + text_at(config, {"config"}) + " (" + text_at(config, {"outcome"}) + ", " +
            text_at(config, {"status"}) + ")\n\n";
      md += fenced("mkdir -p " + text_at(config, {"config"}) + " && " +
                       report::clean_command(config, original, name, text_at(finding.outputs, {"mode"})),
                   "sh");
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

ExportedReport export_bucket(const Database& database, const Bucket& bucket, const std::filesystem::path& directory,
                             const std::vector<std::filesystem::path>& attachments) {
  std::error_code ec;
  std::filesystem::create_directories(directory, ec);
  if (ec) throw_environment("cannot create " + directory.string() + ": " + ec.message());
  ExportedReport exported;
  exported.directory = directory;
  exported.attachments = attachments;
  const std::vector<StoredFinding> best = database.findings_of(bucket.key, 1);
  exported.script = directory / "repro.sh";
  if (!best.empty()) {
    const std::string name = reproducer_name(best.front());
    exported.reproducer = directory / name;
    write_file(exported.reproducer, best.front().source);
    write_file(exported.script, render_repro_script(bucket, best.front(), name));
  } else {
    write_file(exported.script, "#!/usr/bin/env bash\necho 'cannot tell: no finding of this bucket is stored' >&2\n"
                                "exit 125\n");
  }
  std::filesystem::permissions(exported.script,
                               std::filesystem::perms::owner_exec | std::filesystem::perms::group_exec |
                                   std::filesystem::perms::others_exec,
                               std::filesystem::perm_options::add, ec);
  std::vector<std::string> names;
  for (const auto& attachment : attachments) names.push_back(attachment.filename().string());
  exported.report = directory / "report.md";
  write_file(exported.report, render_markdown_report(database, bucket, names));
  return exported;
}

} // namespace cudiff::triage
