// How a check is shown: one table row per config, notes, the verdict; or all of it as JSON.
#include "cli/commands.h"

#include <algorithm>

namespace cudiff::cli {
namespace {

/// The layout section of the table: one row per probed property, one column per view.
std::string render_layout(const pipeline::LayoutCheck& layout) {
  std::string out = "layout probes (" + layout.sidecar.filename().string() +
                    "): " + std::to_string(layout.probes.size()) + " types, " + std::to_string(layout.views.size()) +
                    " views\n";
  if (!layout.probes.empty()) out += oracle::layout_table(layout.probes, layout.views);
  for (const std::string& note : layout.notes) out += "note: layout: " + note + "\n";
  return out;
}

boost::json::value layout_json(const pipeline::LayoutCheck& layout) {
  boost::json::array probes, views;
  for (const oracle::LayoutProbe& probe : layout.probes) probes.push_back(oracle::to_json(probe));
  for (const oracle::LayoutView& view : layout.views) views.push_back(oracle::to_json(view));
  boost::json::array notes;
  for (const std::string& note : layout.notes) notes.push_back(boost::json::string(note));
  return boost::json::object{{"sidecar", layout.sidecar.string()},
                             {"probes", probes},
                             {"views", views},
                             {"notes", notes}};
}

} // namespace

std::string render_check_table(const pipeline::TestCheck& run) {
  const bool any_run = std::any_of(run.configs.begin(), run.configs.end(),
                                   [](const pipeline::ConfigCheck& c) { return c.run.has_value(); });
  std::vector<std::string> header = {"config", "compiler", "build", "time", "diagnostics"};
  if (any_run) header.insert(header.end(), {"run", "run time"});
  TextTable table(header);
  for (const pipeline::ConfigCheck& config : run.configs) {
    const auto& compiler = run.toolchain.get(config.compile.config.compiler);
    std::vector<std::string> row = {config.compile.config.name,
                                    runners::to_string(compiler.kind) + " " + compiler.version,
                                    oracle::to_string(config.observation.outcome),
                                    format_seconds(config.observation.seconds),
                                    oracle::diagnostics_summary(config.observation)};
    if (any_run) {
      row.push_back(config.run ? oracle::run_summary(*config.run) : "-");
      row.push_back(config.run ? format_seconds(config.run->seconds) : "-");
    }
    table.add_row(row);
  }
  std::string out = run.file.string() + " (mode: " + runners::to_string(run.mode) + ")\n" + table.render();
  for (const pipeline::ConfigCheck& config : run.configs)
    if (!config.note.empty()) out += "note: " + config.compile.config.name + ": " + config.note + "\n";
  for (const std::string& note : run.notes) out += "note: " + note + "\n";
  if (run.layout) out += render_layout(*run.layout);
  if (run.expected && run.expected->reject)
    out += "expected: rejected (breaks " +
           (run.expected->rule_id.empty() ? std::string("an E rule") : run.expected->rule_id) +
           (run.expected->line > 0 ? ", line " + std::to_string(run.expected->line) : std::string()) + ")\n";
  if (run.verdict.findings.size() > 1)
    for (std::size_t i = 0; i < run.verdict.findings.size(); ++i)
      out += "finding " + std::to_string(i + 1) + ": [" + oracle::to_string(run.verdict.findings[i].kind) + "] " +
             run.verdict.findings[i].summary + "\n";
  out += "verdict: " + run.verdict.headline() + "\n";
  // The stage each finding is attributed to, and why (a PTX file's levels name the departing one).
  for (const oracle::Finding& finding : run.verdict.findings) {
    const auto* stage = finding.details.if_contains("stage");
    const auto* why = finding.details.if_contains("stage_why");
    if (stage != nullptr && stage->is_string() && why != nullptr && why->is_string())
      out += "stage: " + std::string(stage->get_string()) + " (" + std::string(why->get_string()) + ")\n";
  }
  return out;
}

boost::json::value check_json(const pipeline::TestCheck& run) {
  boost::json::array configs;
  for (const pipeline::ConfigCheck& config : run.configs) {
    boost::json::object entry{{"config", config.compile.config.name},
                              {"compiler", runners::to_string(config.compile.config.compiler)},
                              {"command", runners::to_json(config.compile.command)},
                              {"process", runners::to_json(config.compile.process)},
                              {"observation", oracle::to_json(config.observation)}};
    if (config.run) entry["run"] = oracle::to_json(*config.run);
    if (config.run_process) entry["run_process"] = runners::to_json(*config.run_process);
    if (!config.note.empty()) entry["note"] = config.note;
    configs.push_back(std::move(entry));
  }
  boost::json::array gpus;
  for (const auto& gpu : run.gpus.gpus) gpus.push_back(runners::to_json(gpu));
  boost::json::array notes;
  for (const auto& note : run.notes) notes.push_back(boost::json::string(note));
  boost::json::object json{{"file", run.file.string()},
                           {"mode", runners::to_string(run.mode)},
                           {"notes", notes},
                           {"toolchain", boost::json::object{{"nvcc", runners::to_json(run.toolchain.nvcc)},
                                                             {"clang", runners::to_json(run.toolchain.clang)},
                                                             {"cuda_home", run.toolchain.cuda_home.string()}}},
                           {"gpus", gpus},
                           {"gpu_note", run.gpus.note},
                           {"configs", configs},
                           {"verdict", oracle::to_json(run.verdict)},
                           {"agree", run.verdict.agree()}};
  if (run.layout) json["layout"] = layout_json(*run.layout);
  if (run.expected) json["expected"] = oracle::to_json(*run.expected);
  return json;
}

} // namespace cudiff::cli
